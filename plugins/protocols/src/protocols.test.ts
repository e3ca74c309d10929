import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ plugins: ['protocols', 'channel-sandbox'] });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function ticket(who: TestUser, name: string, number: string, userId?: number): Promise<{ id: number; protocol: string }> {
  const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: who.headers, payload: { type: 'sandbox', name: `Canal ${name}` } })).json();
  const c = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: who.headers, payload: { name, number } })).json();
  const r = await t.app.inject({ method: 'POST', url: '/api/tickets', headers: who.headers, payload: { contactId: c.id, channelId: ch.id, status: 'open', ...(userId ? { userId } : {}) } });
  expect(r.statusCode, r.body).toBeLessThan(300);
  return r.json();
}

const list = (who: TestUser, query = '') => t.app.inject({ method: 'GET', url: `/api/plugins/protocols/protocols${query}`, headers: who.headers });

it('lists every ticket’s protocol with agent, contact and date, newest first, and finds one by number, part or name', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const sup = await t.loginAs('super', admin.tenantId);
  const t1 = await ticket(admin, 'Ana Souza', '5511987650001');
  const t2 = await ticket(admin, 'Bruno Lima', '5511987650002', agent.id);
  const t3 = await ticket(admin, 'Carla Dias', '5511987650003');
  expect(new Set([t1.protocol, t2.protocol, t3.protocol]).size).toBe(3);
  expect(t1.protocol).toMatch(/^\d{14}$/);

  const all = (await list(sup)).json();
  expect(all.count).toBe(3);
  expect(all.protocols.map((p: { ticketId: number }) => p.ticketId)).toEqual([t3.id, t2.id, t1.id]);
  expect(all.protocols[1]).toMatchObject({ protocol: t2.protocol, userId: agent.id, userName: expect.any(String), contactName: 'Bruno Lima', status: 'open', createdAt: expect.any(String) });

  expect((await list(sup, `?search=${t2.protocol}`)).json().protocols.map((p: { ticketId: number }) => p.ticketId)).toEqual([t2.id]);
  const spaced = `${t2.protocol.slice(0, 8)} ${t2.protocol.slice(8)}`;
  expect((await list(sup, `?search=${encodeURIComponent(spaced)}`)).json().protocols[0].ticketId).toBe(t2.id);
  expect((await list(sup, '?search=carla')).json().protocols[0].protocol).toBe(t3.protocol);
  expect((await list(sup, `?userId=${agent.id}`)).json().count).toBe(1);
  expect((await list(sup, '?status=closed')).json().count).toBe(0);
  const first = (await list(sup, '?limit=2')).json();
  expect(first).toMatchObject({ hasMore: true, nextBefore: t2.id });
  expect((await list(sup, `?limit=2&before=${first.nextBefore}`)).json().protocols.map((p: { ticketId: number }) => p.ticketId)).toEqual([t1.id]);

  const exact = await t.app.inject({ method: 'GET', url: `/api/plugins/protocols/protocols/${t1.protocol}`, headers: sup.headers });
  expect(exact.json()).toEqual({ protocol: t1.protocol, ticketId: t1.id });
});

it('protocols are unique per tenant and each tenant sees only its own', async () => {
  const a = await t.loginAs('admin');
  const b = await t.loginAs('admin');
  const ta = await ticket(a, 'Cliente de A', '5511911110001');
  const tb = await ticket(b, 'Cliente de B', '5511911110002');
  const dup = await t.sql.query(`SELECT protocol, count(*)::int AS n FROM tickets WHERE tenant_id = $1 GROUP BY protocol HAVING count(*) > 1`, [a.tenantId]);
  expect(dup.rows).toEqual([]);
  const seenByB = (await list(b)).json();
  expect(seenByB.protocols.map((p: { contactName: string }) => p.contactName)).toEqual(['Cliente de B']);
  // Numbering is per tenant, so the same number can exist in both: each finds its own ticket, never the other's.
  const other = await t.app.inject({ method: 'GET', url: `/api/plugins/protocols/protocols/${ta.protocol}`, headers: b.headers });
  if (ta.protocol === tb.protocol) expect(other.json().ticketId).toBe(tb.id);
  else expect(other.json().error).toBe('ERR_NO_TICKET_FOUND');
  const missing = await t.app.inject({ method: 'GET', url: '/api/plugins/protocols/protocols/99999999999999', headers: b.headers });
  expect([missing.statusCode, missing.json().error]).toEqual([404, 'ERR_NO_TICKET_FOUND']);
});

it('refuses bad input with catalogue codes and agents without the menu', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  expect((await list(agent)).json().error).toBe('ERR_NO_PERMISSION');
  expect((await list(admin, '?from=31/02/2026')).json().error).toBe('ERR_VALIDATION');
  expect((await list(admin, '?status=aberto')).json().error).toBe('ERR_VALIDATION');
  expect((await list(admin, '?from=2026-02-01&to=2026-01-01')).json().error).toBe('ERR_INVALID_DATE');
  expect((await t.app.inject({ method: 'GET', url: '/api/plugins/protocols/protocols/abc', headers: admin.headers })).json().error).toBe('ERR_VALIDATION');
});

it('disabling protocols for one tenant hides its menu, remote and routes there only', async () => {
  const a = await t.loginAs('admin');
  const b = await t.loginAs('admin');
  await t.app.inject({ method: 'PUT', url: '/api/plugins/protocols/enabled', headers: a.headers, payload: { enabled: false } });
  expect((await list(a)).json().error).toBe('ERR_ROUTE_NOT_FOUND');
  expect((await t.app.inject({ method: 'GET', url: '/api/me/access', headers: a.headers })).json().menus.protocols).toBe(false);
  expect((await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: a.headers })).json().map((p: { id: string }) => p.id)).not.toContain('protocols');
  expect((await list(b)).statusCode).toBe(200);
});
