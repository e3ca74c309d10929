import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';

/** Tickets with known times so every figure of the dashboard can be checked by hand. */
describe('GET /api/dashboard', () => {
  let t: TestApp;
  let admin: TestUser;
  let agent: TestUser;
  let other: TestUser;

  const ticket = async (tenantId: number, f: { contact: number; user?: number | null; queue?: number | null; status: string; created: string; closed?: string; rating?: number; reply?: string }) => {
    const r = await t.sql.query<{ id: number }>(
      `INSERT INTO tickets (tenant_id, contact_id, user_id, queue_id, status, created_at, closed_at, rating, answered, last_message_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $6) RETURNING id`,
      [tenantId, f.contact, f.user ?? null, f.queue ?? null, f.status, f.created, f.closed ?? null, f.rating ?? null, Boolean(f.reply)],
    );
    if (f.reply) {
      await t.sql.query(`INSERT INTO messages (tenant_id, ticket_id, from_me, body, created_at) VALUES ($1, $2, false, 'oi', $3)`, [tenantId, r.rows[0].id, f.created]);
      await t.sql.query(`INSERT INTO messages (tenant_id, ticket_id, from_me, body, created_at) VALUES ($1, $2, true, 'olá', $3)`, [tenantId, r.rows[0].id, f.reply]);
    }
    return r.rows[0].id;
  };

  beforeAll(async () => {
    t = await createTestApp({ plugins: [], workers: false });
    admin = await t.loginAs('admin');
    agent = await t.loginAs('user', admin.tenantId);
    other = await t.loginAs('admin');
    const tid = admin.tenantId;
    const q = await t.sql.query<{ id: number }>(`INSERT INTO queues (tenant_id, name, color) VALUES ($1, 'Vendas', '#2563eb') RETURNING id`, [tid]);
    const contacts: number[] = [];
    for (let i = 0; i < 4; i++) contacts.push((await t.sql.query<{ id: number }>(`INSERT INTO contacts (tenant_id, name, number) VALUES ($1, $2, $3) RETURNING id`, [tid, `C${i}`, `551199990000${i}`])).rows[0].id);
    // Times in UTC; the tests ask for UTC days.
    await ticket(tid, { contact: contacts[0]!, user: agent.id, queue: q.rows[0].id, status: 'closed', created: '2025-03-01T10:00:00Z', closed: '2025-03-01T11:00:00Z', rating: 5, reply: '2025-03-01T10:02:00Z' });
    await ticket(tid, { contact: contacts[1]!, user: agent.id, queue: q.rows[0].id, status: 'closed', created: '2025-03-02T10:00:00Z', closed: '2025-03-02T13:00:00Z', rating: 3, reply: '2025-03-02T10:04:00Z' });
    await ticket(tid, { contact: contacts[2]!, user: admin.id, status: 'open', created: '2025-03-02T12:00:00Z' });
    await ticket(tid, { contact: contacts[3]!, status: 'pending', created: '2025-03-05T12:00:00Z' });
    // Outside the range and in another tenant: never counted.
    await ticket(tid, { contact: contacts[0]!, status: 'closed', created: '2025-02-01T12:00:00Z', closed: '2025-02-01T13:00:00Z' });
    const oc = await t.sql.query<{ id: number }>(`INSERT INTO contacts (tenant_id, name, number) VALUES ($1, 'X', '5511988887777') RETURNING id`, [other.tenantId]);
    await ticket(other.tenantId, { contact: oc.rows[0].id, status: 'open', created: '2025-03-02T12:00:00Z' });
  });
  afterAll(async () => t?.close());

  const get = (u: TestUser, qs: string) => t.app.inject({ method: 'GET', url: `/api/dashboard?${qs}`, headers: u.headers });

  it('answers the tenant figures to an admin', async () => {
    const res = await get(admin, 'from=2025-03-01&to=2025-03-07&tz=UTC');
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.range).toEqual({ from: '2025-03-01', to: '2025-03-07', tz: 'UTC', scope: 'tenant' });
    expect(d.totals).toMatchObject({ created: 4, closed: 2, open: 1, pending: 1 });
    expect(d.byStatus).toEqual(expect.arrayContaining([{ status: 'closed', count: 2 }, { status: 'open', count: 1 }, { status: 'pending', count: 1 }]));
    expect(d.perDay).toHaveLength(7);
    expect(d.perDay.slice(0, 2)).toEqual([{ day: '2025-03-01', created: 1, closed: 1 }, { day: '2025-03-02', created: 2, closed: 1 }]);
    expect(d.firstResponseSeconds).toBe(180); // 2 and 4 minutes
    expect(d.resolutionSeconds).toBe(7200); // 1 and 3 hours
    expect(d.rating).toEqual({ average: 4, count: 2 });
    expect(d.perQueue).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Vendas', count: 2 }), expect.objectContaining({ queueId: null, count: 2 })]));
    expect(d.perAgent.find((a: { userId: number }) => a.userId === agent.id)).toMatchObject({ count: 2, closed: 2, rating: 4 });
  });

  it('shows an agent only their own tickets, and another tenant nothing of this one', async () => {
    const mine = (await get(agent, 'from=2025-03-01&to=2025-03-07&tz=UTC')).json();
    expect(mine.range.scope).toBe('user');
    expect(mine.totals.created).toBe(2);
    expect(mine.perAgent).toHaveLength(1);
    const theirs = (await get(other, 'from=2025-03-01&to=2025-03-07&tz=UTC')).json();
    expect(theirs.totals.created).toBe(1);
    expect(theirs.perQueue.some((x: { name: string }) => x.name === 'Vendas')).toBe(false);
  });

  it('refuses bad ranges and time zones, and needs login', async () => {
    expect((await get(admin, 'from=2025-03-07&to=2025-03-01')).statusCode).toBe(400);
    expect((await get(admin, 'from=2020-01-01&to=2025-01-01')).statusCode).toBe(400);
    expect((await get(admin, 'tz=Mars/Olympus')).statusCode).toBe(400);
    expect((await get(admin, 'from=03/01/2025')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
    const def = (await get(admin, '')).json();
    expect(def.perDay).toHaveLength(30);
  });
});
