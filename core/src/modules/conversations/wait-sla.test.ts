import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';
import { signSandbox } from '../../../../plugins/channel-sandbox/src/index.ts';

let t: TestApp;
let admin: TestUser;
let channelId: number;
let secret: string;

async function inbound(id: string, from: string, body: string) {
  const raw = JSON.stringify({ id, from: { id: from, name: `Cliente ${from}`, number: from }, body });
  const r = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${channelId}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw });
  expect(r.statusCode).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
  channelId = ch.json().id;
  secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/secret`, headers: admin.headers })).json().secret;
});
afterAll(async () => {
  await t?.close();
});

describe('wait time and SLA per queue', () => {
  it('validates the queue SLA fields and keeps them', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Ruim', slaFirstResponseMinutes: 0 } });
    expect(bad.statusCode).toBe(400);
    const frac = await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Ruim', slaResolutionMinutes: 1.5 } });
    expect(frac.statusCode).toBe(400);
    expect((await t.sql.query(`SELECT 1 FROM queues WHERE name = 'Ruim'`)).rowCount).toBe(0);
    const ok = await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Suporte', slaFirstResponseMinutes: 10, slaResolutionMinutes: 120 } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ slaFirstResponseMinutes: 10, slaResolutionMinutes: 120 });
    const off = await t.app.inject({ method: 'PUT', url: `/api/queues/${ok.json().id}`, headers: admin.headers, payload: { slaResolutionMinutes: null } });
    expect(off.json()).toMatchObject({ slaFirstResponseMinutes: 10, slaResolutionMinutes: null });
  });

  it('lists Pendentes longest wait first across pages, with the wait start and SLA deadlines; an agent reply stops the first-response clock', async () => {
    const q = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Vendas', slaFirstResponseMinutes: 5, slaResolutionMinutes: 60 } })).json();
    for (const n of ['5511900000001', '5511900000002', '5511900000003']) await inbound(`w-${n}`, n, 'oi');
    const ids = (await t.sql.query<{ id: number }>(`SELECT id FROM tickets WHERE status = 'pending' ORDER BY id`)).rows.map((r) => r.id);
    expect(ids).toHaveLength(3);
    // The first customer to write waits least, the last one longest: the order by wait is not the order by id.
    await t.sql.query(`UPDATE tickets SET waiting_since = now() - make_interval(mins => 5 * (array_position($1::int[], id))), queue_id = $2 WHERE id = ANY($1::int[])`, [ids, q.id]);
    // A new customer message does not move the wait (the latest message would put it last).
    await inbound('w-again', '5511900000001', 'ainda aguardo');

    const page1 = (await t.app.inject({ method: 'GET', url: '/api/tickets?status=pending&showAll=true&limit=2', headers: admin.headers })).json();
    const page2 = (await t.app.inject({ method: 'GET', url: `/api/tickets?status=pending&showAll=true&limit=2&cursor=${page1.nextCursor}`, headers: admin.headers })).json();
    const order = [...page1.tickets, ...page2.tickets].map((x: { id: number }) => x.id);
    expect(order).toEqual([ids[2], ids[1], ids[0]]);
    const oldest = page1.tickets[0];
    const since = new Date(oldest.waitingSince).getTime();
    expect(Date.now() - since).toBeGreaterThan(14 * 60_000);
    expect(new Date(oldest.sla.firstResponseDueAt).getTime()).toBe(since + 5 * 60_000);
    expect(new Date(oldest.sla.resolutionDueAt).getTime()).toBe(since + 60 * 60_000);

    const start = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ids[2]}`, headers: admin.headers, payload: { status: 'open' } });
    expect(start.statusCode).toBe(200);
    const sent = await t.app.inject({ method: 'POST', url: `/api/messages/${ids[2]}`, headers: admin.headers, payload: { body: 'Olá!' } });
    expect(sent.statusCode).toBeLessThan(300);
    const after = (await t.app.inject({ method: 'GET', url: `/api/tickets/${ids[2]}`, headers: admin.headers })).json();
    expect(after.firstResponseAt).not.toBeNull();
    expect(after.sla.firstResponseDueAt).toBeNull();
    expect(after.sla.resolutionDueAt).not.toBeNull();
  });

  it('a ticket that goes back to pending waits again from then', async () => {
    await inbound('w-back', '5511900000009', 'oi');
    const id = (await t.sql.query<{ id: number }>(`SELECT id FROM tickets WHERE contact_id = (SELECT id FROM contacts WHERE number = '5511900000009')`)).rows[0]!.id;
    await t.sql.query(`UPDATE tickets SET waiting_since = now() - interval '1 hour' WHERE id = $1`, [id]);
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: admin.headers, payload: { status: 'open' } });
    const back = await t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: admin.headers, payload: { status: 'pending' } });
    expect(back.statusCode).toBe(200);
    expect(Date.now() - new Date(back.json().waitingSince).getTime()).toBeLessThan(60_000);
  });
});
