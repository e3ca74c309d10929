/**
 * R7 shutdown (docs/reliability.md): SIGTERM under load. An api node stops accepting,
 * finishes what is in flight, tells its sockets to reconnect (they resume on
 * the other node without missing an event) and exits 0 within its bound; the
 * only 5xx it gives is 503 ERR_SHUTTING_DOWN while draining. A worker node
 * stops taking jobs, finishes the send in flight, hands its bulk-send lease
 * back at once and exits 0; the other worker carries on with no duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { bulkSendFor } from '../../core/src/modules/bulk/service.ts';
import { AtendeNode, namespaceFor, until } from '../multinode/cluster.ts';

const NS = namespaceFor('r7');
const SHUTDOWN_BOUND_MS = 5_000;
let t: TestApp;
let admin: TestUser;
let apiA: AtendeNode;
let apiB: AtendeNode;
let w1: AtendeNode;
let w2: AtendeNode;
let channelId: number;

beforeAll(async () => {
  t = await createTestApp({ workers: false, plugins: ['channel-sandbox'], config: { role: 'api', namespace: NS } });
  admin = await t.loginAs('admin');
  const common = { databaseUrl: t.databaseUrl, redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', namespace: NS, env: { ATENDE_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_BOUND_MS) } };
  apiA = new AtendeNode('r7-api-a', { ...common, role: 'api' });
  apiB = new AtendeNode('r7-api-b', { ...common, role: 'api' });
  w1 = new AtendeNode('r7-worker-1', { ...common, role: 'worker' });
  w2 = new AtendeNode('r7-worker-2', { ...common, role: 'worker' });
  await Promise.all([apiA.start(), apiB.start(), w1.start(), w2.start()]);
  const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'R7' } });
  channelId = ch.json().id;
}, 600_000);

afterAll(async () => {
  await Promise.all([apiA, apiB, w1, w2].map((n) => n?.stop()));
  await t?.close();
});

interface Answer {
  at: number;
  status: number | 'refused';
  error?: string;
}

describe('R7 SIGTERM under load', () => {
  it('an api node drains: no 5xx but 503 ERR_SHUTTING_DOWN, sockets told to reconnect resume on the other node, exit 0 within the bound', async () => {
    const ws = new WebSocket(`${apiA.url.replace('http', 'ws')}/api/ws?token=${admin.token}`);
    const frames: any[] = [];
    let closeCode = 0;
    ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
    ws.on('close', (code) => (closeCode = code));
    await until('hello', () => frames.find((f) => f.event === 'hello'), 10_000);

    let counter = 0;
    const answers: Answer[] = [];
    let running = true;
    const loop = async () => {
      while (running) {
        const n = ++counter;
        try {
          const r = n % 2
            ? await apiA.request('POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { token: admin.token, body: { id: `r7-${n}`, from: { id: `r7-c${n % 20}`, name: 'Cliente R7' }, body: `carga ${n}` } })
            : await apiA.request('GET', '/api/tickets?status=pending', { token: admin.token });
          answers.push({ at: Date.now(), status: r.status, error: r.json?.error });
        } catch {
          answers.push({ at: Date.now(), status: 'refused' });
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const loops = Array.from({ length: 6 }, loop);
    await until('load flowing', () => answers.filter((a) => a.status === 200).length >= 30, 30_000);
    const lastSeq = () => Math.max(0, ...frames.filter((f) => typeof f.seq === 'number').map((f) => f.seq));
    const epoch = frames.find((f) => f.event === 'hello').epoch;

    const termAt = Date.now();
    apiA.proc.kill('SIGTERM');
    const exit = await apiA.exited;
    const stoppedIn = Date.now() - termAt;
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await Promise.all(loops);

    expect(exit.code).toBe(0);
    expect(stoppedIn).toBeLessThan(SHUTDOWN_BOUND_MS + 5_000);
    const before = answers.filter((a) => a.at < termAt);
    expect(before.every((a) => a.status === 200)).toBe(true);
    const bad = answers.filter((a) => typeof a.status === 'number' && a.status >= 500 && !(a.status === 503 && a.error === 'ERR_SHUTTING_DOWN'));
    expect(bad).toEqual([]);
    expect(answers.filter((a) => typeof a.status === 'number' && a.status >= 400 && a.status < 500)).toEqual([]);

    // The socket was told to reconnect, then closed with 1012 (service restart).
    await until('socket closed', () => closeCode !== 0, 10_000);
    expect(frames.some((f) => f.event === 'server.restarting')).toBe(true);
    expect(closeCode).toBe(1012);

    // Events produced while it was away come back on resume from the other node; none is missed.
    const seenBefore = lastSeq();
    const gap = await apiB.request('POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { token: admin.token, body: { id: 'r7-gap', from: { id: 'r7-gap', name: 'Cliente Gap' }, body: 'durante a troca de nó' } });
    expect(gap.status).toBe(200);
    const resumed: any[] = [];
    const ws2 = new WebSocket(`${apiB.url.replace('http', 'ws')}/api/ws?token=${admin.token}&epoch=${epoch}&since=${seenBefore}`);
    ws2.on('message', (raw) => resumed.push(JSON.parse(raw.toString())));
    await until('missed event replayed', () => resumed.find((f) => f.event === 'message.created' && f.data.message.body === 'durante a troca de nó'), 10_000);
    expect(resumed.some((f) => f.event === 'resync')).toBe(false);
    // Zero missed: every event this agent may see after its last seq (as the polling fallback lists them) came on the resumed socket.
    const replayed = new Set(resumed.filter((f) => f.event !== 'hello' && typeof f.seq === 'number').map((f) => f.seq));
    const expected = await apiB.request('GET', `/api/events?epoch=${epoch}&since=${seenBefore}`, { token: admin.token });
    const due = (expected.json.events as { seq: number }[]).map((e) => e.seq).filter((s) => s <= Math.max(...replayed));
    expect(due.length).toBeGreaterThan(0);
    expect(due.filter((s) => !replayed.has(s))).toEqual([]);
    ws2.close();
    // Everything the node acknowledged was stored once.
    const stored = await t.sql.query(`SELECT count(*)::int AS n, count(DISTINCT provider_id)::int AS d FROM messages WHERE channel_id = $1 AND provider_id LIKE 'r7-%'`, [channelId]);
    expect(stored.rows[0].n).toBe(stored.rows[0].d);
  }, 90_000);

  it('a worker node finishes the send in flight, releases its bulk-send lease at once and exits 0; the other worker completes with no duplicate', async () => {
    const recipients = Array.from({ length: 1500 }, (_, i) => ({ to: `5521${String(900000000 + i)}` }));
    const batch = await bulkSendFor(t.app.kernel, 'r7').start({ tenantId: admin.tenantId, channelId, recipients, message: { body: 'R7 massa' }, pacing: { perSecond: 200 } });
    const holder = await until('a worker holds the channel lease', async () => {
      const r = await t.sql.query<{ owner: string | null }>(`SELECT owner FROM bulk_pacers WHERE channel_id = $1`, [channelId]);
      const owner = r.rows[0]?.owner;
      return owner ? [w1, w2].find((w) => owner.includes(`-${w.pid}-`)) : undefined;
    }, 30_000, 50);
    await until('sending', async () => (await t.sql.query(`SELECT sent FROM bulk_batches WHERE id = $1`, [batch.id])).rows[0].sent >= 50, 30_000, 50);
    const termAt = Date.now();
    holder.proc.kill('SIGTERM');
    const exit = await holder.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - termAt).toBeLessThan(SHUTDOWN_BOUND_MS + 5_000);
    // Handed back, not left to expire; nothing left half-sent.
    const pacer = await t.sql.query(`SELECT owner FROM bulk_pacers WHERE channel_id = $1`, [channelId]);
    expect(pacer.rows[0].owner === null || !pacer.rows[0].owner.includes(`-${holder.pid}-`)).toBe(true);
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM bulk_recipients WHERE batch_id = $1 AND state = 'sending' AND started_at < $2`, [batch.id, new Date(termAt)])).rows[0].n).toBe(0);

    await until('the other worker finished the batch', async () => (await t.sql.query(`SELECT status FROM bulk_batches WHERE id = $1`, [batch.id])).rows[0].status === 'done', 60_000, 250);
    const out = await t.sql.query(`SELECT count(*)::int AS n, count(DISTINCT recipient)::int AS d, max(attempts)::int AS a FROM channel_sandbox_outbox WHERE channel_id = $1 AND body = 'R7 massa'`, [channelId]);
    expect(out.rows[0]).toEqual({ n: 1500, d: 1500, a: 1 });
  }, 90_000);
});
