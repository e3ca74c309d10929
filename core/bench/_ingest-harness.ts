/**
 * The B1 ingest harness shared by every channel's ingest benchmark: 100
 * tenants with one connected channel and one agent socket each, the server
 * in its own process (so the load generator does not share its event loop),
 * phase 1 at full speed (throughput, ack p99) and phase 2 at 500 msg/s
 * (ack p99 and webhook → agent socket p99). A channel benchmark only says
 * how its channel rows look and how one signed webhook is built; the
 * message text must carry `t=<epoch ms>` so the socket side can time it.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import WebSocket from 'ws';
import pino from 'pino';
import { recreateDatabase, percentile, report } from './_bench-db.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openSession } from '../src/modules/identity/sessions.ts';

export const arg = (k: string, d: number) => (process.argv.includes(`--${k}`) ? Number(process.argv[process.argv.indexOf(`--${k}`) + 1]) : d);

export interface BenchChannel {
  id: number;
  tenant_id: number;
}

export interface IngestBenchOptions {
  /** Label printed before each figure (`B1`, `B1 WABA`). */
  label: string;
  database: string;
  channelType: string;
  /** Channel `config` and `secrets` as SQL expressions of the tenant id `g` (e.g. `jsonb_build_object('webhookSecret', 'segredo-' || g)`). */
  configSql?: string;
  secretsSql: string;
  /** One signed webhook for a random channel. */
  request(channel: BenchChannel): { path: string; headers: Record<string, string>; body: string };
  seconds?: number;
  connections?: number;
  tenants?: number;
  /** Environment for the server process (e.g. a provider base URL). */
  env?: Record<string, string>;
}

/**
 * CPU time (ms) used so far by the server process and by the PostgreSQL
 * backends connected to the bench database, read from /proc (Linux only;
 * undefined elsewhere). Throughput on a shared 2-core machine moves with
 * whatever else runs; CPU per message mostly does not, so it tells whether a
 * change made the work cheaper.
 */
async function cpuSnapshot(pool: pg.Pool, database: string, serverPid: number): Promise<{ server: number; pg: Map<number, number> } | undefined> {
  const ticks = (pid: number) => {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    } catch {
      return 0;
    }
  };
  if (!fs.existsSync(`/proc/${serverPid}/stat`)) return undefined;
  const pids = (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])).rows;
  return { server: ticks(serverPid), pg: new Map(pids.map((r) => [r.pid, ticks(r.pid)])) };
}

