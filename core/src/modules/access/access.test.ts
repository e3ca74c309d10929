import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { createTestApp, type TestApp } from '../../testing/index.ts';
import { KERNEL_MENUS, menuAllowed } from './menus.ts';
import { requirePlatformSuperadmin } from './guards.ts';
import { canSeeTicket, ticketVisibilitySql, type TicketViewer, type VisibilitySettings, type VisibilityTicket } from './ticket-visibility.ts';
import { SETTINGS_DEFAULTS } from '../tenancy/settings.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ALL = ['dashboard', 'tickets', 'contacts', 'massSend', 'groups', 'chat', 'kanban', 'tasks'];
const SUPER = ['channels', 'reports', 'queues', 'teams', 'quickMessages', 'chatbot', 'schedules', 'birthdays', 'closing', 'tags', 'notes', 'protocols', 'evaluations', 'businessHours', 'campaigns'];
const ADMIN = ['ticketPanel', 'users', 'wavoip', 'api', 'settings'];
const ROOT = ['monitor', 'subscription', 'tenants', 'userTenants', 'email', 'plans', 'payments', 'channelsTenants', 'superadminApi', 'update', 'customize', 'notification', 'queuesTasks', 'internalData', 'terminal'];
const kernelKeys = new Set(KERNEL_MENUS.map((m) => m.key));
const allowed = (menus: Record<string, boolean>) => Object.keys(menus).filter((k) => menus[k] && kernelKeys.has(k)).sort();

describe('menu sets of spec §6', () => {
  it('the kernel menu table holds exactly the spec sets', () => {
    const by = (p: string) => KERNEL_MENUS.filter((m) => m.profiles.includes(p as never)).map((m) => m.key).sort();
    expect(by('user')).toEqual([...ALL].sort());
    expect(by('super')).toEqual([...ALL, ...SUPER].sort());
    expect(by('admin')).toEqual([...ALL, ...SUPER, ...ADMIN].sort());
    expect(KERNEL_MENUS.map((m) => m.key).sort()).toEqual([...ALL, ...SUPER, ...ADMIN, ...ROOT].sort());
    const tenantFlags = KERNEL_MENUS.filter((m) => m.tenantMenu).map((m) => m.tenantMenu).sort();
    expect(tenantFlags).toEqual(['api', 'campaigns', 'chat', 'chatbot', 'groups', 'kanban', 'massSend', 'reports', 'tasks', 'teams']);
  });

  it('GET /api/me/access answers the map per profile, computed by menuAllowed', async () => {
    for (const [profile, expected] of [['user', ALL], ['super', [...ALL, ...SUPER]], ['admin', [...ALL, ...SUPER, ...ADMIN]], ['superadmin', [...ALL, ...SUPER, ...ADMIN, ...ROOT]]] as const) {
      const u = await t.loginAs(profile);
      const res = await t.app.inject({ method: 'GET', url: '/api/me/access', headers: u.headers });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(allowed(body.menus)).toEqual([...expected].sort());
      expect(body.superadmin).toBe(profile === 'superadmin');
      expect(body.user).toMatchObject({ id: u.id, email: u.email, profile, tenantId: u.tenantId, queues: [], configs: {} });
      expect(body.tenant).toMatchObject({ id: u.tenantId, status: 'active', blocked: false, termsAccepted: true, country: 'BR' });
      expect(body.routes['/usuarios']).toBe('users');
      expect(body.routes['/configuracoes/motivos']).toBe('settings');
    }
  });

  it('tells the screens whether the company is Brazilian, by its time zone', async () => {
    const admin = await t.loginAs('admin');
    const country = async () => (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: admin.headers })).json().tenant.country;
    expect(await country()).toBe('BR');
    await t.sql.query(`UPDATE tenants SET timezone = 'America/Manaus' WHERE id = $1`, [admin.tenantId]);
    expect(await country()).toBe('BR');
    await t.sql.query(`UPDATE tenants SET timezone = 'Europe/Lisbon' WHERE id = $1`, [admin.tenantId]);
    expect(await country()).toBeNull();
  });

  it('per-user toggles and per-tenant flags hide menus, and the routes of those menus refuse', async () => {
    const tenantId = await t.createTenant({ menus: { kanban: false, api: false } });
    const admin = await t.loginAs('admin', tenantId, { menus: { chat: false, quickMessages: false } });
    const body = (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: admin.headers })).json();
    expect(body.menus).toMatchObject({ kanban: false, api: false, chat: false, quickMessages: false, tasks: true, users: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/users/chat-privado', headers: admin.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/tenantApi', headers: admin.headers })).statusCode).toBe(403);
    // The superadmin bypasses toggles.
    const sa = await t.loginAs('superadmin', 1, { menus: { chat: false } });
    expect((await t.app.inject({ method: 'GET', url: '/api/me/access', headers: sa.headers })).json().menus.chat).toBe(true);
  });

  it('supervisorAdmin makes supervisors follow the user rules', async () => {
    const admin = await t.loginAs('admin');
    const sup = await t.loginAs('super', admin.tenantId);
    const before = (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: sup.headers })).json();
    expect(before.menus.reports).toBe(true);
    await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { supervisorAdmin: 'enabled' } });
    const after = (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: sup.headers })).json();
    expect(allowed(after.menus)).toEqual([...ALL].sort());
    const m = KERNEL_MENUS.find((x) => x.key === 'reports')!;
    expect(menuAllowed(m, { profile: 'super', userMenus: {}, tenantMenus: {}, tenantBlocked: false, supervisorDemoted: true })).toBe(false);
  });

  it("a disabled plugin's menus are false and its routes are not listed", async () => {
    const admin = await t.loginAs('admin');
    await t.app.inject({ method: 'PUT', url: '/api/plugins/demands/enabled', headers: admin.headers, payload: { enabled: false } });
    const body = (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: admin.headers })).json();
    expect(body.routes['/configuracoes/motivos']).toBeUndefined();
    expect(body.menus.settings).toBe(true);
  });

  it('an anonymous caller gets ERR_LOGIN_REQUIRED', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/me/access' });
    expect(res.json()).toEqual({ error: 'ERR_LOGIN_REQUIRED', message: 'Necessário realizar login' });
  });
});

