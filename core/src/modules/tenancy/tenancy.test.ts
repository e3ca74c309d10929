import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';
import { eraseExpiredTrials, TRIAL_SWEEP_JOB } from './routes.ts';

let t: TestApp;
let sa: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  sa = await t.loginAs('superadmin');
});
afterAll(async () => {
  await t?.close();
});

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser | { headers: Record<string, string> }, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

describe('tenants (superadmin)', () => {
  it('creates, reads, updates and deletes tenants with every spec field; the payment token is write-only', async () => {
    const plan = (await inject('POST', '/api/plans', sa, { name: 'Pro', value: 199.9, users: 8, connections: 4 })).json();
    const res = await inject('POST', '/api/tenants', sa, {
      name: 'Clínica Sol', identity: '11.222.333/0001-81', asaasActive: true, asaasToken: 'tok-secreto', asaasCustomerId: 'cus_1',
      hideNonOfficial: true, planId: plan.id, menus: { kanban: false }, timezone: 'America/Manaus',
    });
    expect(res.statusCode).toBe(201);
    const tn = res.json();
    expect(tn).toMatchObject({
      name: 'Clínica Sol', status: 'active', maxUsers: 8, maxConnections: 4, identity: '11.222.333/0001-81', asaasActive: true, asaasTokenSet: true,
      asaasCustomerId: 'cus_1', hideNonOfficial: true, trial: false, trialDays: 0, trialEndsAt: null, blocked: false, planId: plan.id, timezone: 'America/Manaus', termsAcceptedAt: null,
    });
    expect(tn.menus).toMatchObject({ kanban: false, groups: true, api: true });
    expect(JSON.stringify(tn)).not.toContain('tok-secreto');
    expect((await inject('GET', `/api/tenants/${tn.id}`, sa)).json().name).toBe('Clínica Sol');
    expect((await inject('GET', '/api/tenants?searchParam=Sol', sa)).json().map((x: { id: number }) => x.id)).toEqual([tn.id]);

    const up = await inject('PUT', `/api/tenants/${tn.id}`, sa, { trial: true, trialDays: 15, menus: { chat: false }, maxUsers: 20 });
    expect(up.json()).toMatchObject({ trial: true, trialDays: 15, maxUsers: 20 });
    expect(up.json().menus).toMatchObject({ kanban: false, chat: false });
    expect(new Date(up.json().trialEndsAt).getTime()).toBeGreaterThan(Date.now() + 14 * 86_400_000);
    expect((await inject('PUT', `/api/tenants/${tn.id}`, sa, { identity: '123' })).json().error).toBe('ERR_INVALID_CPF_CNPJ');
    expect((await inject('PUT', `/api/tenants/${tn.id}`, sa, { timezone: 'Lua/Cratera' })).statusCode).toBe(400);

    expect((await inject('DELETE', `/api/tenants/${tn.id}`, sa)).statusCode).toBe(204);
    expect((await inject('GET', `/api/tenants/${tn.id}`, sa)).json().error).toBe('ERR_NO_TENANT_FOUND');
  });

  it('never deactivates, deletes or puts on trial tenant 1', async () => {
    for (const [method, payload] of [['PUT', { status: 'inactive' }], ['PUT', { trial: true }], ['DELETE', undefined]] as const) {
      const res = await inject(method, '/api/tenants/1', sa, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_PLATFORM_TENANT', message: 'O tenant 1 (plataforma) não pode ser desativado nem excluído' });
    }
    expect((await t.sql.query('SELECT status FROM tenants WHERE id = 1')).rows[0].status).toBe('active');
  });

  it('is superadmin only', async () => {
    const admin = await t.loginAs('admin');
    for (const [m, u] of [['GET', '/api/tenants'], ['GET', `/api/tenants/${admin.tenantId}`], ['POST', '/api/tenants'], ['DELETE', `/api/tenants/${admin.tenantId}`]] as const) {
      const res = await inject(m, u, admin, m === 'POST' ? { name: 'x' } : undefined);
      expect(res.statusCode).toBe(403);
    }
  });

  it("deactivating a tenant ends its users' HTTP and socket sessions with ERR_TENANT_INACTIVE", async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const s = await t.openSocket(agent.token);
    await s.next((f) => f.event === 'hello');
    const res = await inject('PUT', `/api/tenants/${admin.tenantId}`, sa, { status: 'inactive' });
    expect(res.json().status).toBe('inactive');
    expect((await s.closed).code).toBe(4001);
    const after = await inject('GET', '/api/me/access', admin);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toEqual({ error: 'ERR_TENANT_INACTIVE', message: 'Sua empresa está inativa' });
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: agent.refreshToken } });
    expect(refresh.json().error).toBe('ERR_TENANT_INACTIVE');
    // Reactivated, the old sessions stay ended: users log in again.
    await inject('PUT', `/api/tenants/${admin.tenantId}`, sa, { status: 'active' });
    expect((await inject('GET', '/api/me/access', admin)).json().error).toBe('ERR_SESSION_EXPIRED');
  });

  it('a blocked tenant reaches only settings', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    await inject('PUT', `/api/tenants/${admin.tenantId}`, sa, { blocked: true });
    const access = (await inject('GET', '/api/me/access', admin)).json();
    expect(Object.entries(access.menus).filter(([, v]) => v).map(([k]) => k)).toEqual(['settings']);
    expect(access.tenant.blocked).toBe(true);
    expect((await inject('GET', '/api/settings', admin)).statusCode).toBe(200);
    expect((await inject('PUT', '/api/settings', admin, { tagFiltro: 'enabled' })).statusCode).toBe(200);
    expect((await inject('GET', '/api/users', admin)).json().error).toBe('ERR_ACCESS_DENIED');
    expect((await inject('POST', '/api/users', admin, { name: 'x', email: 'x@y.com.br', password: 'Senha#123' })).statusCode).toBe(403);
    expect((await inject('GET', '/api/tickets', agent)).statusCode).toBe(403);
    const agentAccess = (await inject('GET', '/api/me/access', agent)).json();
    expect(Object.values(agentAccess.menus).some(Boolean)).toBe(false);
  });
});

