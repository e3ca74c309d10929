import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;
let channelId: number;
let queueId: number;

const inject = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A customer writes, `agent` attends and resolves asking for a rating, the customer answers `score`. */
async function ratedTicket(agent: TestUser, customer: string, score: string, queue?: number) {
  const inbound = await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: customer, name: `Cliente ${customer.slice(-4)}` }, body: 'Olá' });
  const ticketId = inbound.json().ticketId as number;
  expect((await inject(agent, 'PUT', `/api/tickets/${ticketId}`, { status: 'open', ...(queue ? { queueId: queue } : {}) })).statusCode).toBe(200);
  expect((await inject(agent, 'PUT', `/api/tickets/${ticketId}`, { status: 'closed', sendRating: true })).statusCode).toBe(200);
  await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: customer }, body: score });
  const row = await t.sql.query('SELECT status, rating FROM tickets WHERE id = $1', [ticketId]);
  expect(row.rows[0]).toEqual({ status: 'closed', rating: Number(score) });
  return ticketId;
}

beforeAll(async () => {
  t = await createTestApp({ plugins: ['ratings', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
  ana = await t.loginAs('user', admin.tenantId);
  bruno = await t.loginAs('user', admin.tenantId);
  await t.sql.query(`UPDATE users SET name = CASE id WHEN $1 THEN 'Ana' ELSE 'Bruno' END WHERE id IN ($1, $2)`, [ana.id, bruno.id]);
  channelId = (await inject(admin, 'POST', '/api/channels', { type: 'sandbox', name: 'Sandbox' })).json().id;
  queueId = (await inject(admin, 'POST', '/api/queues', { name: 'Financeiro' })).json().id;
  await ratedTicket(ana, '5511900000001', '5');
  await ratedTicket(ana, '5511900000002', '3', queueId);
  await ratedTicket(bruno, '5511900000003', '1', queueId);
});
afterAll(async () => {
  await t?.close();
});

describe('ratings', () => {
  it('lists the answers with their averages, distribution, attempts and the scale labels', async () => {
    const r = await inject(admin, 'GET', '/api/plugins/ratings/ratings');
    expect(r.statusCode).toBe(200);
    const b = r.json();
    expect(b.labels).toEqual(['Ruim', 'Regular', 'Bom', 'Muito bom', 'Excelente', 'Incrível']);
    expect(b.count).toBe(3);
    expect(b.average).toBe(3);
    expect(b.distribution).toEqual([0, 1, 0, 1, 0, 1]);
    expect(b.rows.map((x: { value: number }) => x.value)).toEqual([1, 3, 5]);
    expect(b.rows[0]).toMatchObject({ userName: 'Bruno', queueName: 'Financeiro', attempts: 1, contactName: 'Cliente 0003' });
    expect(b.byUser).toEqual([
      { userId: ana.id, userName: 'Ana', count: 2, average: 4 },
      { userId: bruno.id, userName: 'Bruno', count: 1, average: 1 },
    ]);
  });

  it('filters by user, queue, score and date range', async () => {
    const get = async (qs: string) => (await inject(admin, 'GET', `/api/plugins/ratings/ratings?${qs}`)).json();
    expect((await get(`userId=${ana.id}`)).average).toBe(4);
    expect((await get(`queueId=${queueId}`)).rows.map((x: { value: number }) => x.value)).toEqual([1, 3]);
    expect((await get('score=5')).count).toBe(1);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await get(`from=${encodeURIComponent(tomorrow)}`)).count).toBe(0);
    expect((await get(`from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(tomorrow)}`)).count).toBe(3);
    const empty = await get('score=0');
    expect(empty).toMatchObject({ count: 0, average: null, rows: [] });
  });

  it('refuses bad filters with catalogue codes, agents, and other tenants', async () => {
    for (const qs of ['score=6', 'score=-1', 'userId=abc', `from=${encodeURIComponent('2026-02-01')}&to=${encodeURIComponent('2026-01-01')}`, 'pageNumber=0', 'x=1']) {
      const r = await inject(admin, 'GET', `/api/plugins/ratings/ratings?${qs}`);
      expect([r.statusCode, r.json().error], qs).toEqual([400, 'ERR_VALIDATION']);
    }
    expect((await inject(ana, 'GET', '/api/plugins/ratings/ratings')).json().error).toBe('ERR_NO_PERMISSION');
    const sup = await t.loginAs('super', admin.tenantId);
    expect((await inject(sup, 'GET', '/api/plugins/ratings/ratings')).json().count).toBe(3);
    const other = await t.loginAs('admin');
    const r = await inject(other, 'GET', '/api/plugins/ratings/ratings');
    expect(r.json()).toMatchObject({ count: 0, rows: [], byUser: [], average: null });
    expect(r.body).not.toContain('Cliente');
  });

  it('configurar: the rating request settings are the kernel’s, saved by supervisors', async () => {
    const sup = await t.loginAs('super', admin.tenantId);
    const put = await inject(sup, 'PUT', '/api/tenants/rating', { enabled: true, maxAttempts: 3, message: 'Avalie de 0 a 5' });
    expect(put.statusCode).toBe(200);
    expect((await inject(admin, 'GET', '/api/tenants/rating')).json()).toMatchObject({ enabled: true, maxAttempts: 3, message: 'Avalie de 0 a 5' });
    expect((await inject(sup, 'PUT', '/api/tenants/rating', { maxAttempts: 0 })).json().error).toBe('ERR_VALIDATION');
    expect((await inject(ana, 'PUT', '/api/tenants/rating', { maxAttempts: 2 })).statusCode).toBe(403);
    // Clearing the text goes back to the default request with the scale.
    expect((await inject(sup, 'PUT', '/api/tenants/rating', { message: '' })).json().message).toBeNull();
    expect((await inject(sup, 'PUT', '/api/tenants/rating', { message: 'Sua nota, de 0 a 5?' })).json().message).toBe('Sua nota, de 0 a 5?');
    expect((await inject(sup, 'PUT', '/api/tenants/rating', { message: null })).json().message).toBeNull();
  });

  it('with ratings switched off, resolving with a rating request is refused and the ticket stays open', async () => {
    expect((await inject(admin, 'PUT', '/api/tenants/rating', { enabled: false })).statusCode).toBe(200);
    try {
      const inbound = await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: '5511900000099', name: 'Cliente 0099' }, body: 'Olá' });
      const ticketId = inbound.json().ticketId as number;
      expect((await inject(ana, 'PUT', `/api/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
      const res = await inject(ana, 'PUT', `/api/tickets/${ticketId}`, { status: 'closed', sendRating: true });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringContaining('a avaliação do atendimento está desativada') });
      expect((await inject(admin, 'GET', `/api/tickets/${ticketId}`)).json()).toMatchObject({ status: 'open', ratingRequested: false });
    } finally {
      await inject(admin, 'PUT', '/api/tenants/rating', { enabled: true });
    }
  });
});

describe('rating attempts', () => {
  const question = 'De 0 a 5, que nota você dá ao nosso atendimento?';
  const sim = (customer: string, body: string) => inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: customer, name: `Cliente ${customer.slice(-4)}` }, body });
  const asked = async (customer: string) =>
    ((await inject(admin, 'GET', `/api/plugins/channel-sandbox/channels/${channelId}/outbox?to=${customer}`)).json() as { body: string }[]).filter((m) => m.body === question).length;
  /** A customer writes, Ana resolves asking for a rating, and the question reaches the customer. */
  async function awaitingRating(customer: string) {
    const ticketId = (await sim(customer, 'Preciso de ajuda')).json().ticketId as number;
    expect((await inject(ana, 'PUT', `/api/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
    expect((await inject(ana, 'PUT', `/api/tickets/${ticketId}`, { status: 'closed', sendRating: true })).statusCode).toBe(200);
    await until(async () => (await asked(customer)) === 1);
    return ticketId;
  }
  const ticket = async (id: number) => (await inject(admin, 'GET', `/api/tickets/${id}`)).json() as { status: string; rating: number | null; ratingRequested: boolean };

  it('an answer that is not a score gets the question again until the attempts are used up; then the ticket closes without a rating', async () => {
    expect((await inject(admin, 'PUT', '/api/tenants/rating', { maxAttempts: 2, message: question })).statusCode).toBe(200);
    const customer = '5511900000011';
    const id = await awaitingRating(customer);

    await sim(customer, 'abc');
    await until(async () => (await asked(customer)) === 2);
    expect(await ticket(id)).toMatchObject({ status: 'open', ratingRequested: true, rating: null });

    // The second request was the last one: this answer closes the ticket, and the question is not sent a third time.
    await sim(customer, 'foi ótimo');
    expect(await until(async () => ((await ticket(id)).status === 'closed' ? ticket(id) : undefined))).toMatchObject({ status: 'closed', rating: null, ratingRequested: false });
    const logs = (await inject(admin, 'GET', `/api/tickets/${id}/logs`)).json() as { type: string }[];
    expect(logs.filter((l) => l.type === 'rating_requested')).toHaveLength(2);
    expect(await asked(customer)).toBe(2);
    const list = (await inject(admin, 'GET', '/api/plugins/ratings/ratings')).json();
    expect(list.rows.map((r: { ticketId: number }) => r.ticketId)).not.toContain(id);
  });

  it('a valid score after a re-ask is stored and closes the ticket; the list shows how many times it was asked', async () => {
    expect((await inject(admin, 'PUT', '/api/tenants/rating', { maxAttempts: 3, message: question })).statusCode).toBe(200);
    const customer = '5511900000012';
    const id = await awaitingRating(customer);
    await sim(customer, 'abc');
    await until(async () => (await asked(customer)) === 2);
    expect((await ticket(id)).status).toBe('open');

    await sim(customer, ' 4 ');
    expect(await ticket(id)).toMatchObject({ status: 'closed', rating: 4 });
    const row = (await inject(admin, 'GET', '/api/plugins/ratings/ratings?score=4')).json().rows.find((r: { ticketId: number }) => r.ticketId === id);
    expect(row).toMatchObject({ value: 4, attempts: 2, userName: 'Ana' });
    expect(await asked(customer)).toBe(2);
  });
});
