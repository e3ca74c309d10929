import { randomUUID } from 'node:crypto';
import type { DeliveredEvent, EventBusPort, EventEnvelope } from '../sdk/types.ts';

/**
 * How many recent events per tenant are kept for resume and polling: a busy tenant
 * (50 customer messages a second, two events each, plus presence) fills this in about a
 * minute and a half, longer than a reconnect storm takes (docs/performance.md B5: all back < 60 s).
 */
export const RETAIN_PER_TENANT = 10_000;

/**
 * Single-node bus for the embedded default: sequences per tenant in memory and
 * keeps a bounded ring of recent events for resume. The epoch changes on each
 * start, so clients of a previous process are told to resync.
 */
export class LocalEventBus implements EventBusPort {
  private readonly epoch = randomUUID();
  private readonly seqs = new Map<number, number>();
  private readonly logs = new Map<number, DeliveredEvent[]>();
  private readonly handlers = new Set<(e: DeliveredEvent) => void>();

  async publish<T>(e: EventEnvelope<T>): Promise<DeliveredEvent<T>> {
    const seq = (this.seqs.get(e.tenantId) ?? 0) + 1;
    this.seqs.set(e.tenantId, seq);
    const d: DeliveredEvent<T> = { ...e, rooms: e.rooms ?? ['tenant'], seq, epoch: this.epoch, at: Date.now() };
    let log = this.logs.get(e.tenantId);
    if (!log) this.logs.set(e.tenantId, (log = []));
    log.push(d);
    if (log.length > RETAIN_PER_TENANT) log.splice(0, log.length - RETAIN_PER_TENANT);
    for (const h of this.handlers) h(d);
    return d;
  }

  subscribe(handler: (e: DeliveredEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async since(tenantId: number, epoch: string | undefined, since: number) {
    const seq = this.seqs.get(tenantId) ?? 0;
    if (epoch !== undefined && epoch !== this.epoch) return { resync: true as const, epoch: this.epoch, seq };
    const log = this.logs.get(tenantId) ?? [];
    if (since < seq && (log.length === 0 || log[0].seq > since + 1)) return { resync: true as const, epoch: this.epoch, seq };
    return { epoch: this.epoch, events: log.filter((e) => e.seq > since) };
  }

  async health() {
    return true;
  }

  async close() {
    this.handlers.clear();
  }
}
