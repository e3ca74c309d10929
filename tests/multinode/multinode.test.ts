/**
 * Several `atende start` processes on one database and one Redis namespace
 * behave as one install (docs/architecture.md, runtime modes): two api nodes on
 * different ports and two worker nodes. Real processes, real sockets, a real
 * long-lived channel session (Telegram polling a local Bot API).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { FakeBotApi } from '../../plugins/channel-telegram/src/fake-bot-api.ts';
import { AtendeNode, leaseOwnerOf, namespaceFor, until } from './cluster.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NS = namespaceFor('mn');
let t: TestApp;
let admin: TestUser;
let botApi: FakeBotApi;
let apiA: AtendeNode;
let apiB: AtendeNode;
let w1: AtendeNode;
let w2: AtendeNode;

beforeAll(async () => {
  botApi = await FakeBotApi.start();
  // The kit creates and migrates the database; in-process it only mints sessions (api role: no workers, no channel sessions).
  t = await createTestApp({ workers: false, config: { role: 'api', namespace: NS } });
  admin = await t.loginAs('admin');
  // The fake Bot API listens on loopback, which the outbound guard lets through only when the operator allows it (as the test kit does).
  const common = { databaseUrl: t.databaseUrl, redisUrl: REDIS_URL, namespace: NS, env: { ATENDE_OUTBOUND_ALLOW: '127.0.0.1' } };
  apiA = new AtendeNode('api-a', { ...common, role: 'api' });
  apiB = new AtendeNode('api-b', { ...common, role: 'api' });
  w1 = new AtendeNode('worker-1', { ...common, role: 'worker' });
  w2 = new AtendeNode('worker-2', { ...common, role: 'worker' });
  await Promise.all([apiA.start(), apiB.start(), w1.start(), w2.start()]);
}, 600_000);

afterAll(async () => {
  await Promise.all([apiA, apiB, w1, w2].map((n) => n?.stop()));
  await t?.close();
  await botApi?.close();
});

async function openSocket(node: AtendeNode, token: string) {
  const ws = new WebSocket(`${node.url.replace('http', 'ws')}/api/ws?token=${token}`);
  const frames: any[] = [];
  ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await until('hello frame', () => frames.find((f) => f.event === 'hello'), 10_000);
  return { ws, frames };
}

describe('multi-node install', () => {
  let channelId: number;

  it('a socket connected to node A receives the event of a request made on node B', async () => {
    const created = await apiB.request('POST', '/api/channels', { token: admin.token, body: { type: 'sandbox', name: 'Sandbox multinó' } });
    expect(created.status).toBe(201);
    channelId = created.json.id;
    const socket = await openSocket(apiA, admin.token);
    const sim = await apiB.request('POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { token: admin.token, body: { from: { id: 'cli-mn-1', name: 'Cliente Multinó' }, body: 'Olá do nó B' } });
    expect(sim.status).toBe(200);
    const frame = await until('message.created on node A', () => socket.frames.find((f) => f.event === 'message.created' && f.data.message.body === 'Olá do nó B'), 10_000);
    expect(frame.seq).toBeGreaterThan(0);
    socket.ws.close();
  });

  it('logging out on node B closes that session\'s socket on node A (node to node, not a client event)', async () => {
    const agent = await t.loginAs('user', admin.tenantId);
    const socket = await openSocket(apiA, agent.token);
    const other = await openSocket(apiA, admin.token);
    const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    const out = await apiB.request('POST', '/api/auth/logout/', { token: agent.token });
    expect(out.status).toBe(204);
    await until('session.ended on node A', () => socket.frames.find((f) => f.event === 'session.ended'), 10_000);
    expect(await closed).toBe(4001);
    // Only that session: another user's socket on the same node stays open.
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    other.ws.close();
  });

  it('jobs run once across the worker nodes: 30 replies sent from both api nodes reach the provider exactly once each', async () => {
    const sim = await apiA.request('POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { token: admin.token, body: { from: { id: 'cli-mn-2', name: 'Cliente Jobs' }, body: 'Quero 30 respostas' } });
    const ticketId = sim.json.ticketId;
    const before = (await w1.metric('atende_messages_outbound_total', { source: 'ticket' })) + (await w2.metric('atende_messages_outbound_total', { source: 'ticket' }));
    for (let i = 0; i < 30; i++) {
      const r = await (i % 2 ? apiA : apiB).request('POST', `/api/messages/${ticketId}`, { token: admin.token, body: { body: `Resposta ${i}` } });
      expect(r.status).toBe(201);
    }
    const rows = await until('30 sends recorded by the provider', async () => {
      const r = await t.sql.query<{ body: string; attempts: number }>(`SELECT body, attempts FROM channel_sandbox_outbox WHERE channel_id = $1 AND body LIKE 'Resposta %'`, [channelId]);
      return r.rows.length >= 30 ? r.rows : undefined;
    });
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.body)).size).toBe(30);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    // The provider has all 30; each leaves 'pending' once its send is recorded, a moment later.
    await until('every reply recorded as sent', async () => (await t.sql.query(`SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me AND status = 'pending'`, [ticketId])).rows[0].n === 0, 10_000);
    // Only worker nodes send, and between them each job ran once.
    const after = (await w1.metric('atende_messages_outbound_total', { source: 'ticket' })) + (await w2.metric('atende_messages_outbound_total', { source: 'ticket' }));
    expect(after - before).toBe(30);
    expect((await apiA.metric('atende_messages_outbound_total')) + (await apiB.metric('atende_messages_outbound_total'))).toBe(0);
  });

  it('login rate limits are shared: 5 wrong attempts spread over both api nodes lock the account on both', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await (i % 2 ? apiB : apiA).request('POST', '/api/auth/login', { body: { email: admin.email, password: 'Errada#999' } });
      expect(r.status).toBe(401);
      expect(r.json.error).toBe('ERR_INVALID_CREDENTIALS');
    }
    for (const node of [apiA, apiB]) {
      const r = await node.request('POST', '/api/auth/login', { body: { email: admin.email, password: admin.password } });
      expect(r.status).toBe(429);
      expect(r.json.error).toBe('ERR_LIMIT_MAX');
    }
  });

  it('a long-lived channel session runs on exactly one worker and moves to the other within 30 s when that worker is killed', async () => {
    const created = await apiA.request('POST', '/api/channels', { token: admin.token, body: { type: 'telegram', name: 'Telegram multinó', secrets: { token: botApi.token }, config: { apiRoot: botApi.url, mode: 'polling' } } });
    expect(created.status).toBe(201);
    const id = created.json.id as number;
    const lease = async () => (await t.sql.query<{ node_id: string | null; live: boolean }>(`SELECT node_id, lease_until > now() AS live FROM channel_sessions WHERE channel_id = $1`, [id])).rows[0];
    const status = async () => (await t.sql.query<{ status: string; status_at: Date }>(`SELECT status, status_at FROM channels WHERE id = $1`, [id])).rows[0];
    const first = await until('session leased and connected', async () => {
      const l = await lease();
      return l?.live && l.node_id && (await status()).status === 'connected' ? l : undefined;
    });
    const owner = [w1, w2].find((w) => first.node_id!.startsWith(leaseOwnerOf(w)));
    expect(owner, `lease holder ${first.node_id} is one of the workers`).toBeDefined();
    const other = owner === w1 ? w2 : w1;
    await until('customer message through the first session', async () => {
      await botApi.customerMessage('mn-1', { id: '7001', name: 'Cliente Telegram' }, { text: 'Antes da queda' });
      return (await t.sql.query(`SELECT 1 FROM messages WHERE channel_id = $1 AND body = 'Antes da queda'`, [id])).rowCount;
    }, 15_000, 500);

    const killedAt = Date.now();
    await owner!.kill('SIGKILL');
    await until(
      'session taken over by the surviving worker',
      async () => {
        const l = await lease();
        const s = await status();
        return l?.live && l.node_id?.startsWith(leaseOwnerOf(other)) && s.status === 'connected' && s.status_at.getTime() >= killedAt - 1000;
      },
      30_000,
      200,
    );
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(30_000);
    await botApi.customerMessage('mn-2', { id: '7001', name: 'Cliente Telegram' }, { text: 'Depois da queda' });
    await until('customer message through the new owner', async () => (await t.sql.query(`SELECT 1 FROM messages WHERE channel_id = $1 AND body = 'Depois da queda'`, [id])).rowCount, 15_000);
    const sessions = await t.sql.query(`SELECT count(*)::int AS n FROM messages WHERE channel_id = $1 AND body IN ('Antes da queda', 'Depois da queda')`, [id]);
    expect(sessions.rows[0].n).toBe(2);
  }, 75_000);
});