describe('trial tenants', () => {
  it('the scheduled sweep erases expired trial tenants and their data, logged, never tenant 1', async () => {
    const expired = await t.createTenant({ name: 'Teste Vencido' });
    const running = await t.createTenant({ name: 'Teste Ativo' });
    const u = await t.loginAs('admin', expired);
    await t.sql.query(`UPDATE tenants SET trial = true, trial_days = 7, trial_ends_at = now() - interval '1 hour' WHERE id = $1`, [expired]);
    await t.sql.query(`UPDATE tenants SET trial = true, trial_days = 7, trial_ends_at = now() + interval '1 day' WHERE id = $1`, [running]);
    // Even a platform tenant marked as trial by hand is never erased.
    await t.sql.query(`UPDATE tenants SET trial = true, trial_ends_at = now() - interval '1 day' WHERE id = 1`);
    const s = await t.openSocket(u.token);
    await s.next((f) => f.event === 'hello');
    await t.app.kernel.jobs.enqueue(TRIAL_SWEEP_JOB, {});
    for (let i = 0; i < 100; i++) {
      if (!(await t.sql.query('SELECT 1 FROM tenants WHERE id = $1', [expired])).rowCount) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await t.sql.query('SELECT id FROM tenants WHERE id = ANY($1) ORDER BY id', [[expired, running, 1]])).rows.map((r) => r.id)).toEqual([1, running]);
    expect((await t.sql.query('SELECT count(*)::int AS n FROM users WHERE tenant_id = $1', [expired])).rows[0].n).toBe(0);
    expect((await s.closed).code).toBe(4001);
    expect(await eraseExpiredTrials(t.app.kernel)).toEqual([]);
    await t.sql.query(`UPDATE tenants SET trial = false, trial_ends_at = NULL WHERE id = 1`);
  });
});

describe('plans', () => {
  it('superadmin CRUD; deleting a plan keeps its tenants with their limits', async () => {
    const p = await inject('POST', '/api/plans', sa, { name: 'Start', value: 49.9, users: 2, connections: 1, trial: true, trialDays: 7 });
    expect(p.statusCode).toBe(201);
    const plan = p.json();
    expect(plan).toMatchObject({ name: 'Start', value: 49.9, users: 2, connections: 1, trial: true, trialDays: 7, active: true });
    expect((await inject('PUT', `/api/plans/${plan.id}`, sa, { value: 59.9 })).json().value).toBe(59.9);
    expect((await inject('GET', `/api/plans/${plan.id}`, sa)).json().name).toBe('Start');
    const tn = (await inject('POST', '/api/tenants', sa, { name: 'Com plano', planId: plan.id })).json();
    expect(tn).toMatchObject({ maxUsers: 2, maxConnections: 1, trial: true, trialDays: 7 });
    expect((await inject('DELETE', `/api/plans/${plan.id}`, sa)).statusCode).toBe(204);
    expect((await inject('GET', `/api/tenants/${tn.id}`, sa)).json()).toMatchObject({ planId: null, maxUsers: 2 });
    expect((await inject('GET', `/api/plans/${plan.id}`, sa)).statusCode).toBe(404);
    const admin = await t.loginAs('admin');
    expect((await inject('GET', '/api/plans', admin)).statusCode).toBe(403);
    expect((await inject('POST', '/api/plans', sa, { name: 'x', value: -1, users: 1, connections: 1 })).statusCode).toBe(400);
  });
});

