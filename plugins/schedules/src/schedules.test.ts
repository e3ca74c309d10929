import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let admin: TestUser;
let channelId: number;
let contactId: number;

const inject = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
const outbox = async (user: TestUser) => (await inject(user, 'GET', `/api/plugins/channel-sandbox/channels/${channelId}/outbox`)).json() as { to: string; body: string }[];

async function until<T>(fn: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 150));
  }
}

beforeAll(async () => {
  t = await createTestApp({ plugins: ['schedules', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
  const ch = await inject(admin, 'POST', '/api/channels', { type: 'sandbox', name: 'Sandbox' });
  expect(ch.statusCode).toBe(201);
  channelId = ch.json().id;
  const c = await inject(admin, 'POST', '/api/contacts', { name: 'Maria Silva', number: '5511988887777' });
  expect(c.statusCode).toBe(201);
  contactId = c.json().id;
});
afterAll(async () => {
  await t?.close();
});

describe('scheduled messages', () => {
  it('schedules for a contact, lists it, sends it at its minute with the variables filled, and repeats it', async () => {
    const res = await inject(admin, 'POST', '/api/messagesSchedule', { contactId, body: 'Oi {{firstName}}, lembrete do seu retorno', scheduleDate: inMinutes(2), recurrence: 5, repetitions: 2 });
    expect(res.statusCode).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ contactId, contactName: 'Maria Silva', channelId, state: 'scheduled', recurrence: 5, repetitions: 2 });

    // It sits in the ticket's scheduled list and in the tenant-wide list.
    const msgs = (await inject(admin, 'GET', `/api/messages/${s.ticketId}`)).json();
    expect(msgs.messagesOffLine.map((m: { id: string }) => m.id)).toContain(s.id);
    const list = (await inject(admin, 'GET', '/api/scheduleMessages/?state=scheduled')).json();
    expect(list.schedules.map((x: { id: string }) => x.id)).toEqual([s.id]);

    // Not before its time…
    expect((await t.dispatchScheduled(new Date(Date.parse(s.scheduleDate) - 1000))).dispatched).toBe(0);
    // …then once, at it.
    expect((await t.dispatchScheduled(new Date(s.scheduleDate))).dispatched).toBe(1);
    const sent = await until(async () => (await outbox(admin)).find((m) => m.body === 'Oi Maria, lembrete do seu retorno'));
    expect(sent.to).toBe('5511988887777');

    // It left the ticket's scheduled list; the next occurrence (5 days later, 1 repetition left) took its place.
    const after = (await inject(admin, 'GET', `/api/messages/${s.ticketId}`)).json();
    expect(after.messagesOffLine.map((m: { id: string }) => m.id)).not.toContain(s.id);
    const next = (await inject(admin, 'GET', '/api/scheduleMessages?state=scheduled')).json().schedules;
    expect(next).toHaveLength(1);
    expect(Date.parse(next[0].scheduleDate) - Date.parse(s.scheduleDate)).toBe(5 * 86_400_000);
    expect(next[0].repetitions).toBe(1);
    expect(next[0].body).toBe('Oi {{firstName}}, lembrete do seu retorno');
    const sentList = (await inject(admin, 'GET', '/api/scheduleMessages?state=sent')).json().schedules;
    expect(sentList.map((x: { id: string }) => x.id)).toContain(s.id);

    // Once out it can no longer change.
    const edit = await inject(admin, 'PUT', `/api/messagesSchedule/${s.id}`, { body: 'tarde demais' });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error).toBe('ERR_SCHEDULE_NOT_PENDING');
    const cancelLate = await inject(admin, 'DELETE', `/api/messagesSchedule/${s.id}`);
    expect(cancelLate.json().error).toBe('ERR_SCHEDULE_NOT_PENDING');
  });

  it('edits and cancels a waiting message; a cancelled one leaves the ticket list and is never sent', async () => {
    const s = (await inject(admin, 'POST', '/api/messagesSchedule', { contactId, body: 'Primeira versão', scheduleDate: inMinutes(30) })).json();
    const edited = await inject(admin, 'PUT', `/api/messagesSchedule/${s.id}`, { body: 'Versão revisada', scheduleDate: inMinutes(45), recurrence: 10, repetitions: 3 });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ body: 'Versão revisada', recurrence: 10, repetitions: 3, state: 'scheduled' });

    const del = await inject(admin, 'DELETE', `/api/messagesSchedule/${s.id}`);
    expect(del.statusCode).toBe(204);
    expect((await inject(admin, 'GET', `/api/messagesSchedule/${s.id}`)).statusCode).toBe(404);
    const msgs = (await inject(admin, 'GET', `/api/messages/${s.ticketId}`)).json();
    expect(msgs.messagesOffLine.map((m: { id: string }) => m.id)).not.toContain(s.id);
    await t.dispatchScheduled(new Date(Date.now() + 2 * 3_600_000));
    await new Promise((r) => setTimeout(r, 500));
    expect((await outbox(admin)).some((m) => m.body === 'Versão revisada')).toBe(false);
  });

  it('filters by state, date range and contact', async () => {
    const other = (await inject(admin, 'POST', '/api/contacts', { name: 'João Souza', number: '5511977776666' })).json();
    const a = (await inject(admin, 'POST', '/api/messagesSchedule', { contactId: other.id, body: 'Amanhã', scheduleDate: inMinutes(24 * 60) })).json();
    const b = (await inject(admin, 'POST', '/api/messagesSchedule', { contactId: other.id, body: 'Semana que vem', scheduleDate: inMinutes(7 * 24 * 60) })).json();
    const byContact = (await inject(admin, 'GET', `/api/scheduleMessages?contactId=${other.id}`)).json();
    expect(byContact.schedules.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    const range = (await inject(admin, 'GET', `/api/scheduleMessages?contactId=${other.id}&from=${encodeURIComponent(inMinutes(2 * 24 * 60))}`)).json();
    expect(range.schedules.map((x: { id: string }) => x.id)).toEqual([b.id]);
    const search = (await inject(admin, 'GET', '/api/scheduleMessages?search=semana')).json();
    expect(search.schedules.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await inject(admin, 'GET', '/api/scheduleMessages?state=failed')).json().count).toBe(0);
  });

  it('refuses bad input with catalogue codes', async () => {
    const cases: [unknown, number, string][] = [
      [{ contactId, body: 'x', scheduleDate: inMinutes(-10) }, 400, 'ERR_INVALID_DATE'],
      [{ contactId, body: 'x' }, 400, 'ERR_VALIDATION'],
      [{ contactId, body: '   ', scheduleDate: inMinutes(5) }, 400, 'ERR_VALIDATION'],
      [{ contactId, body: 'x', scheduleDate: inMinutes(5), recurrence: 7 }, 400, 'ERR_VALIDATION'],
      [{ contactId, body: 'x', scheduleDate: inMinutes(5), recurrence: 5, repetitions: 0 }, 400, 'ERR_VALIDATION'],
      [{ contactId: 999_999, body: 'x', scheduleDate: inMinutes(5) }, 404, 'ERR_NO_CONTACT_FOUND'],
      [{ contactId, channelId: 999_999, body: 'x', scheduleDate: inMinutes(5) }, 404, 'ERR_NO_WAPP_FOUND'],
    ];
    for (const [payload, status, code] of cases) {
      const r = await inject(admin, 'POST', '/api/messagesSchedule', payload);
      expect([r.statusCode, r.json().error], JSON.stringify(payload)).toEqual([status, code]);
    }
  });

  it('is for supervisors and up: an agent is refused; a supervisor schedules', async () => {
    const agent = await t.loginAs('user', admin.tenantId);
    expect((await inject(agent, 'GET', '/api/scheduleMessages')).json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject(agent, 'POST', '/api/messagesSchedule', { contactId, body: 'x', scheduleDate: inMinutes(5) })).statusCode).toBe(403);
    const sup = await t.loginAs('super', admin.tenantId);
    expect((await inject(sup, 'POST', '/api/messagesSchedule', { contactId, body: 'do supervisor', scheduleDate: inMinutes(5) })).statusCode).toBe(201);
    // The per-user toggle hides it from a supervisor too.
    const hidden = await t.loginAs('super', admin.tenantId, { menus: { schedules: false } });
    expect((await inject(hidden, 'GET', '/api/scheduleMessages')).statusCode).toBe(403);
  });

  it('keeps tenants apart: another tenant neither sees nor touches the schedules', async () => {
    const s = (await inject(admin, 'POST', '/api/messagesSchedule', { contactId, body: 'só da empresa A', scheduleDate: inMinutes(90) })).json();
    const other = await t.loginAs('admin');
    const list = await inject(other, 'GET', '/api/scheduleMessages');
    expect(list.json()).toMatchObject({ schedules: [], count: 0 });
    expect(list.body).not.toContain('só da empresa A');
    for (const [method, payload] of [['GET'], ['PUT', { body: 'invasão' }], ['DELETE']] as const) {
      const r = await inject(other, method, `/api/messagesSchedule/${s.id}`, payload);
      expect([r.statusCode, r.json().error]).toEqual([404, 'ERR_NOT_FOUND']);
    }
    // Nor may it schedule to A's contact.
    expect((await inject(other, 'POST', '/api/messagesSchedule', { contactId, body: 'x', scheduleDate: inMinutes(5) })).json().error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await inject(admin, 'GET', `/api/messagesSchedule/${s.id}`)).json().body).toBe('só da empresa A');
  });
});
