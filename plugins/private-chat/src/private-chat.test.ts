import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;
let carla: TestUser;

const BASE = '/api/plugins/private-chat';

beforeAll(async () => {
  t = await createTestApp({ plugins: ['teams', 'private-chat'] });
  tenant = await t.createTenant();
  admin = await t.loginAs('admin', tenant);
  ana = await t.loginAs('user', tenant);
  bruno = await t.loginAs('user', tenant);
  carla = await t.loginAs('user', tenant);
});
afterAll(async () => {
  await t?.close();
});

const call = (u: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, headers: u.headers, payload });
const conversations = async (u: TestUser) => (await call(u, 'GET', `${BASE}/conversations`)).json();

describe('private chat', () => {
  it('one-to-one: live both ways, unread counts, read marks', async () => {
    const anaSocket = await t.openSocket(ana.token);
    const brunoSocket = await t.openSocket(bruno.token);
    const carlaSocket = await t.openSocket(carla.token);
    const sent = await call(ana, 'POST', `${BASE}/users/${bruno.id}/messages`, { body: 'Oi Bruno, pode me ajudar?' });
    expect(sent.statusCode).toBe(201);
    expect((await brunoSocket.next((f) => f.event === 'private_message.created')).data).toMatchObject({ body: 'Oi Bruno, pode me ajudar?', fromUserId: ana.id, toUserId: bruno.id });
    await anaSocket.next((f) => f.event === 'private_message.created');
    const list = await conversations(bruno);
    expect(list.users.find((u: { id: number }) => u.id === ana.id)).toMatchObject({ unread: 1, lastMessage: 'Oi Bruno, pode me ajudar?' });
    expect(list).toMatchObject({ unreadCount: 1, notificationCount: 1 });
    // Colleagues come with their name and presence, never their e-mail address or profile.
    expect(Object.keys(list.users.find((u: { id: number }) => u.id === ana.id)).sort()).toEqual(
      ['id', 'isOnline', 'lastMessage', 'lastMessageAt', 'lastMessageFromMe', 'lastSeenAt', 'name', 'unread'],
    );
    expect(JSON.stringify(list)).not.toContain(ana.email);
    await call(bruno, 'POST', `${BASE}/users/${ana.id}/messages`, { body: 'Claro!' });
    await anaSocket.next((f) => f.event === 'private_message.created' && f.data.body === 'Claro!');
    const history = (await call(ana, 'GET', `${BASE}/users/${bruno.id}/messages`)).json();
    expect(history.messages.map((m: { body: string }) => m.body)).toEqual(['Oi Bruno, pode me ajudar?', 'Claro!']);
    expect((await call(bruno, 'PUT', `${BASE}/users/${ana.id}/read`)).json().read).toBe(1);
    expect((await conversations(bruno)).unreadCount).toBe(0);
    await anaSocket.next((f) => f.event === 'private_message.read' && f.data.readerId === bruno.id);
    // Carla heard none of it.
    expect(carlaSocket.frames.some((f) => String(f.event).startsWith('private_message'))).toBe(false);
    expect((await call(carla, 'GET', `${BASE}/users/${ana.id}/messages`)).json().messages).toEqual([]);
  });

  it('team conversations reach the members only', async () => {
    const team = (await call(admin, 'POST', '/api/plugins/teams/teams', { name: 'Plantão', userIds: [ana.id, bruno.id] })).json();
    const carlaSocket = await t.openSocket(carla.token);
    const brunoSocket = await t.openSocket(bruno.token);
    expect((await conversations(ana)).teams.map((x: { id: number }) => x.id)).toEqual([team.id]);
    expect((await conversations(carla)).teams).toEqual([]);
    expect((await call(ana, 'POST', `${BASE}/teams/${team.id}/messages`, { body: 'Bom dia, equipe' })).statusCode).toBe(201);
    expect((await brunoSocket.next((f) => f.event === 'private_message.created' && f.data.teamId === team.id)).data.teamName).toBe('Plantão');
    expect((await conversations(bruno)).teams[0]).toMatchObject({ unread: 1, lastMessage: 'Bom dia, equipe' });
    expect((await conversations(ana)).teams[0].unread).toBe(0);
    await call(bruno, 'PUT', `${BASE}/teams/${team.id}/read`);
    expect((await conversations(bruno)).teams[0].unread).toBe(0);
    expect((await call(carla, 'POST', `${BASE}/teams/${team.id}/messages`, { body: 'intrusa' })).json().error).toBe('ERR_NOT_FOUND');
    expect((await call(carla, 'GET', `${BASE}/teams/${team.id}/messages`)).statusCode).toBe(404);
    expect(carlaSocket.frames.some((f) => f.event === 'private_message.created')).toBe(false);
  });

  it('loads at most internalChatMessageLimit messages and pages back', async () => {
    await t.sql.query(`INSERT INTO settings (tenant_id, key, value) VALUES ($1, 'internalChatMessageLimit', '10')`, [tenant]);
    for (let i = 1; i <= 12; i++) await call(carla, 'POST', `${BASE}/users/${admin.id}/messages`, { body: `msg ${i}` });
    const page = (await call(admin, 'GET', `${BASE}/users/${carla.id}/messages`)).json();
    expect(page.limit).toBe(10);
    expect(page.hasMore).toBe(true);
    expect(page.messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 10 }, (_, i) => `msg ${i + 3}`));
    const older = (await call(admin, 'GET', `${BASE}/users/${carla.id}/messages?before=${page.messages[0].id}`)).json();
    expect(older.messages.map((m: { body: string }) => m.body)).toEqual(['msg 1', 'msg 2']);
    expect(older.hasMore).toBe(false);
  });

  it('refuses empty messages, itself, and users of another tenant', async () => {
    expect((await call(ana, 'POST', `${BASE}/users/${bruno.id}/messages`, { body: '   ' })).json().error).toBe('ERR_INVALID_MESSAGE');
    expect((await call(ana, 'POST', `${BASE}/users/${ana.id}/messages`, { body: 'eu' })).json().error).toBe('ERR_NO_USER_FOUND');
    const stranger = await t.loginAs('user');
    expect((await call(ana, 'POST', `${BASE}/users/${stranger.id}/messages`, { body: 'oi' })).json().error).toBe('ERR_NO_USER_FOUND');
    expect((await conversations(stranger)).users).toEqual([]);
    const hidden = await t.loginAs('user', tenant, { menus: { chat: false } });
    expect((await call(hidden, 'GET', `${BASE}/conversations`)).statusCode).toBe(403);
  });

  it('presence follows the real sockets', async () => {
    const dani = await t.loginAs('user', tenant);
    await t.sql.query('UPDATE users SET is_online = false WHERE id = $1', [dani.id]);
    const watcher = await t.openSocket(ana.token);
    const socket = await t.openSocket(dani.token);
    await watcher.next((f) => f.event === 'user.status_updated' && f.data.id === dani.id && f.data.isOnline === true);
    expect((await conversations(ana)).users.find((u: { id: number }) => u.id === dani.id).isOnline).toBe(true);
    await socket.close();
    await watcher.next((f) => f.event === 'user.status_updated' && f.data.id === dani.id && f.data.isOnline === false, 8000);
    expect((await conversations(ana)).users.find((u: { id: number }) => u.id === dani.id).isOnline).toBe(false);
  });
});
