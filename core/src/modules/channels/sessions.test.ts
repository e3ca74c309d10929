import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig, ROOT_DIR } from '../../config.ts';
import type { ChannelAdapter } from '../../sdk/channel.ts';
import { createTestApp, until, type TestApp, type TestUser } from '../../testing/index.ts';
import { authState, channelSessions } from './sessions.ts';

/**
 * Long-lived sessions across worker nodes: several kernels on one database
 * (and one Redis namespace), each running the session manager. Short lease
 * timings keep the test fast; production uses 20 s renewed every 5 s.
 */
const LEASE = { leaseMs: 3000, renewMs: 300 };
let t: TestApp;
let admin: TestUser;
const nodes: FastifyInstance[] = [];
const connects: { node: string; channelId: number }[] = [];

function probe(label: string): ChannelAdapter {
  return {
    type: 'probe-session',
    label: 'Probe session',
    identityKind: 'probe',
    longLived: true,
    capabilities: { media: [], buttons: false, lists: false, templates: false, reactions: false, edit: false, delete: false, groups: false, qr: false, pairingCode: false, historyImport: false, readReceipts: false },
    async connect(channel, runtime) {
      connects.push({ node: label, channelId: channel.id });
      await runtime.setStatus(channel.tenantId, channel.id, 'connected');
    },
    async send() {
      throw new Error('not used');
    },
  };
}

const dbName = () => new URL(t.databaseUrl).pathname.slice(1);

/** Another worker node of the same install. */
async function node(label: string): Promise<FastifyInstance> {
  const config = {
    ...loadConfig({ ATENDE_LOG_LEVEL: 'silent', ATENDE_CAPTCHA: 'off' }),
    databaseUrl: t.databaseUrl,
    redisUrl: process.env.REDIS_URL,
    namespace: `atende-t-${dbName()}`,
    dataDir: path.join(ROOT_DIR, '.atende-test', `${dbName()}-${label}`),
    plugins: [],
    channelSessions: LEASE,
  };
  const app = await buildApp(config, { logger: pino({ level: 'silent' }), migrate: false, workers: false });
  app.kernel.channelAdapters.set('probe-session', probe(label));
  await app.ready();
  nodes.push(app);
  return app;
}

const lease = async (channelId: number) => (await t.sql.query<{ node_id: string | null; live: boolean }>('SELECT node_id, lease_until > now() AS live FROM channel_sessions WHERE channel_id = $1', [channelId])).rows[0];
const idOf = (app: FastifyInstance) => channelSessions(app.kernel).nodeId;

beforeAll(async () => {
  // This app is only the database and the login: it is never made ready, so it runs no sessions itself.
  t = await createTestApp({ plugins: [], config: { channelSessions: LEASE } });
  admin = await t.loginAs('admin');
});
afterAll(async () => {
  for (const n of nodes) await n.close().catch(() => undefined);
  await t?.close();
});

