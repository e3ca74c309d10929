import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

let seq = 0;
const newUser = (extra: Record<string, unknown> = {}) => ({ name: `Agente ${++seq}`, email: `agente.${seq}.${process.pid}@empresa.com.br`, password: 'Senha#123', ...extra });

describe('users of a tenant', () => {
  it('admin creates, lists, reads, updates and deletes users; colleagues see a reduced view', async () => {
    const admin = await t.loginAs('admin');
    const created = await inject('POST', '/api/users/', admin, newUser({ profile: 'super', blockWavoip: true, menus: { kanban: false } }));
    expect(created.statusCode).toBe(201);
    const u = created.json();
    expect(u).toMatchObject({ tenantId: admin.tenantId, profile: 'super', blockWavoip: true, menus: { kanban: false }, active: true, isOnline: false });
    expect(JSON.stringify(u)).not.toMatch(/password/i);

    const list = await inject('GET', '/api/users?searchParam=Agente', admin);
    expect(list.json()).toMatchObject({ count: 1, hasMore: false });
    expect(list.json().users[0].email).toBe(u.email);

    const agent = await t.loginAs('user', admin.tenantId);
    const asAgent = await inject('GET', '/api/users', agent);
    expect(asAgent.statusCode).toBe(200);
    expect(asAgent.json().users.every((x: Record<string, unknown>) => !('email' in x) && !('menus' in x))).toBe(true);
    expect((await inject('GET', `/api/users/${u.id}`, agent)).json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject('GET', `/api/users/${agent.id}`, agent)).json().id).toBe(agent.id);

    const put = await inject('PUT', `/api/users/${u.id}`, admin, { name: 'Supervisora', queues: [], whatsappAllowed: [] });
    expect(put.json()).toMatchObject({ id: u.id, name: 'Supervisora' });
    expect((await inject('POST', '/api/users', agent, newUser())).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/users/${u.id}`, agent)).statusCode).toBe(403);

    const del = await inject('DELETE', `/api/users/${u.id}`, admin);
    expect(del.statusCode).toBe(204);
    expect((await inject('GET', `/api/users/${u.id}`, admin)).statusCode).toBe(404);
  });

  it('refuses invalid e-mail, weak password, duplicated e-mail, unknown menus and a superadmin made by an admin', async () => {
    const admin = await t.loginAs('admin');
    expect((await inject('POST', '/api/users', admin, newUser({ email: 'sem-arroba' }))).json().error).toBe('ERR_INVALID_EMAIL');
    expect((await inject('POST', '/api/users', admin, newUser({ password: 'fraca' }))).json().error).toBe('ERR_WEAK_PASSWORD');
    expect((await inject('POST', '/api/users', admin, newUser({ email: admin.email.toUpperCase() }))).json().error).toBe('ERR_EMAIL_IN_USE');
    expect((await inject('POST', '/api/users', admin, newUser({ menus: { naoExiste: true } }))).json().error).toBe('ERR_VALIDATION');
    expect((await inject('POST', '/api/users', admin, newUser({ profile: 'superadmin' }))).json().error).toBe('ERR_NO_PERMISSION');
  });

  it("enforces the tenant's user limit, also under concurrent creation", async () => {
    const tenantId = await t.createTenant({ maxUsers: 3 });
    const admin = await t.loginAs('admin', tenantId);
    const results = await Promise.all([1, 2, 3, 4].map(() => inject('POST', '/api/users', admin, newUser())));
    expect(results.filter((r) => r.statusCode === 201).length).toBe(2);
    const refused = results.find((r) => r.statusCode !== 201)!;
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_USER_LIMIT', message: 'Limite de usuários atingido' });
  });

  it('never deletes oneself or the last active admin, nor demotes or disables the last admin', async () => {
    const admin = await t.loginAs('admin');
    const self = await inject('DELETE', `/api/users/${admin.id}`, admin);
    expect(self.json()).toEqual({ error: 'ERR_DELETE_USER', message: 'Não é possível deletar o usuário' });
    expect((await inject('PUT', `/api/users/${admin.id}`, admin, { profile: 'user' })).json().error).toBe('ERR_LAST_ADMIN');
    expect((await inject('PUT', `/api/users/${admin.id}`, admin, { active: false })).json().error).toBe('ERR_LAST_ADMIN');
    const sa = await t.loginAs('superadmin');
    const viaTenants = await inject('DELETE', `/api/userTenants/${admin.id}`, sa, { tenantId: admin.tenantId });
    expect(viaTenants.json().error).toBe('ERR_DELETE_USER');
    const second = await inject('POST', '/api/users', admin, newUser({ profile: 'admin' }));
    expect((await inject('PUT', `/api/users/${admin.id}`, admin, { profile: 'super' })).statusCode).toBe(200);
    expect(second.statusCode).toBe(201);
  });

  it('disabling a user bumps its token version and ends its HTTP and socket sessions', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const s = await t.openSocket(agent.token);
    await s.next((f) => f.event === 'hello');
    const res = await inject('PUT', `/api/users/${agent.id}`, admin, { active: false });
    expect(res.json().active).toBe(false);
    expect((await s.closed).code).toBe(4001);
    const after = await inject('GET', '/api/me/access', agent);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('ERR_SESSION_EXPIRED');
    const v = await t.sql.query('SELECT token_version FROM users WHERE id = $1', [agent.id]);
    expect(v.rows[0].token_version).toBe(1);
  });

  it('deleting a user ends its socket', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const s = await t.openSocket(agent.token);
    await s.next((f) => f.event === 'hello');
    expect((await inject('DELETE', `/api/users/${agent.id}`, admin)).statusCode).toBe(204);
    expect((await s.closed).code).toBe(4001);
    expect((await inject('GET', '/api/me/access', agent)).statusCode).toBe(401);
  });

  it('a user edits only their own name, password and configs; a password change ends the other sessions', async () => {
    const agent = await t.loginAs('user');
    expect((await inject('PUT', `/api/users/${agent.id}`, agent, { profile: 'admin' })).json().error).toBe('ERR_NO_PERMISSION');
    const other = await t.loginAs('user', agent.tenantId);
    expect((await inject('PUT', `/api/users/${other.id}`, agent, { name: 'x' })).json().error).toBe('ERR_NO_PERMISSION');
    const second = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: agent.email, password: agent.password }, remoteAddress: '10.20.0.1' });
    const otherSession = { authorization: `Bearer ${second.json().token}` };
    const res = await inject('PUT', `/api/users/${agent.id}`, agent, { name: 'Novo Nome', password: 'Trocada#1', currentPassword: agent.password });
    expect(res.json().name).toBe('Novo Nome');
    expect((await inject('GET', '/api/me/access', agent)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/me/access', headers: otherSession })).statusCode).toBe(401);
  });

  it('sets online status and configs; the configs only for oneself', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const s = await t.openSocket(admin.token);
    await s.next((f) => f.event === 'hello');
    const on = await inject('PUT', `/api/usersIsOnline/${agent.id}`, agent, { isOnline: true });
    expect(on.json()).toEqual({ id: agent.id, isOnline: true });
    const ev = await s.next((f) => f.event === 'user.status_updated' && f.data.id === agent.id);
    expect(ev.data.isOnline).toBe(true);
    const other = await t.loginAs('user', admin.tenantId);
    expect((await inject('PUT', `/api/usersIsOnline/${agent.id}`, other, { isOnline: false })).statusCode).toBe(403);

    const c1 = await inject('PUT', `/api/users/${agent.id}/configs`, agent, { isDark: true });
    expect(c1.json().configs).toEqual({ isDark: true });
    const c2 = await inject('PUT', `/api/users/${agent.id}/configs`, agent, { filtrosAtendimento: { status: ['open'] } });
    expect(c2.json().configs).toEqual({ isDark: true, filtrosAtendimento: { status: ['open'] } });
    expect((await inject('PUT', `/api/users/${agent.id}/configs`, admin, { isDark: false })).statusCode).toBe(403);
    expect((await inject('PUT', `/api/users/${agent.id}/configs`, agent, { other: 1 })).statusCode).toBe(400);
    // The user menu's sound and desktop-notification switches are kept per user; anything but a boolean is refused.
    expect((await inject('PUT', `/api/users/${agent.id}/configs`, agent, { sounds: 'off' })).statusCode).toBe(400);
    const muted = await inject('PUT', `/api/users/${agent.id}/configs`, agent, { sounds: false, desktopNotifications: false });
    expect(muted.json().configs).toMatchObject({ isDark: true, sounds: false, desktopNotifications: false });
    await inject('PUT', `/api/users/${agent.id}/configs`, agent, { sounds: true, desktopNotifications: true });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: agent.email, password: agent.password }, remoteAddress: '10.20.0.2' });
    expect(login.json().configs).toEqual({ isDark: true, filtrosAtendimento: { status: ['open'] }, sounds: true, desktopNotifications: true });
  });

  it('lists colleagues for the private chat, without the caller, for users with the chat menu', async () => {
    const admin = await t.loginAs('admin');
    const a = await t.loginAs('user', admin.tenantId);
    const res = await inject('GET', '/api/users/chat-privado/', a);
    expect(res.statusCode).toBe(200);
    expect(res.json().users.map((u: { id: number }) => u.id)).toEqual([admin.id]);
    const hidden = await t.loginAs('user', admin.tenantId, { menus: { chat: false } });
    expect((await inject('GET', '/api/users/chat-privado', hidden)).statusCode).toBe(403);
  });

  it("checks that queues named on a user are the tenant's own", async () => {
    const admin = await t.loginAs('admin');
    const other = await t.createTenant();
    const q = await t.sql.query(`INSERT INTO queues (tenant_id, name) VALUES ($1, 'Outra') RETURNING id`, [other]);
    const res = await inject('POST', '/api/users', admin, newUser({ queues: [q.rows[0].id] }));
    expect(res.statusCode).toBe(404);
    const mine = await t.sql.query(`INSERT INTO queues (tenant_id, name) VALUES ($1, 'Minha') RETURNING id`, [admin.tenantId]);
    expect((await inject('POST', '/api/users', admin, newUser({ queues: [mine.rows[0].id] }))).statusCode).toBe(201);
  });
});

describe('users across tenants (superadmin)', () => {
  it('lists, creates, updates and deletes users of any tenant; the body tenantId must match', async () => {
    const sa = await t.loginAs('superadmin');
    const tenantId = await t.createTenant({ name: 'Filial Norte' });
    const created = await inject('POST', '/api/userTenants', sa, { ...newUser({ profile: 'admin' }), tenantId });
    expect(created.statusCode).toBe(201);
    const u = created.json();
    expect(u.tenantId).toBe(tenantId);
    const list = await inject('GET', `/api/userTenants/?tenantId=${tenantId}`, sa);
    expect(list.json().users).toEqual([expect.objectContaining({ id: u.id, tenantName: 'Filial Norte' })]);
    const put = await inject('PUT', `/api/userTenants/${u.id}`, sa, { tenantId, name: 'Gerente' });
    expect(put.json().name).toBe('Gerente');
    const wrongTenant = await inject('DELETE', `/api/userTenants/${u.id}`, sa, { tenantId: tenantId + 1000 });
    expect(wrongTenant.statusCode).toBe(404);
    const second = await inject('POST', '/api/userTenants', sa, { ...newUser({ profile: 'admin' }), tenantId });
    expect(second.statusCode).toBe(201);
    expect((await inject('DELETE', `/api/userTenants/${u.id}`, sa, { tenantId })).statusCode).toBe(204);
    const admin = await t.loginAs('admin');
    expect((await inject('GET', '/api/userTenants', admin)).statusCode).toBe(403);
  });

  it('creates superadmins only in the platform tenant', async () => {
    const sa = await t.loginAs('superadmin');
    const tenantId = await t.createTenant();
    expect((await inject('POST', '/api/userTenants', sa, { ...newUser({ profile: 'superadmin' }), tenantId })).statusCode).toBe(403);
    expect((await inject('POST', '/api/userTenants', sa, { ...newUser({ profile: 'superadmin' }), tenantId: 1 })).statusCode).toBe(201);
  });
});
