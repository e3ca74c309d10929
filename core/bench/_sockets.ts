/**
 * Shared set-up for the socket benchmarks (B4, B5): a bench database with
 * one hot tenant (200 agents, a sandbox channel) and many other tenants, the
 * server in its own process, a session per agent, and agent sockets that
 * record what they receive and can resume from their last seq.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import WebSocket from 'ws';
import { recreateDatabase } from './_bench-db.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openSession } from '../src/modules/identity/sessions.ts';

export const arg = (k: string, d: number) => (process.argv.includes(`--${k}`) ? Number(process.argv[process.argv.indexOf(`--${k}`) + 1]) : d);

export interface AgentSocket {
  token: string;
  hot: boolean;
  ws?: WebSocket;
  epoch?: string;
  lastSeq: number;
  /** The seq at the first hello: everything after it is this agent's to receive. */
  firstSeq?: number;
  /** Seqs of `message.created` frames received. */
  created: Set<number>;
  resyncs: number;
  hellos: number;
  latencies: number[];
}

export async function socketFixture(name: string, opts: { sockets: number; hotAgents: number }) {
  const url = await recreateDatabase(name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const perTenant = 200;
  const coldTenants = Math.ceil((opts.sockets - opts.hotAgents) / perTenant);
  await pool.query(`INSERT INTO tenants (id, name, max_users, max_connections, terms_accepted_at) SELECT g, 'Empresa ' || g, 1000, 10, now() FROM generate_series(1, ${coldTenants + 2}) g`);
  await pool.query(`SELECT setval('tenants_id_seq', ${coldTenants + 2})`);
  const HOT = 2;
  await pool.query(`INSERT INTO users (tenant_id, name, email, password_hash, profile) SELECT ${HOT}, 'Agente ' || g, 'hot' || g || '@bench.local', 'x', 'admin' FROM generate_series(1, ${opts.hotAgents}) g`);
  await pool.query(
    `INSERT INTO users (tenant_id, name, email, password_hash, profile) SELECT 3 + (g / ${perTenant}), 'Agente ' || g, 'cold' || g || '@bench.local', 'x', 'admin' FROM generate_series(0, ${opts.sockets - opts.hotAgents - 1}) g`,
  );
  const channel = (await pool.query<{ id: number }>(`INSERT INTO channels (tenant_id, type, name, status, secrets) VALUES (${HOT}, 'sandbox', 'Sandbox', 'connected', '{"webhookSecret":"segredo-b4"}') RETURNING id`)).rows[0];

  const dataDir = fs.mkdtempSync(path.join('/tmp', `${name}-`));
  const server: ChildProcess = fork(path.join(import.meta.dirname, '_server.ts'), [], {
    // ATENDE_BENCH_PROF=<dir> writes a CPU profile of the server, as the ingest harness does.
    execArgv: ['--import', 'tsx', ...(process.env.ATENDE_BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.ATENDE_BENCH_PROF] : [])],
    env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', ATENDE_DATA_DIR: dataDir, ATENDE_NAMESPACE: `${name.replace(/_/g, '-')}-${process.pid}`, ATENDE_ADMIN_EMAIL: 'root@bench.local', ATENDE_ADMIN_PASSWORD: 'Bench#2026x' },
  });
  const base = await new Promise<string>((resolve) => server.on('message', (m: { url: string }) => resolve(m.url)));

  // Sessions are minted by a worker-less kernel on the same database (the install secret signs them).
  const minter = await buildApp({ ...loadConfig({ ATENDE_RATE_LIMIT_TENANT: '10000000', ATENDE_RATE_LIMIT_IP: '10000000', ATENDE_LOG_LEVEL: 'silent' }), databaseUrl: url, namespace: `${name.replace(/_/g, '-')}-mint` }, { logger: pino({ level: 'silent' }), workers: false, migrate: false });
  const users = (await pool.query<{ id: number; tenant_id: number }>(`SELECT id, tenant_id FROM users WHERE email LIKE '%@bench.local' AND email <> 'root@bench.local' ORDER BY id`)).rows;
  const agents: AgentSocket[] = [];
  for (let i = 0; i < users.length; i += 50) {
    const chunk = await Promise.all(users.slice(i, i + 50).map((u) => openSession(minter, { id: u.id, tenantId: u.tenant_id, profile: 'admin', tokenVersion: 0 })));
    chunk.forEach((tk, j) => agents.push({ token: tk.token, hot: users[i + j].tenant_id === HOT, lastSeq: 0, created: new Set(), resyncs: 0, hellos: 0, latencies: [] }));
  }

  const wsBase = base.replace('http', 'ws');
  /** Opens (or re-opens, resuming from its last seq) one agent's socket; resolves on `hello`. */
  function connect(a: AgentSocket, resume: boolean): Promise<void> {
    const qs = new URLSearchParams({ token: a.token });
    if (resume && a.epoch) {
      qs.set('epoch', a.epoch);
      qs.set('since', String(a.lastSeq));
    }
    const ws = new WebSocket(`${wsBase}/api/ws?${qs}`, { perMessageDeflate: false });
    a.ws = ws;
    return new Promise((resolve, reject) => {
      ws.on('message', (raw) => {
        const text = raw.toString();
        // Event frames start `{"seq":N,"epoch":"…","event":"name"`: read those from the head
        // instead of parsing every frame, so the load generator (10k sockets, one process)
        // keeps up and what is measured is the server.
        const head = /^\{"seq":(\d+),"epoch":"[^"]*","event":"([^"]+)"/.exec(text);
        if (head) {
          const seq = Number(head[1]);
          a.lastSeq = Math.max(a.lastSeq, seq);
          if (head[2] === 'message.created') {
            a.created.add(seq);
            const sentAt = Number(/ t=(\d+)/.exec(text)?.[1]);
            if (sentAt) a.latencies.push(Date.now() - sentAt);
          }
          return;
        }
        const f = JSON.parse(text);
        if (f.event === 'hello') {
          a.epoch = f.epoch;
          if (!resume) a.lastSeq = f.seq;
          a.firstSeq ??= f.seq;
          a.hellos++;
          resolve();
          return;
        }
        if (f.event === 'resync') {
          a.resyncs++;
          a.epoch = f.epoch;
          a.lastSeq = f.seq;
          resolve();
          return;
        }
        if (typeof f.seq === 'number') {
          a.lastSeq = Math.max(a.lastSeq, f.seq);
          if (f.event === 'message.created') {
            a.created.add(f.seq);
            const sentAt = Number(/t=(\d+)/.exec(f.data?.message?.body ?? '')?.[1]);
            if (sentAt) a.latencies.push(Date.now() - sentAt);
          }
        }
      });
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    });
  }

  async function connectAll(list: AgentSocket[], resume: boolean, concurrency = 200): Promise<number> {
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < list.length) {
          const a = list[next++];
          await connect(a, resume).catch(() => failed++);
        }
      }),
    );
    return failed;
  }

  let sent = 0;
  /** One signed customer message into the hot tenant, stamped with its send time. */
  async function postMessage(): Promise<number> {
    const body = JSON.stringify({ id: randomUUID(), from: { id: `c${sent++ % 500}`, name: 'Cliente' }, body: `Olá t=${Date.now()}` });
    const sig = `sha256=${createHmac('sha256', 'segredo-b4').update(body).digest('hex')}`;
    const res = await fetch(`${base}/api/plugins/channel-sandbox/webhook/${channel.id}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-signature': sig }, body });
    await res.text();
    return res.status;
  }

  /** Sends `rate` messages per second for `seconds`; returns the non-2xx count. */
  async function steadyLoad(rate: number, seconds: number, stop?: () => boolean): Promise<number> {
    let bad = 0;
    const inflight: Promise<void>[] = [];
    const start = Date.now();
    for (let i = 0; i < rate * seconds; i++) {
      if (stop?.()) break;
      const due = start + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inflight.push(postMessage().then((s) => void (s >= 300 && bad++), () => void bad++));
    }
    await Promise.all(inflight);
    return bad;
  }

  function serverRssMb(): number {
    const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  }

  async function close() {
    for (const a of agents) a.ws?.terminate();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await minter.close();
    await pool.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  return { base, agents, connect, connectAll, postMessage, steadyLoad, serverRssMb, close };
}
