/**
 * Real-time sockets under changing rights ([X1] items 5, 8, 17): an open socket follows its
 * user's current queues and profile, scheduled-message events reach only who may see them,
 * and a user or session cannot open sockets without bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Frame, type TestApp, type TestSocket, type TestUser } from '../../core/src/testing/index.ts';
import { signSandbox } from '../../plugins/channel-sandbox/src/index.ts';

let t: TestApp;
let admin: TestUser;
let channelId: number;
let secret: string;
let queueId: number;

const inject = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function inbound(id: string, from: string, body: string): Promise<number> {
  const raw = JSON.stringify({ id, from: { id: from, name: `Cliente ${from}` }, body });
  const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${channelId}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw });
  expect(res.statusCode).toBe(200);
  return res.json().ticketId as number;
}

let markers = 0;
/**
 * Deliveries are sequential, in publication order: once a socket has the marker published
 * after an event, that event was either delivered to it before or withheld from it.
 */
async function flush(...socks: TestSocket[]): Promise<void> {
  const online = ++markers % 2 === 1;
  await inject(admin, 'PUT', `/api/usersIsOnline/${admin.id}`, { isOnline: online });
  await Promise.all(socks.map((s) => s.next((f) => f.event === 'user.status_updated' && f.data.id === admin.id && f.data.isOnline === online)));
}

const got = (s: TestSocket, match: (f: Frame) => boolean) => s.frames.some(match);

beforeAll(async () => {
  t = await createTestApp({ plugins: ['schedules', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
  const ch = await inject(admin, 'POST', '/api/channels', { type: 'sandbox', name: 'Sandbox' });
  expect(ch.statusCode).toBe(201);
  channelId = ch.json().id;
  secret = (await inject(admin, 'GET', `/api/plugins/channel-sandbox/channels/${channelId}/secret`)).json().secret;
  const q = await inject(admin, 'POST', '/api/queues', { name: 'Financeiro' });
  expect(q.statusCode).toBe(201);
  queueId = q.json().id;
});
afterAll(async () => {
  await t?.close();
});

describe('R10 socket visibility follows the user', () => {
  it('X1-5: after an admin removes a queue from an agent, their open socket stops receiving that queue\'s messages (the ticket is 404 to them too)', async () => {
    const ticketId = await inbound('x15-1', 'c-x15', 'Primeira mensagem');
    expect((await inject(admin, 'PUT', `/api/tickets/${ticketId}`, { queueId })).statusCode).toBe(200);
    const agent = await t.loginAs('user', admin.tenantId, { queues: [queueId] });
    const adminSock = await t.openSocket(admin.token);
    const sock = await t.openSocket(agent.token);
    await Promise.all([adminSock.next((f) => f.event === 'hello'), sock.next((f) => f.event === 'hello')]);

    await inbound('x15-2', 'c-x15', 'Ainda na fila');
    await sock.next((f) => f.event === 'message.created' && f.data.message.body === 'Ainda na fila');

    const removed = await inject(admin, 'PUT', `/api/users/${agent.id}`, { queues: [] });
    expect(removed.statusCode).toBe(200);
    await inbound('x15-3', 'c-x15', 'Depois da remoção');
    await adminSock.next((f) => f.event === 'message.created' && f.data.message.body === 'Depois da remoção');
    await flush(sock);
    expect(got(sock, (f) => f.event === 'message.created' && f.data.message.body === 'Depois da remoção')).toBe(false);
    expect((await inject(agent, 'GET', `/api/tickets/${ticketId}`)).statusCode).toBe(404);
    expect(sock.ws.readyState).toBe(sock.ws.OPEN);

    // Given the queue back, the same socket receives it again: the change is read, not frozen either way.
    expect((await inject(admin, 'PUT', `/api/users/${agent.id}`, { queues: [queueId] })).statusCode).toBe(200);
    await inbound('x15-4', 'c-x15', 'De volta à fila');
    await sock.next((f) => f.event === 'message.created' && f.data.message.body === 'De volta à fila');
    await Promise.all([sock.close(), adminSock.close()]);
  });

  it('X1-5: a supervisor demoted to agent stops receiving the events only supervisors get, on the socket already open', async () => {
    const sup = await t.loginAs('super', admin.tenantId);
    const sock = await t.openSocket(sup.token);
    await sock.next((f) => f.event === 'hello');
    // Channel settings reach those who manage channels; agents get the status only.
    await inject(admin, 'PUT', `/api/channels/${channelId}`, { name: 'Sandbox A' });
    await sock.next((f) => f.event === 'channel.updated' && f.data.channel.name === 'Sandbox A' && Object.keys(f.data.channel).length > 5);
    expect((await inject(admin, 'PUT', `/api/users/${sup.id}`, { profile: 'user' })).statusCode).toBe(200);
    await inject(admin, 'PUT', `/api/channels/${channelId}`, { name: 'Sandbox B' });
    const after = await sock.next((f) => f.event === 'channel.updated' && f.data.channel.name === 'Sandbox B');
    expect(Object.keys(after.data.channel).sort()).toEqual(['id', 'name', 'status', 'statusAt', 'type']);
    await sock.close();
  });
});

describe('R10 scheduled-message events', () => {
  it('X1-8: a schedule\'s events reach those who may see its ticket or the schedules screen, not every agent of the tenant', async () => {
    const contact = await inject(admin, 'POST', '/api/contacts', { name: 'Rita Agenda', number: '5511977776666' });
    expect(contact.statusCode).toBe(201);
    const ticket = await inject(admin, 'POST', '/api/tickets', { contactId: contact.json().id, channelId, status: 'pending', queueId });
    expect(ticket.statusCode).toBe(201);
    const inQueue = await t.loginAs('user', admin.tenantId, { queues: [queueId] });
    const outsider = await t.loginAs('user', admin.tenantId, { queues: [] });
    const sup = await t.loginAs('super', admin.tenantId);
    const [a, b, c] = await Promise.all([t.openSocket(inQueue.token), t.openSocket(outsider.token), t.openSocket(sup.token)]);
    await Promise.all([a, b, c].map((s) => s.next((f) => f.event === 'hello')));

    const when = new Date(Date.now() + 30 * 60_000).toISOString();
    const created = await inject(admin, 'POST', '/api/messagesSchedule', { contactId: contact.json().id, channelId, body: 'Lembrete da Rita', scheduleDate: when });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(created.json().ticketId).toBe(ticket.json().id);
    await a.next((f) => f.event === 'schedule.created' && f.data.id === id);
    await c.next((f) => f.event === 'schedule.created' && f.data.id === id);
    expect((await inject(admin, 'DELETE', `/api/messagesSchedule/${id}`)).statusCode).toBe(204);
    await a.next((f) => f.event === 'schedule.deleted' && f.data.id === id);
    await flush(b);
    expect(got(b, (f) => f.event.startsWith('schedule.'))).toBe(false);
    await Promise.all([a, b, c].map((s) => s.close()));
  });
});
