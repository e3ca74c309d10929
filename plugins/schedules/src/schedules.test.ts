import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let admin: TestUser;
let channelId: number;
let contactId: number;

const inject = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
const outbox = async (user: TestUser) => (await inject(user, 'GET', `/api/plugins/channel-sandbox/channels/${channelId}/outbox`)).json() as { to: string; body: string }[];

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

  it('a contact without a ticket: the scheduler sees and manages the message, and at its time it goes out on a ticket they see', async () => {
    const sup = await t.loginAs('super', admin.tenantId);
    const carla = (await inject(admin, 'POST', '/api/contacts', { name: 'Carla Nunes', number: '5511966665555' })).json();
    const res = await inject(sup, 'POST', '/api/messagesSchedule', { contactId: carla.id, body: 'Olá {{firstName}}, seu pedido chegou', scheduleDate: inMinutes(10) });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ contactId: carla.id, channelId, state: 'scheduled', userId: sup.id });

    // Listed in /agendamentos, and in the scheduled list of a ticket the scheduler can open.
    const listed = (await inject(sup, 'GET', `/api/scheduleMessages?contactId=${carla.id}`)).json();
    expect(listed.schedules.map((x: { id: string; state: string }) => [x.id, x.state])).toEqual([[s.id, 'scheduled']]);
    const holder = await inject(sup, 'GET', `/api/tickets/${s.ticketId}`);
    expect(holder.statusCode, holder.body).toBe(200);
    expect(holder.json()).toMatchObject({ status: 'schedule', userId: sup.id });
    expect((await inject(sup, 'GET', `/api/messages/${s.ticketId}`)).json().messagesOffLine.map((m: { id: string }) => m.id)).toEqual([s.id]);
    expect((await inject(sup, 'GET', '/api/tickets?status=schedule')).json().tickets.map((x: { id: number }) => x.id)).toContain(s.ticketId);
    // Managed there: edited before it goes.
    expect((await inject(sup, 'PUT', `/api/messagesSchedule/${s.id}`, { body: 'Olá {{firstName}}, seu pedido chegou!' })).statusCode).toBe(200);

    expect((await t.dispatchScheduled(new Date(s.scheduleDate))).dispatched).toBe(1);
    const sent = await until(async () => (await outbox(admin)).find((m) => m.body === 'Olá Carla, seu pedido chegou!'));
    expect(sent.to).toBe('5511966665555');

    // The conversation is now an open ticket in the scheduler's list, with the message in it.
    const mine = (await inject(sup, 'GET', '/api/tickets')).json().tickets as { id: number; status: string; userId: number | null; contactId: number }[];
    expect(mine.find((x) => x.contactId === carla.id)).toMatchObject({ id: s.ticketId, status: 'open', userId: sup.id });
    const msgs = await until(async () => {
      const r = (await inject(sup, 'GET', `/api/messages/${s.ticketId}`)).json();
      return r.messages.some((m: { id: string; status: string }) => m.id === s.id && m.status !== 'pending') ? r : undefined;
    });
    expect(msgs.messages.map((m: { body: string }) => m.body)).toEqual(['Olá Carla, seu pedido chegou!']);
    expect(msgs.messagesOffLine).toEqual([]);
    // The customer's answer lands beside it.
    const reply = await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: '5511966665555', number: '5511966665555', name: 'Carla Nunes' }, body: 'Obrigada!' });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().ticketId).toBe(s.ticketId);
  });

  it('at dispatch a message waiting for a contact who has since written goes into that conversation', async () => {
    const davi = (await inject(admin, 'POST', '/api/contacts', { name: 'Davi Rocha', number: '5511955554444' })).json();
    const s = (await inject(admin, 'POST', '/api/messagesSchedule', { contactId: davi.id, body: 'Lembrete para o Davi', scheduleDate: inMinutes(20) })).json();
    const later = (await inject(admin, 'POST', '/api/messagesSchedule', { contactId: davi.id, body: 'Segundo lembrete', scheduleDate: inMinutes(60) })).json();
    expect(later.ticketId).toBe(s.ticketId);
    // Davi writes first: his message opens a pending ticket of its own.
    const inbound = (await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: '5511955554444', number: '5511955554444', name: 'Davi Rocha' }, body: 'Oi, alguma novidade?' })).json();
    expect(inbound.ticketId).not.toBe(s.ticketId);

    expect((await t.dispatchScheduled(new Date(s.scheduleDate))).dispatched).toBe(1);
    await until(async () => (await outbox(admin)).some((m) => m.body === 'Lembrete para o Davi'));
    // The provider has it; the row leaves the scheduled list once the send is recorded, a moment later.
    const msgs = await until(async () => {
      const r = (await inject(admin, 'GET', `/api/messages/${inbound.ticketId}`)).json();
      return r.messages.length === 2 ? r : undefined;
    });
    expect(msgs.messages.map((m: { body: string }) => m.body).sort()).toEqual(['Lembrete para o Davi', 'Oi, alguma novidade?']);
    // The later one waits in the same conversation; the empty holder is gone.
    expect(msgs.messagesOffLine.map((m: { id: string }) => m.id)).toEqual([later.id]);
    expect((await inject(admin, 'GET', `/api/messagesSchedule/${later.id}`)).json().ticketId).toBe(inbound.ticketId);
    expect((await inject(admin, 'GET', `/api/tickets/${s.ticketId}`)).statusCode).toBe(404);
    const list = (await inject(admin, 'GET', '/api/tickets')).json().tickets as { id: number; contactId: number }[];
    expect(list.filter((x) => x.contactId === davi.id).map((x) => x.id)).toEqual([inbound.ticketId]);
  });

  it('a message waiting in a resolved ticket goes out on a new open ticket; the resolved one stays closed', async () => {
    const eva = (await inject(admin, 'POST', '/api/contacts', { name: 'Eva Lima', number: '5511944443333' })).json();
    const first = (await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: '5511944443333', number: '5511944443333', name: 'Eva Lima' }, body: 'Obrigada, resolvido' })).json();
    expect((await inject(admin, 'PUT', `/api/tickets/${first.ticketId}`, { status: 'closed' })).statusCode).toBe(200);
    const s = (await inject(admin, 'POST', '/api/messagesSchedule', { contactId: eva.id, body: 'Como ficou, Eva?', scheduleDate: inMinutes(15) })).json();
    expect(s.ticketId).toBe(first.ticketId);

    expect((await t.dispatchScheduled(new Date(s.scheduleDate))).dispatched).toBe(1);
    await until(async () => (await outbox(admin)).some((m) => m.body === 'Como ficou, Eva?'));
    expect((await inject(admin, 'GET', `/api/tickets/${first.ticketId}`)).json().status).toBe('closed');
    const open = ((await inject(admin, 'GET', '/api/tickets')).json().tickets as { id: number; contactId: number; status: string; userId: number | null }[]).find((x) => x.contactId === eva.id);
    expect(open).toMatchObject({ status: 'open', userId: admin.id });
    // Listed among the messages once the send is recorded (a moment after the provider got it).
    const msgs = await until(async () => {
      const r = (await inject(admin, 'GET', `/api/messages/${open!.id}`)).json();
      return r.messages.length ? r : undefined;
    });
    expect(msgs.messages.map((m: { body: string }) => m.body)).toEqual(['Como ficou, Eva?']);
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