describe('terms of use', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp({ termsAccepted: false });
  });
  afterAll(async () => {
    await c?.close();
  });

  it('until the superadmin accepts them, other users may only learn why', async () => {
    const admin = await c.loginAs('admin');
    const blocked = await c.app.inject({ method: 'GET', url: '/api/users', headers: admin.headers });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ error: 'ERR_TERMS_NOT_ACCEPTED', message: 'Aceite os termos de uso para continuar' });
    const access = await c.app.inject({ method: 'GET', url: '/api/me/access', headers: admin.headers });
    expect(access.statusCode).toBe(200);
    expect(access.json().tenant.termsAccepted).toBe(false);
    const terms = await c.app.inject({ method: 'GET', url: '/api/tenants/terms', headers: admin.headers });
    expect(terms.json()).toMatchObject({ accepted: false, acceptedAt: null, version: '1' });
    expect(terms.json().text).toContain('Termos de uso');
    const refused = await c.app.inject({ method: 'POST', url: '/api/tenants/terms/accept', headers: admin.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_TERMS_SUPERADMIN_ONLY');

    const root = await c.loginAs('superadmin');
    expect((await c.app.inject({ method: 'GET', url: '/api/tenants', headers: root.headers })).statusCode).toBe(200);
    const ok = await c.app.inject({ method: 'POST', url: '/api/tenants/terms/accept', headers: root.headers });
    expect(ok.json()).toMatchObject({ accepted: true, version: '1' });
    expect((await c.app.inject({ method: 'GET', url: '/api/users', headers: admin.headers })).statusCode).toBe(200);
    expect((await c.app.inject({ method: 'GET', url: '/api/me/access', headers: admin.headers })).json().tenant.termsAccepted).toBe(true);
  });
});

describe('system colours', () => {
  it('admin sets the tenant colours; the public route answers them for that tenant and the platform ones otherwise', async () => {
    const platform = [{ primary: '#123456' }, { secondary: 'rgb(1, 2, 3)' }];
    expect((await inject('PUT', '/api/tenants/systemColors/', sa, platform)).json()).toEqual(platform);
    const admin = await t.loginAs('admin');
    expect((await t.app.inject({ method: 'GET', url: '/api/publicSystemColors' })).json()).toEqual(platform);
    // A tenant without colours gets the platform's.
    expect((await t.app.inject({ method: 'GET', url: '/api/publicSystemColors', headers: admin.headers })).json()).toEqual(platform);
    const mine = [{ primary: '#ff0000', 'menu-bg': 'hsl(120, 50%, 50%)' }];
    expect((await inject('PUT', '/api/tenants/systemColors', admin, mine)).statusCode).toBe(200);
    expect((await inject('GET', '/api/tenants/systemColors', admin)).json()).toEqual(mine);
    expect((await t.app.inject({ method: 'GET', url: '/api/publicSystemColors', headers: admin.headers })).json()).toEqual(mine);
    expect((await t.app.inject({ method: 'GET', url: '/api/publicSystemColors' })).json()).toEqual(platform);
    expect((await inject('PUT', '/api/tenants/systemColors', admin, [{ primary: 'red;} body{display:none' }])).statusCode).toBe(400);
    const agent = await t.loginAs('user', admin.tenantId);
    expect((await inject('PUT', '/api/tenants/systemColors', agent, mine)).statusCode).toBe(403);
  });
});

