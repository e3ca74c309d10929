import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;

const URL = '/api/plugins/notifications/notifications';

beforeAll(async () => {
  t = await createTestApp({ plugins: ['notifications'] });
  tenant = await t.createTenant();
  admin = await t.loginAs('admin', tenant);
  ana = await t.loginAs('user', tenant);
  bruno = await t.loginAs('user', tenant);
});
afterAll(async () => {
  await t?.close();
});

const call = (u: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, headers: u.headers, payload });

describe('notifications', () => {
  it('reaches exactly the chosen users, live, and each reads and marks their own', async () => {
    const anaSocket = await t.openSocket(ana.token);
    const brunoSocket = await t.openSocket(bruno.token);
    const sent = await call(admin, 'POST', URL, { message: 'Reunião às 15h', userIds: [ana.id] });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().recipients).toBe(1);
    const frame = await anaSocket.next((f) => f.event === 'notification.created');
    expect(frame.data).toMatchObject({ message: 'Reunião às 15h', read: false });
    const inbox = (await call(ana, 'GET', URL)).json();
    expect(inbox.unread).toBe(1);
    expect(inbox.notifications[0].message).toBe('Reunião às 15h');
    expect((await call(bruno, 'GET', URL)).json().unread).toBe(0);
    expect(brunoSocket.frames.some((f) => f.event === 'notification.created')).toBe(false);
    // Bruno cannot mark Ana's.
    expect((await call(bruno, 'PUT', `${URL}/${frame.data.id}/read`)).json().error).toBe('ERR_NOT_FOUND');
    const read = (await call(ana, 'PUT', `${URL}/${frame.data.id}/read`)).json();
    expect(read).toMatchObject({ read: true, unread: 0 });
    await anaSocket.next((f) => f.event === 'notification.read');
  });

  it('sends to all of a tenant and marks all read', async () => {
    const res = (await call(admin, 'POST', URL, { message: 'Sistema em manutenção amanhã', all: true })).json();
    expect(res.recipients).toBe(3);
    expect((await call(bruno, 'GET', URL)).json().unread).toBe(1);
    expect((await call(bruno, 'PUT', `${URL}/read-all`)).json().unread).toBe(0);
    expect((await call(bruno, 'GET', `${URL}?unread=true`)).json().notifications).toEqual([]);
    const sent = (await call(admin, 'GET', '/api/plugins/notifications/sent')).json();
    expect(sent[0]).toMatchObject({ message: 'Sistema em manutenção amanhã', recipients: 3, read: 1 });
  });

  it('only admins and the superadmin send; admins only into their own tenant', async () => {
    const sup = await t.loginAs('super', tenant);
    expect((await call(ana, 'POST', URL, { message: 'oi', all: true })).json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(sup, 'POST', URL, { message: 'oi', all: true })).statusCode).toBe(403);
    expect((await call(ana, 'GET', '/api/plugins/notifications/sent')).statusCode).toBe(403);
    expect((await call(admin, 'POST', URL, { all: true })).json()).toEqual({ error: 'ERR_REQUIRED_FIELD', message: 'O campo mensagem é obrigatório' });
    expect((await call(admin, 'POST', URL, { message: 'sem destino' })).json().error).toBe('ERR_REQUIRED_FIELD');
    const other = await t.createTenant();
    const stranger = await t.loginAs('user', other);
    expect((await call(admin, 'POST', URL, { message: 'invasão', userIds: [stranger.id] })).json().error).toBe('ERR_NO_USER_FOUND');
    expect((await call(admin, 'POST', URL, { message: 'invasão', tenantId: other, all: true })).json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(stranger, 'GET', URL)).json().unread).toBe(0);
    expect((await call(admin, 'GET', `/api/plugins/notifications/targets?tenantId=${other}`)).statusCode).toBe(403);
  });

  it('the superadmin sends into any tenant, and its agents hear it live', async () => {
    const root = await t.loginAs('superadmin');
    const other = await t.createTenant();
    const agent = await t.loginAs('user', other);
    const socket = await t.openSocket(agent.token);
    const targets = (await call(root, 'GET', `/api/plugins/notifications/targets?tenantId=${other}`)).json();
    expect(targets.users.map((u: { id: number }) => u.id)).toEqual([agent.id]);
    expect((await call(root, 'POST', URL, { message: 'Aviso da plataforma', tenantId: other, all: true })).json().recipients).toBe(1);
    expect((await socket.next((f) => f.event === 'notification.created')).data.message).toBe('Aviso da plataforma');
    expect((await call(root, 'POST', URL, { message: 'x', tenantId: 2_000_000_000, all: true })).json().error).toBe('ERR_NO_TENANT_FOUND');
    const sent = (await call(root, 'GET', '/api/plugins/notifications/sent')).json();
    expect(sent.some((s: { tenantId: number }) => s.tenantId === tenant)).toBe(true);
  });

  it('the inbox menu is every profile\'s, the screen the superadmin\'s', async () => {
    const access = (await call(ana, 'GET', '/api/me/access')).json();
    expect(access.menus.notificationInbox).toBe(true);
    expect(access.menus.notification).toBe(false);
    expect(access.routes['/notificacao']).toBe('notification');
    expect((await call(ana, 'GET', '/api/plugins/ui')).json().map((p: { id: string }) => p.id)).toContain('notifications');
    await call(admin, 'PUT', '/api/plugins/notifications/enabled', { enabled: false });
    expect((await call(ana, 'GET', '/api/plugins/ui')).json().map((p: { id: string }) => p.id)).not.toContain('notifications');
    expect((await call(ana, 'GET', URL)).statusCode).toBe(404);
    await call(admin, 'PUT', '/api/plugins/notifications/enabled', { enabled: true });
  });
});