describe('long-lived channel sessions', () => {
  let channelId: number;

  it('run on exactly one node, which keeps renewing its lease', async () => {
    const a = await node('A');
    const b = await node('B');
    const res = await a.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'probe-session', name: 'Sessão' } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().id;
    await until(async () => (await lease(channelId))?.live);
    // Several renew periods later: still one connect, one owner, on the node the lease names.
    await new Promise((r) => setTimeout(r, LEASE.renewMs * 6));
    const mine = connects.filter((c) => c.channelId === channelId);
    expect(mine).toHaveLength(1);
    const owner = (await lease(channelId)).node_id;
    expect([idOf(a), idOf(b)]).toContain(owner);
    // Read until settled: on a loaded machine a renewal may be in flight at the instant of one read.
    await until(async () => [a, b].filter((n) => channelSessions(n.kernel).owns(channelId)).length === 1);
    expect([a, b].filter((n) => channelSessions(n.kernel).owns(channelId))).toHaveLength(1);
    const status = await t.sql.query('SELECT status FROM channels WHERE id = $1', [channelId]);
    expect(status.rows[0].status).toBe('connected');
  });

  it('a node that stops gracefully releases its sessions and another node takes over at once', async () => {
    const [a, b] = nodes;
    const owner = channelSessions(a.kernel).owns(channelId) ? a : b;
    const other = owner === a ? b : a;
    const started = Date.now();
    await owner.close();
    nodes.splice(nodes.indexOf(owner), 1);
    // Owning comes first, then the adapter's connect runs: wait for both.
    await until(async () => (await lease(channelId))?.node_id === idOf(other) && connects.filter((c) => c.channelId === channelId).length === 2);
    expect(Date.now() - started).toBeLessThan(LEASE.leaseMs);
    expect(channelSessions(other.kernel).owns(channelId)).toBe(true);
  });

  it('a node killed with SIGKILL loses its sessions when the lease runs out, and a live node picks them up', async () => {
    // Hand the session to a separate process: stop the in-process node, start the child.
    await nodes.pop()!.close();
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'lease-node.fixture.ts')], {
      env: { ...process.env, LEASE_DATABASE_URL: t.databaseUrl, LEASE_REDIS_URL: process.env.REDIS_URL ?? '', LEASE_NAMESPACE: `atende-t-${dbName()}`, LEASE_MS: String(LEASE.leaseMs), LEASE_RENEW_MS: String(LEASE.renewMs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d.toString()));
    try {
      const childId = await until(async () => /ready (\S+)/.exec(out)?.[1], 60_000);
      await until(async () => out.includes(`connected ${channelId}`) && (await lease(channelId))?.node_id === childId, 15_000);

      const survivor = await node('C');
      await new Promise((r) => setTimeout(r, LEASE.renewMs * 4));
      expect((await lease(channelId)).node_id, 'a live lease is never taken').toBe(childId);
      expect(channelSessions(survivor.kernel).owns(channelId)).toBe(false);
      // Auth state is fenced: only the lease holder may write it.
      const state = authState(survivor.kernel, channelSessions(survivor.kernel), channelId);
      await expect(state.set('creds', { me: 'C' })).rejects.toThrow(/outro nó/);

      const killedAt = Date.now();
      child.kill('SIGKILL');
      await until(async () => (await lease(channelId))?.node_id === idOf(survivor) && connects.some((c) => c.channelId === channelId && c.node === 'C'), LEASE.leaseMs + 5000);
      const tookMs = Date.now() - killedAt;
      expect(tookMs).toBeLessThan(LEASE.leaseMs + 3000);
      expect(connects.filter((c) => c.channelId === channelId && c.node === 'C')).toHaveLength(1);
      await state.set('creds', { me: 'C' });
      expect(await state.get('creds')).toEqual({ me: 'C' });
      expect(await state.keys()).toEqual(['creds']);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  it('disconnect stops the session everywhere and no node restarts it; connect brings it back', async () => {
    const survivor = nodes.at(-1)!;
    const off = await survivor.inject({ method: 'POST', url: `/api/channels/${channelId}/disconnect`, headers: admin.headers });
    expect(off.json().status).toBe('disconnected');
    expect(channelSessions(survivor.kernel).owns(channelId)).toBe(false);
    await new Promise((r) => setTimeout(r, LEASE.leaseMs + LEASE.renewMs * 2));
    expect((await lease(channelId)).node_id).toBeNull();
    expect((await t.sql.query('SELECT status FROM channels WHERE id = $1', [channelId])).rows[0].status).toBe('disconnected');
    const on = await survivor.inject({ method: 'POST', url: `/api/channels/${channelId}/connect`, headers: admin.headers });
    expect(on.statusCode).toBe(202);
    await until(async () => channelSessions(survivor.kernel).owns(channelId));
    await until(async () => (await t.sql.query('SELECT status FROM channels WHERE id = $1', [channelId])).rows[0].status === 'connected');
    // Deleting the channel forgets its auth state.
    await survivor.inject({ method: 'DELETE', url: `/api/channels/${channelId}`, headers: admin.headers });
    expect((await t.sql.query('SELECT count(*)::int AS n FROM channel_auth_state WHERE channel_id = $1', [channelId])).rows[0].n).toBe(0);
  });
});