describe('settings', () => {
  it('answers every key with its default, and admins change them, typed', async () => {
    const admin = await t.loginAs('admin');
    const s = (await inject('GET', '/api/settings', admin)).json();
    expect(s).toMatchObject({ NotViewAssignedTickets: 'disabled', supervisorAdmin: 'disabled', maxAbsenceMessageRetries: 3, ticketsFetchLimit: 50, internalChatMessageLimit: 100 });
    const up = await inject('PUT', '/api/settings', admin, { DirectTicketsToWallets: 'enabled', ticketsFetchLimit: 80 });
    expect(up.json()).toMatchObject({ DirectTicketsToWallets: 'enabled', ticketsFetchLimit: 80 });
    expect((await inject('PUT', '/api/settings', admin, { ticketsFetchLimit: 'oitenta' })).statusCode).toBe(400);
    expect((await inject('PUT', '/api/settings', admin, { naoExiste: 'enabled' })).statusCode).toBe(400);
    expect((await inject('PUT', '/api/settings', admin, { userCreation: 'disabled' })).statusCode).toBe(403);
    const agent = await t.loginAs('user', admin.tenantId);
    expect((await inject('GET', '/api/settings', agent)).json().ticketsFetchLimit).toBe(80);
    expect((await inject('PUT', '/api/settings', agent, { tagFiltro: 'enabled' })).statusCode).toBe(403);
    const other = await t.loginAs('admin');
    expect((await inject('GET', '/api/settings', other)).json().ticketsFetchLimit).toBe(50);
  });

  it('refuses combining the three hiding settings, also from concurrent requests', async () => {
    const admin = await t.loginAs('admin');
    expect((await inject('PUT', '/api/settings', admin, { NotViewAssignedTickets: 'enabled' })).statusCode).toBe(200);
    const res = await inject('PUT', '/api/settings', admin, { NotViewTicketsChatBot: 'enabled' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_SETTINGS_CONFLICT');
    expect((await inject('PUT', '/api/settings', admin, { NotViewAssignedTickets: 'disabled', ViewTicketsWithoutQueue: 'enabled' })).statusCode).toBe(200);
    const other = await t.loginAs('admin');
    const both = await Promise.all([
      inject('PUT', '/api/settings', other, { NotViewAssignedTickets: 'enabled' }),
      inject('PUT', '/api/settings', other, { NotViewTicketsChatBot: 'enabled' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });
});

describe('tenant API tokens', () => {
  it('generate, use inside the tenant only, regenerate and revoke; stored hashed', async () => {
    const admin = await t.loginAs('admin');
    const gen = await inject('POST', '/api/tenantApi', admin, { name: 'ERP' });
    expect(gen.statusCode).toBe(201);
    const { id, token } = gen.json();
    expect(token).toMatch(/^atk_/);
    const stored = await t.sql.query('SELECT token_hash FROM tenant_api_tokens WHERE id = $1', [id]);
    expect(stored.rows[0].token_hash).not.toContain(token.slice(4));
    expect(JSON.stringify((await inject('GET', '/api/tenantApi', admin)).json())).not.toContain(token);

    const api = { headers: { authorization: `Bearer ${token}` } };
    const access = await inject('GET', '/api/me/access', api);
    expect(access.statusCode).toBe(200);
    expect(access.json()).toMatchObject({ user: { apiToken: true, tenantId: admin.tenantId, profile: 'admin' }, superadmin: false });
    // Routes that do not declare `access.api` refuse the token.
    expect((await inject('GET', '/api/users', api)).json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject('GET', '/api/tenants', api)).statusCode).toBe(403);

    const regen = await inject('POST', `/api/tenantApi/${id}/regenerate`, admin);
    expect(regen.json().id).toBe(id);
    expect((await inject('GET', '/api/me/access', api)).json().error).toBe('ERR_INVALID_TOKEN');
    const api2 = { headers: { authorization: `Bearer ${regen.json().token}` } };
    expect((await inject('GET', '/api/me/access', api2)).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/tenantApi/${id}`, admin)).statusCode).toBe(204);
    expect((await inject('GET', '/api/me/access', api2)).statusCode).toBe(401);
    expect((await inject('GET', '/api/tenantApi', admin)).json()[0]).toMatchObject({ id, revoked: true });
  });

  it("another tenant's token entry is not found; the superadmin sees and creates for all", async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const { id } = (await inject('POST', '/api/tenantApi', a, {})).json();
    expect((await inject('POST', `/api/tenantApi/${id}/regenerate`, b)).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/tenantApi/${id}`, b)).statusCode).toBe(404);
    expect((await inject('POST', '/api/tenantApi', b, { tenantId: a.tenantId })).statusCode).toBe(404);
    expect((await inject('GET', '/api/tenantApi', b)).json()).toEqual([]);
    const all = (await inject('GET', '/api/tenantApi', sa)).json();
    expect(all.some((k: { id: number; tenantId: number }) => k.id === id && k.tenantId === a.tenantId)).toBe(true);
    const forB = await inject('POST', '/api/tenantApi', sa, { tenantId: b.tenantId, name: 'Integração' });
    expect(forB.json().tenantId).toBe(b.tenantId);
    const agent = await t.loginAs('user', a.tenantId);
    expect((await inject('GET', '/api/tenantApi', agent)).statusCode).toBe(403);
  });

  it('a token of an inactive tenant is refused', async () => {
    const admin = await t.loginAs('admin');
    const { token } = (await inject('POST', '/api/tenantApi', admin, {})).json();
    await t.sql.query(`UPDATE tenants SET status = 'inactive' WHERE id = $1`, [admin.tenantId]);
    const res = await inject('GET', '/api/me/access', { headers: { authorization: `Bearer ${token}` } });
    expect(res.json().error).toBe('ERR_TENANT_INACTIVE');
  });
});
