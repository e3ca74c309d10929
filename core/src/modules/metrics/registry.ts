import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Kernel } from '../../kernel.ts';

/**
 * One Prometheus registry per kernel (tests build several apps in one
 * process, so the library's global registry would mix them). Values that
 * are cheap to read at scrape time (sockets, queue depths, channel status)
 * are gauges with a `collect` callback; the rest are counted where they
 * happen.
 */
export interface KernelMetrics {
  registry: Registry;
  http: Histogram<'route' | 'method' | 'status'>;
  ingested: Counter;
  outbound: Counter<'channel_type' | 'source' | 'result'>;
}

const instances = new WeakMap<Kernel, KernelMetrics>();

export function kernelMetrics(kernel: Kernel): KernelMetrics {
  let m = instances.get(kernel);
  if (!m) instances.set(kernel, (m = createMetrics(kernel)));
  return m;
}

/** Counts one outbound send outcome; a no-op before the metrics module has built the registry. */
export function countOutbound(kernel: Kernel, channelType: string, source: 'ticket' | 'bulk', result: 'sent' | 'failed'): void {
  instances.get(kernel)?.outbound.inc({ channel_type: channelType, source, result });
}

function createMetrics(kernel: Kernel): KernelMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role: kernel.config.role });
  // Process CPU, RSS, heap, GC and event-loop lag (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const http = new Histogram({
    name: 'atende_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const ingested = new Counter({ name: 'atende_messages_ingested_total', help: 'Inbound messages stored by this node (duplicates excluded)', registers: [registry] });
  const outbound = new Counter({
    name: 'atende_messages_outbound_total',
    help: 'Outbound sends finished by this node, by result',
    labelNames: ['channel_type', 'source', 'result'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'atende_realtime_sockets',
    help: 'WebSockets connected to this node',
    registers: [registry],
    collect() {
      this.set(kernel.realtime.size);
    },
  });

  new Gauge({
    name: 'atende_job_queue_jobs',
    help: 'Jobs per queue and state (shared by every node: queues live in Redis or PostgreSQL)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        kernel.jobs.definedNames().map(async (queue) => {
          const c = await kernel.jobs.counts(queue).catch(() => undefined);
          if (!c) return;
          for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) this.set({ queue, state }, c[state] ?? 0);
        }),
      );
    },
  });

  new Gauge({
    name: 'atende_channel_status',
    help: 'One series per channel with value 1 on its current status',
    labelNames: ['tenant', 'channel', 'type', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const r = await kernel.db.pool.query<{ id: number; tenant_id: number; type: string; status: string }>('SELECT id, tenant_id, type, status FROM channels WHERE deleted_at IS NULL');
      for (const c of r.rows) this.set({ tenant: String(c.tenant_id), channel: String(c.id), type: c.type, status: c.status }, 1);
    },
  });

  new Gauge({
    name: 'atende_dependency_up',
    help: '1 when this node reaches the dependency (database, bus, jobs)',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const db = await kernel.db.pool.query('SELECT 1').then(() => 1, () => 0);
      this.set({ dependency: 'database' }, db);
      this.set({ dependency: 'bus' }, (await kernel.bus.health()) ? 1 : 0);
      this.set({ dependency: 'jobs' }, (await kernel.jobs.health()) ? 1 : 0);
    },
  });

  return { registry, http, ingested, outbound };
}
