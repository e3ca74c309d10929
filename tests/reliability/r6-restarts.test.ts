/**
 * R6 dependency restarts (docs/reliability.md), on a private Redis and a private
 * PostgreSQL started for this test (the machine's shared servers are never
 * touched): under a steady flow of signed webhooks, Redis is killed and
 * started again, then PostgreSQL is stopped and started again. Without
 * anyone restarting Atende, jobs and real time resume within 30 s; while the
 * database is away webhooks answer non-2xx (so the provider retries), and in
 * the end every message the provider sent is stored exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmbeddedPostgres, type EmbeddedDb } from '../../core/src/db/embedded.ts';
import { AtendeNode, freePort, namespaceFor, until } from '../multinode/cluster.ts';

const NS = namespaceFor('r6');
const RESUME_MS = 30_000;
const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-r6-pg-'));
let redisPort: number;
let redis: ChildProcess | undefined;
let pg: EmbeddedDb | undefined;
let t: Awaited<ReturnType<typeof import('../../core/src/testing/index.ts').createTestApp>>;
let api: AtendeNode;
let worker: AtendeNode;
let admin: { token: string; tenantId: number };
let channel: { id: number; secret: string };

async function startRedis() {
  redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' });
  await until('private redis up', async () => {
    const { Redis } = await import('ioredis');
    const c = new Redis({ port: redisPort, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await c.connect();
      return (await c.ping()) === 'PONG';
    } finally {
      c.disconnect();
    }
  }, 10_000);
}

async function killRedis() {
  const r = redis!;
  const gone = new Promise((resolve) => r.once('exit', resolve));
  r.kill('SIGKILL');
  await gone;
}

beforeAll(async () => {
  redisPort = await freePort();
  await startRedis();
  pg = await startEmbeddedPostgres(pgDir, { info: () => undefined, warn: () => undefined });
  // The kit clones its migrated template on whichever server this names.
  process.env.ATENDE_TEST_DATABASE_URL = pg.url;
  const { createTestApp } = await import('../../core/src/testing/index.ts');
  t = await createTestApp({ workers: false, plugins: ['channel-sandbox'], config: { role: 'api', namespace: NS, redisUrl: `redis://127.0.0.1:${redisPort}` } });
  admin = await t.loginAs('admin');
  const common = { databaseUrl: t.databaseUrl, redisUrl: `redis://127.0.0.1:${redisPort}`, namespace: NS };
  api = new AtendeNode('r6-api', { ...common, role: 'api' });
  worker = new AtendeNode('r6-worker', { ...common, role: 'worker' });
  await Promise.all([api.start(), worker.start()]);
  const ch = await api.request('POST', '/api/channels', { token: admin.token, body: { type: 'sandbox', name: 'R6' } });
  const secret = await api.request('GET', `/api/plugins/channel-sandbox/channels/${ch.json.id}/secret`, { token: admin.token });
  channel = { id: ch.json.id, secret: secret.json.secret };
}, 600_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await t?.close().catch(() => undefined);
  if (redis && redis.exitCode === null) await killRedis();
  await pg?.stop().catch(() => undefined);
  fs.rmSync(pgDir, { recursive: true, force: true });
});

/** The simulated provider: signs each message, and retries one until the install acknowledges it with a 2xx, like WhatsApp or Telegram do. */
function provider() {
  const answers: { at: number; status: number | 'refused' }[] = [];
  const acked = new Set<string>();
  let n = 0;
  let running = true;
  const post = async (id: string) => {
    const raw = JSON.stringify({ id, from: { id: `r6-${Number(id.split('-')[1]) % 10}`, name: 'Cliente R6' }, body: `msg ${id}` });
    const sig = `sha256=${createHmac('sha256', channel.secret).update(raw).digest('hex')}`;
    try {
      const res = await fetch(`${api.url}/api/plugins/channel-sandbox/webhook/${channel.id}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-signature': sig }, body: raw, signal: AbortSignal.timeout(10_000) });
      await res.text();
      answers.push({ at: Date.now(), status: res.status });
      return res.status >= 200 && res.status < 300;
    } catch {
      answers.push({ at: Date.now(), status: 'refused' });
      return false;
    }
  };
  const loop = async () => {
    while (running) {
      const id = `r6-${++n}`;
      // A provider keeps redelivering what was not acknowledged.
      while (!(await post(id))) await new Promise((r) => setTimeout(r, 250));
      acked.add(id);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const loops = Array.from({ length: 3 }, loop);
  return { answers, acked, stop: async () => ((running = false), await Promise.all(loops)) };
}

async function socket() {
  const frames: any[] = [];
  const ws = new WebSocket(`${api.url.replace('http', 'ws')}/api/ws?token=${admin.token}`);
  ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
  ws.on('error', () => undefined);
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  return { ws, frames };
}

/** Real time works: a new webhook's message reaches an agent socket (reconnecting as the client would). */
async function realtimeWorks(tag: string) {
  const s = await socket();
  try {
    await until(`hello ${tag}`, () => s.frames.find((f) => f.event === 'hello'), 10_000);
    const raw = JSON.stringify({ id: `probe-${tag}-${Date.now()}`, from: { id: 'r6-probe', name: 'Sonda' }, body: `sonda ${tag}` });
    const sig = `sha256=${createHmac('sha256', channel.secret).update(raw).digest('hex')}`;
    const res = await fetch(`${api.url}/api/plugins/channel-sandbox/webhook/${channel.id}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-signature': sig }, body: raw });
    if (res.status !== 200) return false;
    await until(`event ${tag}`, () => s.frames.find((f) => f.event === 'message.created' && f.data.message.body === `sonda ${tag}`), 5_000);
    return true;
  } finally {
    s.ws.close();
  }
}

/** Jobs work: an agent's reply goes through the worker's send job to the provider. */
async function jobsWork(tag: string) {
  const ticket = await t.sql.query<{ id: number }>(`SELECT id FROM tickets WHERE channel_id = $1 ORDER BY id LIMIT 1`, [channel.id]);
  const r = await api.request('POST', `/api/messages/${ticket.rows[0].id}`, { token: admin.token, body: { body: `resposta ${tag}` } });
  if (r.status !== 201) return false;
  await until(`send ${tag}`, async () => (await t.sql.query(`SELECT 1 FROM channel_sandbox_outbox WHERE channel_id = $1 AND body = $2`, [channel.id, `resposta ${tag}`])).rowCount, 10_000, 200);
  return true;
}

describe('R6 Redis and PostgreSQL restarts under load', () => {
  it('recovers by itself within 30 s of each restart, refuses webhooks it cannot store, and loses nothing', async () => {
    const load = provider();
    await until('load flowing', () => load.acked.size >= 10, 30_000);
    expect(await realtimeWorks('inicio')).toBe(true);
    expect(await jobsWork('inicio')).toBe(true);

    // Redis dies and comes back empty.
    await killRedis();
    await new Promise((r) => setTimeout(r, 2_000));
    await startRedis();
    const redisBack = Date.now();
    await until('real time after the Redis restart', () => realtimeWorks(`redis-${Date.now()}`), RESUME_MS, 500);
    await until('jobs after the Redis restart', () => jobsWork(`redis-${Date.now()}`), RESUME_MS - (Date.now() - redisBack), 500);
    expect(Date.now() - redisBack).toBeLessThan(RESUME_MS);

    // PostgreSQL goes away for a few seconds.
    const ackedBeforePg = load.acked.size;
    await pg!.stop();
    const pgDownAt = Date.now();
    await until('webhooks refused while the database is down', () => load.answers.some((a) => a.at > pgDownAt && a.status !== 'refused' && a.status >= 500), 15_000);
    await new Promise((r) => setTimeout(r, 2_000));
    const downAnswers = load.answers.filter((a) => a.at > pgDownAt + 500);
    expect(downAnswers.length).toBeGreaterThan(0);
    expect(downAnswers.every((a) => a.status === 'refused' || (a.status >= 500 && a.status !== 200))).toBe(true);
    pg = await startEmbeddedPostgres(pgDir, { info: () => undefined, warn: () => undefined });
    const pgBack = Date.now();
    await until('webhooks acknowledged again', () => load.acked.size > ackedBeforePg + 5, RESUME_MS, 200);
    await until('real time after the PostgreSQL restart', () => realtimeWorks(`pg-${Date.now()}`), RESUME_MS, 500);
    await until('jobs after the PostgreSQL restart', () => jobsWork(`pg-${Date.now()}`), RESUME_MS, 500);
    expect(Date.now() - pgBack).toBeLessThan(RESUME_MS);

    await load.stop();
    // Nothing lost, nothing doubled: every message the provider got a 2xx for is stored exactly once.
    const rows = await t.sql.query<{ provider_id: string; n: number }>(`SELECT provider_id, count(*)::int AS n FROM messages WHERE channel_id = $1 AND provider_id LIKE 'r6-%' GROUP BY provider_id`, [channel.id]);
    const stored = new Map(rows.rows.map((r) => [r.provider_id, r.n]));
    expect([...load.acked].filter((id) => stored.get(id) !== 1)).toEqual([]);
    expect(rows.rows.every((r) => r.n === 1)).toBe(true);
  }, 200_000);
});