describe('platform superadmin guard', () => {
  const req = (p: Record<string, unknown> | undefined) => ({ principal: p, url: '/api/x', log: { warn: () => undefined } }) as unknown as FastifyRequest;
  it('lets only a tenant-1 superadmin user through', () => {
    expect(() => requirePlatformSuperadmin(req({ userId: 1, tenantId: 1, profile: 'superadmin' }))).not.toThrow();
    for (const p of [undefined, { userId: 2, tenantId: 1, profile: 'admin' }, { userId: 3, tenantId: 5, profile: 'superadmin' }, { userId: 0, tenantId: 1, profile: 'superadmin', apiToken: true }]) {
      expect(() => requirePlatformSuperadmin(req(p))).toThrow('Usuário não autorizado');
    }
  });
});

describe('ticket visibility', () => {
  const s = (over: Partial<VisibilitySettings> = {}): VisibilitySettings => ({ ...SETTINGS_DEFAULTS, ...over });
  const ticket = (over: Partial<VisibilityTicket> = {}): VisibilityTicket => ({ status: 'pending', queueId: 1, userId: null, isGroup: false, chatbot: false, contactId: 1, walletUserIds: [], ...over });
  const user: TicketViewer = { userId: 10, profile: 'user', queues: [1] };
  const admin: TicketViewer = { userId: 20, profile: 'admin', queues: [1] };
  const sup: TicketViewer = { userId: 30, profile: 'super', queues: [1] };

  it('applies the rules of spec §6', () => {
    expect(canSeeTicket(admin, ticket({ queueId: 9, userId: 5, status: 'open' }), s(), { showAll: true })).toBe(true);
    expect(canSeeTicket(admin, ticket({ queueId: 9 }), s())).toBe(false);
    expect(canSeeTicket(user, ticket({ queueId: 9 }), s(), { showAll: true })).toBe(false);
    expect(canSeeTicket(sup, ticket({ queueId: 9 }), s(), { showAll: true })).toBe(true);
    expect(canSeeTicket(sup, ticket({ queueId: 9 }), s({ supervisorAdmin: 'enabled' }), { showAll: true })).toBe(false);
    expect(canSeeTicket(user, ticket({ queueId: 9, userId: 10, status: 'open' }), s())).toBe(true);
    expect(canSeeTicket(user, ticket({ queueId: 1 }), s())).toBe(true);
    expect(canSeeTicket(user, ticket({ queueId: null }), s())).toBe(false);
    expect(canSeeTicket(user, ticket({ queueId: null }), s({ ViewTicketsWithoutQueue: 'enabled' }))).toBe(true);
    expect(canSeeTicket(user, ticket({ queueId: null }), s({ ViewTicketsWithoutQueue: 'enabled' }), { includeNotQueueDefined: false })).toBe(false);
    expect(canSeeTicket({ ...user, queues: [] }, ticket({ queueId: null }), s())).toBe(true);
    expect(canSeeTicket(user, ticket({ userId: 5, status: 'open' }), s())).toBe(true);
    expect(canSeeTicket(user, ticket({ userId: 5, status: 'open' }), s({ NotViewAssignedTickets: 'enabled' }))).toBe(false);
    expect(canSeeTicket(admin, ticket({ userId: 5, status: 'open' }), s({ NotViewAssignedTickets: 'enabled' }))).toBe(true);
    expect(canSeeTicket(user, ticket({ chatbot: true }), s({ NotViewTicketsChatBot: 'enabled' }))).toBe(false);
    expect(canSeeTicket(user, ticket({ walletUserIds: [7] }), s({ DirectTicketsToWallets: 'enabled' }))).toBe(false);
    expect(canSeeTicket(user, ticket({ walletUserIds: [7, 10] }), s({ DirectTicketsToWallets: 'enabled' }))).toBe(true);
    expect(canSeeTicket(user, ticket({ walletUserIds: [7] }), s())).toBe(true);
    expect(canSeeTicket(user, ticket({ isGroup: true, queueId: 9 }), s())).toBe(false);
    expect(canSeeTicket(user, ticket({ isGroup: true, queueId: 9 }), s({ mostrarGruposParaTodos: 'enabled' }))).toBe(true);
    expect(canSeeTicket(user, ticket({ status: 'closed', userId: 5 }), s())).toBe(false);
    expect(canSeeTicket(user, ticket({ status: 'closed', userId: 10 }), s())).toBe(true);
    expect(canSeeTicket(user, ticket({ status: 'closed', userId: 5, queueId: 9 }), s({ mostrarFechadoParaTodos: 'enabled' }))).toBe(true);
    expect(canSeeTicket({ ...user, apiToken: true, userId: 0, queues: [] }, ticket({ queueId: 9, userId: 5 }), s(), { showAll: true })).toBe(true);
  });

  it('the SQL fragment selects exactly the tickets the predicate accepts, on generated cases', async () => {
    const pool = t.app.kernel.db.pool;
    // Each generated ticket goes through one client so the temp tables stay visible.
    const client = await pool.connect();
    try {
      await client.query(`CREATE TEMP TABLE vis_t (id int, tenant_id int, status text NOT NULL, queue_id int, user_id int, is_group boolean NOT NULL, chatbot boolean NOT NULL, contact_id int NOT NULL)`);
      await client.query(`CREATE TEMP TABLE contact_wallets (tenant_id int, contact_id int, user_id int)`);
      let seed = 42;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
      const pick = <T,>(xs: T[]) => xs[rnd(xs.length)];
      const tickets: (VisibilityTicket & { id: number; tenantId: number })[] = [];
      const wallets = new Map<number, number[]>();
      for (let c = 1; c <= 12; c++) wallets.set(c, pick([[], [], [10], [11], [10, 11], [12]]));
      for (const [contact, owners] of wallets) for (const u of owners) await client.query('INSERT INTO contact_wallets VALUES (7, $1, $2)', [contact, u]);
      for (let i = 1; i <= 300; i++) {
        const contactId = rnd(12) + 1;
        const tk = { id: i, tenantId: pick([7, 7, 7, 8]), status: pick(['open', 'pending', 'closed']), queueId: pick([null, 1, 2, 3]), userId: pick([null, null, 10, 11, 12]), isGroup: rnd(4) === 0, chatbot: rnd(3) === 0, contactId, walletUserIds: wallets.get(contactId)! };
        tickets.push(tk);
        await client.query('INSERT INTO vis_t VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [tk.id, tk.tenantId, tk.status, tk.queueId, tk.userId, tk.isGroup, tk.chatbot, tk.contactId]);
      }
      const flags = ['NotViewAssignedTickets', 'NotViewTicketsChatBot', 'ViewTicketsWithoutQueue', 'DirectTicketsToWallets', 'mostrarGruposParaTodos', 'mostrarFechadoParaTodos', 'supervisorAdmin'] as const;
      let checked = 0;
      for (let round = 0; round < 60; round++) {
        const settings = s(Object.fromEntries(flags.map((f) => [f, rnd(3) === 0 ? 'enabled' : 'disabled'])));
        const viewer = { userId: pick([10, 11, 12]), profile: pick(['user', 'super', 'admin'] as const), queues: pick([[], [1], [1, 2], [3]]), tenantId: 7 };
        const opts = { showAll: rnd(2) === 0, includeNotQueueDefined: rnd(3) !== 0 };
        const frag = ticketVisibilitySql(viewer, settings, opts, { alias: 't', firstParam: 1 });
        const got = (await client.query<{ id: number }>(`SELECT t.id FROM vis_t t WHERE ${frag.where} ORDER BY t.id`, frag.params)).rows.map((r) => r.id);
        const want = tickets.filter((tk) => tk.tenantId === 7 && canSeeTicket(viewer, tk, settings, opts)).map((tk) => tk.id);
        expect(got, JSON.stringify({ viewer, settings, opts })).toEqual(want);
        checked += want.length;
      }
      expect(checked).toBeGreaterThan(100);
    } finally {
      await client.query('DROP TABLE IF EXISTS vis_t, contact_wallets').catch(() => undefined);
      client.release();
    }
  });

  it('numbers its placeholders after the caller’s own', () => {
    const f = ticketVisibilitySql({ ...user, tenantId: 3 }, s({ DirectTicketsToWallets: 'enabled' }), {}, { alias: 'tk', firstParam: 4 });
    expect(f.where).toContain('tk.tenant_id = $4');
    expect(f.params[0]).toBe(3);
    expect(() => ticketVisibilitySql({ ...user, tenantId: 3 }, s(), {}, { alias: 't; DROP' })).toThrow();
  });
});
