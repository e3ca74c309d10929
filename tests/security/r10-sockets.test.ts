/**
 * Real-time sockets under changing rights ([X1] items 5, 8, 17): an open socket follows its
 * user's current queues and profile, scheduled-message events reach only who may see them,
 * and a user or session cannot open sockets without bound.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  t = await createTestApp({ plugins: ['schedules', 'channel-sandbox', 'birthdays', 'kanban', 'teams', 'farewells', 'demands'] });
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

describe('R10 screen events', () => {
  it('X1-8: birthday send results (contact names and numbers) reach the birthdays screen users only', async () => {
    const agent = await t.loginAs('user', admin.tenantId);
    const sup = await t.loginAs('super', admin.tenantId);
    const [a, s] = await Promise.all([t.openSocket(agent.token), t.openSocket(sup.token)]);
    await Promise.all([a, s].map((x) => x.next((f) => f.event === 'hello')));
    const res = await inject(admin, 'POST', '/api/messages/sendBirthday', {});
    expect(res.statusCode).toBe(200);
    await s.next((f) => f.event === 'birthday.sent');
    await flush(a);
    expect(got(a, (f) => f.event === 'birthday.sent')).toBe(false);
    await Promise.all([a.close(), s.close()]);
  });
  it('X1-8: a kanban card move (the contact\'s name and number) and a lane change reach the board\'s users, not an agent whose kanban menu is off', async () => {
    const board = await t.loginAs('user', admin.tenantId);
    const barred = await t.loginAs('user', admin.tenantId, { menus: { kanban: false } });
    const [a, b] = await Promise.all([t.openSocket(board.token), t.openSocket(barred.token)]);
    await Promise.all([a, b].map((x) => x.next((f) => f.event === 'hello')));
    const lane = await inject(admin, 'POST', '/api/plugins/kanban/lanes', { name: 'Proposta X1' });
    expect(lane.statusCode).toBe(201);
    await a.next((f) => f.event === 'kanban.lanes_changed' && f.data.lanes.some((l: { name: string }) => l.name === 'Proposta X1'));
    const contact = await inject(admin, 'POST', '/api/contacts', { name: 'Vera Kanban', number: '5511955554444' });
    expect(contact.statusCode).toBe(201);
    const moved = await inject(board, 'PUT', `/api/plugins/kanban/cards/${contact.json().id}/lane`, { laneId: lane.json().id });
    expect(moved.statusCode).toBe(200);
    await a.next((f) => f.event === 'kanban.card_moved' && f.data.card.id === contact.json().id);
    // The barred agent's own request is refused too: the event follows the route's rule.
    expect((await inject(barred, 'GET', '/api/plugins/kanban/lanes')).statusCode).toBe(403);
    await flush(b);
    expect(got(b, (f) => f.event.startsWith('kanban.'))).toBe(false);
    await Promise.all([a.close(), b.close()]);
  });

  it('X1-8: team events (names and members) reach the teams screen users, not agents', async () => {
    const agent = await t.loginAs('user', admin.tenantId);
    const sup = await t.loginAs('super', admin.tenantId);
    const [a, s] = await Promise.all([t.openSocket(agent.token), t.openSocket(sup.token)]);
    await Promise.all([a, s].map((x) => x.next((f) => f.event === 'hello')));
    const created = await inject(admin, 'POST', '/api/plugins/teams/teams', { name: 'Equipe X1', userIds: [agent.id] });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    await s.next((f) => f.event === 'team.created' && f.data.id === id);
    expect((await inject(admin, 'PUT', `/api/plugins/teams/teams/${id}`, { name: 'Equipe X1b' })).statusCode).toBe(200);
    await s.next((f) => f.event === 'team.updated' && f.data.name === 'Equipe X1b');
    expect((await inject(admin, 'DELETE', `/api/plugins/teams/teams/${id}`)).statusCode).toBe(204);
    await s.next((f) => f.event === 'team.deleted' && f.data.id === id);
    await flush(a);
    expect(got(a, (f) => f.event.startsWith('team.'))).toBe(false);
    await Promise.all([a.close(), s.close()]);
  });

  it('X1-8: farewell and reason events reach who may read them (every agent: they pick them when resolving)', async () => {
    const agent = await t.loginAs('user', admin.tenantId);
    const a = await t.openSocket(agent.token);
    await a.next((f) => f.event === 'hello');
    const fw = await inject(admin, 'POST', '/api/plugins/farewells/farewells', { message: 'Até logo, X1!' });
    expect(fw.statusCode).toBe(201);
    await a.next((f) => f.event === 'farewell.created' && f.data.id === fw.json().id);
    const dm = await inject(admin, 'POST', '/api/plugins/demands/demands', { name: 'Motivo X1' });
    expect(dm.statusCode).toBe(201);
    await a.next((f) => f.event === 'demand.created' && f.data.id === dm.json().id);
    await a.close();
  });
});

describe('R10 socket caps', () => {
  it('X1-17: a session and a user hold at most the configured sockets; one more, even opened concurrently, is closed with 4008 and the reason', async () => {
    const { wsMaxPerSession, wsMaxPerUser } = t.app.kernel.config;
    const u = await t.loginAs('user', admin.tenantId);
    // Concurrent upgrades on one session: exactly the cap stays open.
    const socks = await Promise.all(Array.from({ length: wsMaxPerSession + 5 }, () => t.openSocket(u.token)));
    const outcome = await Promise.all(socks.map((s) => Promise.race([s.next((f) => f.event === 'hello' || f.event === 'error').then((f) => f.event), s.closed.then(() => 'closed')])));
    expect(outcome.filter((o) => o === 'hello').length).toBe(wsMaxPerSession);
    const refused = socks.filter((_, i) => outcome[i] !== 'hello');
    expect(refused.length).toBe(5);
    for (const s of refused) {
      const closed = await s.closed;
      expect(closed.code).toBe(4008);
      expect(s.frames.find((f) => f.event === 'error')).toMatchObject({ error: 'ERR_TOO_MANY_SOCKETS', message: 'Há conexões demais abertas para este usuário. Feche outras abas ou janelas.' });
    }
    // Closing one frees its place.
    const open = socks.filter((_, i) => outcome[i] === 'hello');
    const hub = t.app.kernel.realtime as unknown as { size: number };
    const before = hub.size;
    await open[0].close();
    await vi.waitFor(() => expect(hub.size).toBe(before - 1));
    const again = await t.openSocket(u.token);
    await again.next((f) => f.event === 'hello');
    // The per-user cap counts every session of the user.
    const sessions: TestSocket[] = [];
    let closedCode: number | undefined;
    for (let i = 0; i < Math.ceil(wsMaxPerUser / wsMaxPerSession) + 1 && closedCode === undefined; i++) {
      const l = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password }, remoteAddress: `10.17.0.${i}` });
      const token = l.json().token as string;
      for (let k = 0; k < wsMaxPerSession && closedCode === undefined; k++) {
        const s = await t.openSocket(token);
        sessions.push(s);
        const f = await Promise.race([s.next((x) => x.event === 'hello' || x.event === 'error').then((x) => x.event), s.closed.then(() => 'closed')]);
        if (f !== 'hello') closedCode = (await s.closed).code;
      }
    }
    expect(closedCode).toBe(4008);
    expect(open.length - 1 + 1 + sessions.length - 1).toBe(wsMaxPerUser);
    await Promise.all([...open.slice(1), again, ...sessions].map((s) => s.close()));
  });
});
