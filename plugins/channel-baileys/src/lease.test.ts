import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '@atende/core/testing';
import type { ChannelAdapter, ChannelRecord } from '@atende/core/sdk';
import { FakeWhatsApp, type FakeSocket } from './fake-whatsapp.ts';
import { baileysOptions } from './index.ts';

/**
 * Two worker nodes of one install (same database, same Redis namespace),
 * both with the plugin: the kernel's lease puts the WhatsApp session on
 * exactly one of them, the other forwards its sends there, and when the
 * owner stops the other resumes the same linked device from the auth state
 * in PostgreSQL, with no new QR code.
 */
const LEASE = { leaseMs: 3000, renewMs: 300 };
let a: TestApp;
let b: TestApp;
let admin: TestUser;
let wa: FakeWhatsApp;
/** The install's database, independent of either node (each test app's own `sql` pool goes with it). */
let db: pg.Pool;

const nodeOf = (s: FakeSocket) => (s.config.logger as unknown as { bindings(): { node: string } }).bindings().node;
const lease = async (id: number) => (await db.query<{ node_id: string | null; live: boolean }>('SELECT node_id, lease_until > now() AS live FROM channel_sessions WHERE channel_id = $1', [id])).rows[0];
const adapterOf = (t: TestApp) => (t.app as unknown as { kernel: { channelAdapters: Map<string, ChannelAdapter> } }).kernel.channelAdapters.get('baileys')!;

beforeAll(async () => {
  wa = await FakeWhatsApp.start();
  wa.autoScan = true;
  Object.assign(baileysOptions, { makeSocket: wa.makeWASocket, reconnectBaseMs: 100, reconnectMaxMs: 800, forwardTimeoutMs: 5000 });
  a = await createTestApp({ plugins: ['channel-baileys'], config: { channelSessions: LEASE } });
  b = await createTestApp({ plugins: ['channel-baileys'], config: { channelSessions: LEASE, databaseUrl: a.databaseUrl, namespace: `atende-t-${new URL(a.databaseUrl).pathname.slice(1)}` } });
  // Both listen and run sessions; only the lease decides who connects.
  await a.baseUrl();
  await b.baseUrl();
  admin = await a.loginAs('admin');
  db = new pg.Pool({ connectionString: a.databaseUrl, max: 2 });
});
afterAll(async () => {
  await b?.close().catch(() => undefined);
  await a?.close().catch(() => undefined);
  await wa?.close();
  await db?.end();
});

describe('a Baileys session across two nodes', () => {
  let id: number;
  let owner: string;

  it('runs on exactly one node, which keeps its lease', async () => {
    const res = await a.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'baileys', name: 'WhatsApp dois nós' } });
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
    await until(async () => (await db.query('SELECT status FROM channels WHERE id = $1', [id])).rows[0].status === 'connected');
    const created = wa.sockets.length;
    await new Promise((r) => setTimeout(r, LEASE.renewMs * 6));
    expect(wa.sockets.length, 'no second node opened a socket').toBe(created);
    expect(wa.open()).toHaveLength(1);
    owner = nodeOf(wa.open()[0]);
    expect(await lease(id)).toEqual({ node_id: owner, live: true });
  });

  it('sends from either node go out through the one socket', async () => {
    await wa.incoming({ from: '5511977770000', pushName: 'Cliente', text: 'oi' });
    const channel = (await db.query(`SELECT id, tenant_id AS "tenantId", type, name, number, status, config FROM channels WHERE id = $1`, [id])).rows[0] as ChannelRecord;
    const to = { kind: 'whatsapp', externalId: '5511977770000', isGroup: false };
    const viaA = await adapterOf(a).send({ ...channel, secrets: {} }, { messageId: '1', to, type: 'chat', body: 'enviada pelo nó A' });
    const viaB = await adapterOf(b).send({ ...channel, secrets: {} }, { messageId: '2', to, type: 'chat', body: 'enviada pelo nó B' });
    const sent = wa.sent.filter((s) => s.body?.startsWith('enviada pelo nó'));
    expect(sent.map((s) => s.message.key.id)).toEqual([viaA.providerId, viaB.providerId]);
    expect(wa.open()).toHaveLength(1);
  });

  it('a forwarded send travels node to node and takes no number from the tenant\'s event sequence', async () => {
    const [, other] = await ownerFirst(id);
    const channel = (await db.query(`SELECT id, tenant_id AS "tenantId", type, name, number, status, config FROM channels WHERE id = $1`, [id])).rows[0] as ChannelRecord;
    // The tenant's last event number, as a reconnecting browser would resume from.
    const lastSeq = async () => {
      const r = await a.app.kernel.bus.since(admin.tenantId, undefined, 0);
      return 'resync' in r ? r.seq : (r.events.at(-1)?.seq ?? 0);
    };
    await until(async () => {
      const s = await lastSeq();
      await new Promise((r) => setTimeout(r, 300));
      return s === (await lastSeq());
    });
    const before = await lastSeq();
    const sent = await adapterOf(other).send({ ...channel, secrets: {} }, { messageId: '3', to: { kind: 'whatsapp', externalId: '5511977770000', isGroup: false }, type: 'chat', body: 'encaminhada entre nós' });
    await adapterOf(other).react!({ ...channel, secrets: {} }, sent.providerId, '👍');
    expect(wa.sent.find((s) => s.body === 'encaminhada entre nós')?.message.key.id).toBe(sent.providerId);
    expect((wa.sent.at(-1)!.content as { react?: { text: string } }).react?.text).toBe('👍');
    expect(await lastSeq()).toBe(before);
  });

  it('when the owner stops, the other node resumes the same linked device from PostgreSQL, without a QR code', async () => {
    const [ownerApp, other] = await ownerFirst(id);
    const before = wa.sockets.length;
    await ownerApp.close();
    const took = await until(async () => {
      const l = await lease(id);
      return l?.live && l.node_id !== owner && wa.active() ? l : undefined;
    });
    expect(took.node_id).not.toBe(owner);
    const resumed = wa.sockets.slice(before);
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(resumed.every((s) => !s.qrShown)).toBe(true);
    expect(nodeOf(wa.active()!)).toBe(took.node_id);
    await until(async () => (await db.query('SELECT status FROM channels WHERE id = $1', [id])).rows[0].status === 'connected');
    // afterAll closes what is still open.
    if (ownerApp === a) a = other;
    else b = other;
  });
});

/**
 * Which app runs the session: only the owner sends locally, so a send that
 * claims the channel is disconnected (which a non-owner refuses at once
 * instead of forwarding) succeeds on the owner alone.
 */
async function ownerFirst(id: number): Promise<[TestApp, TestApp]> {
  const channel = (await db.query(`SELECT id, tenant_id AS "tenantId", type, name, number, config FROM channels WHERE id = $1`, [id])).rows[0];
  const probe = (t: TestApp) =>
    adapterOf(t)
      .send({ ...channel, status: 'disconnected', secrets: {} }, { messageId: 'probe', to: { kind: 'whatsapp', externalId: '5511977770000', isGroup: false }, type: 'chat', body: 'sonda' })
      .then(() => true, () => false);
  const [onA, onB] = [await probe(a), await probe(b)];
  expect([onA, onB].filter(Boolean), 'exactly one node sends locally').toHaveLength(1);
  return onA ? [a, b] : [b, a];
}
