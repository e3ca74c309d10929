import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let admin: TestUser;
let sup: TestUser;
let agent: TestUser;
const BASE = '/api/plugins/farewells/farewells';

const inject = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

beforeAll(async () => {
  t = await createTestApp({ plugins: ['farewells', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
  sup = await t.loginAs('super', admin.tenantId);
  agent = await t.loginAs('user', admin.tenantId);
  await t.sql.query(`UPDATE users SET name = 'Sofia Supervisora' WHERE id = $1`, [sup.id]);
});
afterAll(async () => {
  await t?.close();
});

describe('farewell messages', () => {
  it('a supervisor creates, edits and deletes them; they carry who wrote them and when', async () => {
    const c = await inject(sup, 'POST', BASE, { message: '  Obrigado pelo contato, {{name}}!  ' });
    expect(c.statusCode).toBe(201);
    expect(c.json()).toMatchObject({ message: 'Obrigado pelo contato, {{name}}!', userId: sup.id, userName: 'Sofia Supervisora' });
    const id = c.json().id;
    const u = await inject(sup, 'PUT', `${BASE}/${id}`, { message: 'Até breve, {{firstName}}!' });
    expect(u.json()).toMatchObject({ id, message: 'Até breve, {{firstName}}!' });
    expect((await inject(sup, 'GET', BASE)).json().map((f: { message: string }) => f.message)).toEqual(['Até breve, {{firstName}}!']);
    expect((await inject(sup, 'DELETE', `${BASE}/${id}`)).statusCode).toBe(204);
    expect((await inject(sup, 'DELETE', `${BASE}/${id}`)).json().error).toBe('ERR_NOT_FOUND');
  });

  it('refuses empty, too long and duplicate texts with catalogue codes', async () => {
    await inject(sup, 'POST', BASE, { message: 'Tenha um ótimo dia!' });
    for (const payload of [{ message: '   ' }, {}, { message: 'x'.repeat(4097) }, { message: 'TENHA UM ÓTIMO DIA!' }, { message: 'a', extra: 1 }]) {
      const r = await inject(sup, 'POST', BASE, payload);
      expect([r.statusCode, r.json().error], JSON.stringify(payload).slice(0, 40)).toEqual([400, 'ERR_VALIDATION']);
    }
  });

  it('agents read them (the resolve dialog) but cannot change them', async () => {
    expect((await inject(agent, 'GET', BASE)).statusCode).toBe(200);
    expect((await inject(agent, 'POST', BASE, { message: 'Tchau' })).json().error).toBe('ERR_NO_PERMISSION');
    const hidden = await t.loginAs('super', admin.tenantId, { menus: { closing: false } });
    expect((await inject(hidden, 'POST', BASE, { message: 'Tchau' })).statusCode).toBe(403);
  });

  it('keeps tenants apart', async () => {
    const mine = (await inject(sup, 'POST', BASE, { message: 'Segredo da empresa A' })).json();
    const other = await t.loginAs('admin');
    const list = await inject(other, 'GET', BASE);
    expect(list.json()).toEqual([]);
    for (const [method, payload] of [['PUT', { message: 'x' }], ['DELETE']] as const) {
      const r = await inject(other, method, `${BASE}/${mine.id}`, payload);
      expect([r.statusCode, r.json().error]).toEqual([404, 'ERR_NOT_FOUND']);
    }
    // The same text is fine in another tenant.
    expect((await inject(other, 'POST', BASE, { message: 'Segredo da empresa A' })).statusCode).toBe(201);
  });

  it('a picked farewell resolves the ticket: the customer gets it with its variables filled', async () => {
    const channelId = (await inject(admin, 'POST', '/api/channels', { type: 'sandbox', name: 'Sandbox' })).json().id;
    const farewell = (await inject(sup, 'POST', BASE, { message: 'Obrigado, {{firstName}}! Protocolo {{protocol}}.' })).json();
    const ticketId = (await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: '5511922223333', name: 'Paula Nunes' }, body: 'Oi' })).json().ticketId;
    await inject(agent, 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });
    const list = (await inject(agent, 'GET', BASE)).json() as { id: number; message: string }[];
    const picked = list.find((f) => f.id === farewell.id)!;
    expect((await inject(agent, 'PUT', `/api/tickets/${ticketId}`, { status: 'closed', sendFarewell: true, farewellMessage: picked.message })).statusCode).toBe(200);
    const protocol = (await t.sql.query('SELECT protocol FROM tickets WHERE id = $1', [ticketId])).rows[0].protocol;
    const end = Date.now() + 15_000;
    let out: { body: string }[] = [];
    while (Date.now() < end && !out.length) {
      out = (await inject(admin, 'GET', `/api/plugins/channel-sandbox/channels/${channelId}/outbox`)).json();
      if (!out.length) await new Promise((r) => setTimeout(r, 150));
    }
    expect(out.map((m) => m.body)).toEqual([`Obrigado, Paula! Protocolo ${protocol}.`]);
  });
});