export async function runIngestBench(opts: IngestBenchOptions): Promise<boolean> {
  const SECONDS = opts.seconds ?? arg('seconds', 20);
  const CONNECTIONS = opts.connections ?? arg('connections', 32);
  const TENANTS = opts.tenants ?? 100;
  // Phase 2's steady rate (docs/performance.md: 500 msg/s); lower it to compare changes on a slower machine at the same share of its capacity.
  const RATE = arg('rate', 500);

  const url = await recreateDatabase(opts.database);
  if (process.env.ATENDE_BENCH_EXPLAIN) {
    // Diagnosis: plans of statements slower than this many ms go to the PostgreSQL log (auto_explain), nested ones included.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${opts.database}" SET session_preload_libraries = 'auto_explain'`);
    await admin.query(`ALTER DATABASE "${opts.database}" SET auto_explain.log_min_duration = '${Number(process.env.ATENDE_BENCH_EXPLAIN)}ms'`);
    await admin.query(`ALTER DATABASE "${opts.database}" SET auto_explain.log_nested_statements = on`);
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await pool.query(`INSERT INTO tenants (id, name, max_users, max_connections, terms_accepted_at) SELECT g, 'Empresa ' || g, 100, 10, CASE WHEN g = 1 THEN now() END FROM generate_series(1, ${TENANTS + 1}) g`);
  await pool.query(`SELECT setval('tenants_id_seq', ${TENANTS + 1})`);
  await pool.query(
    `INSERT INTO channels (tenant_id, type, name, status, config, secrets)
     SELECT g, $1, 'Canal ' || g, 'connected', ${opts.configSql ?? `'{}'::jsonb`}, ${opts.secretsSql} FROM generate_series(2, ${TENANTS + 1}) g`,
    [opts.channelType],
  );
  const channels = (await pool.query<BenchChannel>('SELECT id, tenant_id FROM channels ORDER BY id')).rows;

  const child = fork(path.join(import.meta.dirname, '_server.ts'), [], {
    execArgv: ['--import', 'tsx', ...(process.env.ATENDE_BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.ATENDE_BENCH_PROF] : [])],
    env: { ...process.env, ...opts.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', ATENDE_ADMIN_EMAIL: 'root@bench.local', ATENDE_ADMIN_PASSWORD: 'Bench#2026x' },
  });
  const base = await new Promise<string>((resolve) => child.on('message', (m: { url: string }) => resolve(m.url)));

  // One agent socket per tenant, to measure webhook → screen latency. Sessions are minted by a
  // second, worker-less kernel on the same database (the same install secret signs them).
  const minter = await buildApp({ ...loadConfig({ ATENDE_RATE_LIMIT_TENANT: '10000000', ATENDE_RATE_LIMIT_IP: '10000000', ATENDE_LOG_LEVEL: 'silent' }), databaseUrl: url, namespace: `${opts.database}-mint` }, { logger: pino({ level: 'silent' }), workers: false, migrate: false });
  await pool.query(`INSERT INTO users (tenant_id, name, email, password_hash, profile) SELECT g, 'Admin ' || g, 'admin' || g || '@bench.local', 'x', 'admin' FROM generate_series(2, ${TENANTS + 1}) g`);
  const admins = (await pool.query<{ id: number; tenant_id: number }>(`SELECT id, tenant_id FROM users WHERE email LIKE 'admin%@bench.local'`)).rows;
  const latencies: number[] = [];
  let measuring = false;
  const sockets: WebSocket[] = [];
  for (const a of admins) {
    const { token } = await openSession(minter, { id: a.id, tenantId: a.tenant_id, profile: 'admin', tokenVersion: 0 });
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/ws?token=${token}`);
    ws.on('message', (raw) => {
      if (!measuring) return;
      const f = JSON.parse(raw.toString());
      if (f.event === 'message.created') {
        const sentAt = Number(/t=(\d+)/.exec(f.data.message.body)?.[1]);
        if (sentAt) latencies.push(Date.now() - sentAt);
      }
    });
    await new Promise((r) => ws.once('open', r));
    sockets.push(ws);
  }

  const run = (overallRate?: number) =>
    autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      overallRate,
      requests: [{ setupRequest: ((req: object) => Object.assign(req, { method: 'POST', ...opts.request(channels[Math.floor(Math.random() * channels.length)]) })) as never }],
    });

  console.log(`${opts.label} phase 1: saturating for ${SECONDS} s with ${CONNECTIONS} connections…`);
  const cpu0 = await cpuSnapshot(pool, opts.database, child.pid!);
  const p1 = await run();
  const cpu1 = await cpuSnapshot(pool, opts.database, child.pid!);
  const stored1 = Number((await pool.query('SELECT count(*) FROM messages')).rows[0].count);
  const rate = p1['2xx'] / SECONDS;
  console.log(`${opts.label} phase 2: ${RATE} msg/s for ${SECONDS} s, measuring webhook → agent socket…`);
  measuring = true;
  const p2 = await run(RATE);
  measuring = false;
  await new Promise((r) => setTimeout(r, 500));

  const ok = report([
    { name: `${opts.label} sustained ingest`, value: rate, unit: 'msg/s', target: '>= 1500', ok: rate >= 1500 },
    { name: `${opts.label} webhook ack p99 (saturated)`, value: p1.latency.p99, unit: 'ms', target: '< 20 (at 500/s)', ok: true },
    { name: `${opts.label} webhook ack p99 at ${RATE} msg/s`, value: p2.latency.p99, unit: 'ms', target: '< 20', ok: p2.latency.p99 < 20 && RATE >= 500 },
    { name: `${opts.label} webhook → agent socket p99 at ${RATE} msg/s`, value: percentile(latencies, 99), unit: 'ms', target: '< 100', ok: percentile(latencies, 99) < 100 && RATE >= 500 },
    { name: `${opts.label} non-2xx answers`, value: p1.non2xx + p2.non2xx, unit: 'count', target: '0', ok: p1.non2xx + p2.non2xx === 0 },
  ]);
  console.log(`phase 2 ack p50 ${p2.latency.p50} p90 ${p2.latency.p90} p99 ${p2.latency.p99}; socket p50 ${percentile(latencies, 50)}`);
  console.log(`stored after phase 1: ${stored1} messages; events measured in phase 2: ${latencies.length}`);
  if (cpu0 && cpu1) {
    const per = (ms: number) => (p1['2xx'] ? (ms / p1['2xx']).toFixed(3) : '?');
    // Per backend: one that connected during the phase counts from zero.
    const pgMs = [...cpu1.pg].reduce((n, [pid, ms]) => n + ms - (cpu0.pg.get(pid) ?? 0), 0);
    console.log(`CPU per message in phase 1: server ${per(cpu1.server - cpu0.server)} ms, PostgreSQL backends ${per(pgMs)} ms (load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  }
  for (const s of sockets) s.close();
  child.kill('SIGTERM');
  await minter.close();
  await pool.end();
  return ok;
}
