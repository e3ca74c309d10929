import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { PLATFORM_TENANT_ID } from '../identity/bootstrap.ts';
import { isValidCpfCnpj } from '../identity/validation.ts';
import { endTenantSessions } from '../identity/sessions.ts';
import { authenticate, bearer } from '../../http/auth.ts';
import { DEFAULT_TENANT_MENUS } from './entities.ts';
import { PLATFORM_ONLY_SETTINGS, loadSettings, settingsSchema, settingsUpdateSchema, updateSettings } from './settings.ts';
import { apiTokenRoutes } from './api-tokens.ts';
import { TERMS_TEXT, TERMS_VERSION } from './terms.ts';
import { principalOf } from '../../sdk/http.ts';
import { planAnswer, publicPlanAnswer, systemColorsAnswer, tenantAnswer, termsAcceptedAnswer, termsAnswer } from './schemas.ts';

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const tenantMenusSchema = z
  .object({
    groups: z.boolean(), massSend: z.boolean(), kanban: z.boolean(), tasks: z.boolean(), api: z.boolean(),
    chatbot: z.boolean(), reports: z.boolean(), campaigns: z.boolean(), chat: z.boolean(), teams: z.boolean(),
  })
  .partial()
  .strict();

const timezone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'fuso horário inválido');

const tenantFields = {
  name: z.string().trim().min(1).max(120),
  status: z.enum(['active', 'inactive']),
  maxUsers: z.number().int().min(1).max(100_000),
  maxConnections: z.number().int().min(0).max(100_000),
  identity: z.string().trim().max(32).nullable(),
  asaasActive: z.boolean(),
  /** Payment-provider token: write-only, never returned. */
  asaasToken: z.string().max(500).nullable(),
  asaasCustomerId: z.string().max(120).nullable(),
  hideNonOfficial: z.boolean(),
  trial: z.boolean(),
  trialDays: z.number().int().min(0).max(3650),
  blocked: z.boolean(),
  menus: tenantMenusSchema,
  planId: z.number().int().positive().nullable(),
  timezone,
};
const tenantCreate = z.object({ ...tenantFields }).partial().required({ name: true }).strict();
const tenantUpdate = z.object({ ...tenantFields }).partial().strict();

interface TenantRow {
  id: number; status: string; name: string; max_users: number; max_connections: number; identity: string | null;
  asaas_active: boolean; asaas_token: string | null; asaas_customer_id: string | null; hide_non_official: boolean;
  trial: boolean; trial_days: number; trial_ends_at: Date | null; blocked: boolean; menus: Record<string, boolean>;
  plan_id: number | null; timezone: string; terms_accepted_at: Date | null; created_at: Date; updated_at: Date;
}

/** Tenant record as the API answers it (administration.md §3 "Tenant"); the payment token only as a flag. */
export function tenantOut(t: TenantRow) {
  return {
    id: t.id, status: t.status, name: t.name, maxUsers: t.max_users, maxConnections: t.max_connections, identity: t.identity,
    asaasActive: t.asaas_active, asaasTokenSet: !!t.asaas_token, asaasCustomerId: t.asaas_customer_id, hideNonOfficial: t.hide_non_official,
    trial: t.trial, trialDays: t.trial_days, trialEndsAt: t.trial_ends_at?.toISOString() ?? null, blocked: t.blocked,
    menus: { ...DEFAULT_TENANT_MENUS, ...t.menus }, planId: t.plan_id, timezone: t.timezone,
    termsAcceptedAt: t.terms_accepted_at?.toISOString() ?? null, createdAt: t.created_at.toISOString(), updatedAt: t.updated_at.toISOString(),
  };
}

const COLS: Record<string, string> = {
  name: 'name', status: 'status', maxUsers: 'max_users', maxConnections: 'max_connections', identity: 'identity',
  asaasActive: 'asaas_active', asaasToken: 'asaas_token', asaasCustomerId: 'asaas_customer_id', hideNonOfficial: 'hide_non_official',
  trial: 'trial', trialDays: 'trial_days', blocked: 'blocked', planId: 'plan_id', timezone: 'timezone',
};

const planShape = {
  name: z.string().trim().min(1).max(120),
  value: z.number().min(0).max(1_000_000_000),
  users: z.number().int().min(1).max(100_000),
  connections: z.number().int().min(0).max(100_000),
  trial: z.boolean(),
  trialDays: z.number().int().min(0).max(3650),
  active: z.boolean(),
};
const planCreate = z.object({ ...planShape, trial: planShape.trial.default(false), trialDays: planShape.trialDays.default(0), active: planShape.active.default(true) }).strict();
// No defaults here: an update changes only what it names.
const planUpdate = z.object(planShape).partial().strict();

interface PlanRow { id: number; name: string; value: string; users: number; connections: number; trial: boolean; trial_days: number; active: boolean; created_at: Date; updated_at: Date }
const planOut = (p: PlanRow) => ({ id: p.id, name: p.name, value: Number(p.value), users: p.users, connections: p.connections, trial: p.trial, trialDays: p.trial_days, active: p.active, createdAt: p.created_at.toISOString(), updatedAt: p.updated_at.toISOString() });

/** A colour value the shell can put in a CSS variable: hex, rgb(a), hsl(a) or a keyword, nothing that could inject CSS. */
const colourValue = z.string().max(64).regex(/^(#[0-9a-fA-F]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\)|[a-zA-Z]{3,30})$/, 'cor inválida');
const colourList = z.array(z.record(z.string().regex(/^[a-zA-Z][\w-]{0,40}$/, 'nome de cor inválido'), colourValue)).max(100);

/** Erases every expired trial tenant (administration.md §3: "The tenant's data is erased after the trial ends"). Never tenant 1. */
export async function eraseExpiredTrials(kernel: Kernel): Promise<number[]> {
  const due = await kernel.db.pool.query<{ id: number; name: string; trial_ends_at: Date }>(
    `SELECT id, name, trial_ends_at FROM tenants WHERE trial AND trial_ends_at IS NOT NULL AND trial_ends_at <= now() AND id <> $1 ORDER BY id LIMIT 100`,
    [PLATFORM_TENANT_ID],
  );
  const erased: number[] = [];
  for (const t of due.rows) {
    try {
      await endTenantSessions(kernel, t.id, 'trial_expired');
      // Every tenant-owned table references tenants ON DELETE CASCADE, so this erases all of the tenant's data.
      await kernel.db.pool.query('DELETE FROM tenants WHERE id = $1 AND trial AND trial_ends_at <= now()', [t.id]);
      erased.push(t.id);
      kernel.logger.info({ event: 'tenant.trial_erased', tenant: t.id, name: t.name, trialEndedAt: t.trial_ends_at.toISOString() }, 'expired trial tenant erased');
    } catch (err) {
      kernel.logger.error({ tenant: t.id, err: (err as Error).message }, 'could not erase expired trial tenant');
    }
  }
  return erased;
}

export const TRIAL_SWEEP_JOB = 'tenancy.trial_sweep';

export async function tenancyRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pool = kernel.db.pool;
  const superOnly = { config: { access: { menu: 'tenants', profiles: ['superadmin' as const] } } };

  kernel.jobs.define(TRIAL_SWEEP_JOB, async (_data, job) => {
    const erased = await eraseExpiredTrials(kernel);
    job.logger.info({ erased }, 'trial sweep done');
    return { erased };
  }, { concurrency: 1 });
  // Hourly on whichever node takes it; the scheduler key makes every node's call the same schedule.
  await kernel.jobs.schedule(TRIAL_SWEEP_JOB, 'hourly', { pattern: '7 * * * *' }, {}).catch((err) => kernel.logger.warn({ err: (err as Error).message }, 'could not schedule the trial sweep'));

  async function findTenant(id: number): Promise<TenantRow> {
    const t = await pool.query<TenantRow>('SELECT * FROM tenants WHERE id = $1', [id]);
    if (!t.rows[0]) throw new AppError('ERR_NO_TENANT_FOUND');
    return t.rows[0];
  }

  async function planById(id: number): Promise<PlanRow> {
    const p = await pool.query<PlanRow>('SELECT * FROM plans WHERE id = $1', [id]);
    if (!p.rows[0]) throw new AppError('ERR_NOT_FOUND');
    return p.rows[0];
  }

  // ---- tenants (superadmin) ----
  r.get('/api/tenants', { ...superOnly, schema: { operationId: 'listTenants', tags: ['tenants'], summary: 'Lista as empresas', querystring: z.object({ searchParam: z.string().max(120).optional(), status: z.enum(['active', 'inactive']).optional() }), response: { 200: z.array(tenantAnswer) } } }, async (req) => {
    const q = req.query;
    const rows = await pool.query<TenantRow>(
      `SELECT * FROM tenants WHERE ($1::text IS NULL OR name ILIKE '%' || $1 || '%' OR identity ILIKE '%' || $1 || '%') AND ($2::text IS NULL OR status = $2) ORDER BY id`,
      [q.searchParam?.replace(/[%_\\]/g, (c) => `\\${c}`) ?? null, q.status ?? null],
    );
    return rows.rows.map(tenantOut);
  });

  r.get('/api/tenants/:id', { ...superOnly, schema: { operationId: 'getTenant', tags: ['tenants'], summary: 'Mostra uma empresa', params: idParam, response: { 200: tenantAnswer } } }, async (req) => tenantOut(await findTenant(req.params.id)));

  r.post('/api/tenants', { ...superOnly, schema: { operationId: 'createTenant', tags: ['tenants'], summary: 'Cria uma empresa', body: tenantCreate, response: { 201: tenantAnswer } } }, async (req, reply) => {
    const b = req.body;
    if (b.identity && !isValidCpfCnpj(b.identity)) throw new AppError('ERR_INVALID_CPF_CNPJ');
    const plan = b.planId ? await planById(b.planId) : undefined;
    const trial = b.trial ?? plan?.trial ?? false;
    const trialDays = b.trialDays ?? plan?.trial_days ?? 0;
    const t = await pool.query<TenantRow>(
      `INSERT INTO tenants (name, status, max_users, max_connections, identity, asaas_active, asaas_token, asaas_customer_id, hide_non_official,
                            trial, trial_days, trial_ends_at, blocked, menus, plan_id, timezone)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $10::boolean THEN now() + $11::int * interval '1 day' END, $12, $13, $14, $15) RETURNING *`,
      [
        b.name, b.status ?? 'active', b.maxUsers ?? plan?.users ?? 10, b.maxConnections ?? plan?.connections ?? 5, b.identity ?? null,
        b.asaasActive ?? false, b.asaasToken ?? null, b.asaasCustomerId ?? null, b.hideNonOfficial ?? false, trial, trialDays,
        b.blocked ?? false, JSON.stringify({ ...DEFAULT_TENANT_MENUS, ...b.menus }), plan?.id ?? null, b.timezone ?? 'America/Sao_Paulo',
      ],
    );
    req.log.info({ event: 'tenant.created', tenant: t.rows[0].id, by: principalOf(req).userId }, 'tenant created');
    return reply.status(201).send(tenantOut(t.rows[0]));
  });

  r.put('/api/tenants/:id', { ...superOnly, schema: { operationId: 'updateTenant', tags: ['tenants'], summary: 'Altera uma empresa', params: idParam, body: tenantUpdate, response: { 200: tenantAnswer } } }, async (req) => {
    const id = req.params.id;
    const b = req.body;
    const current = await findTenant(id);
    if (id === PLATFORM_TENANT_ID && (b.status === 'inactive' || b.trial === true)) throw new AppError('ERR_PLATFORM_TENANT');
    if (b.identity && !isValidCpfCnpj(b.identity)) throw new AppError('ERR_INVALID_CPF_CNPJ');
    const patch: Record<string, unknown> = { ...b };
    delete patch.menus;
    // Choosing a new plan brings its limits unless the same request sets them explicitly.
    if (b.planId && b.planId !== current.plan_id) {
      const plan = await planById(b.planId);
      patch.maxUsers ??= plan.users;
      patch.maxConnections ??= plan.connections;
    }
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [k, v] of Object.entries(patch)) {
      params.push(v);
      sets.push(`${COLS[k]} = $${params.length}`);
    }
    if (b.menus) {
      params.push(JSON.stringify(b.menus));
      sets.push(`menus = menus || $${params.length}::jsonb`);
    }
    if (b.trial !== undefined || b.trialDays !== undefined) {
      params.push(b.trial ?? current.trial, b.trialDays ?? current.trial_days);
      sets.push(`trial_ends_at = CASE WHEN $${params.length - 1}::boolean THEN created_at + $${params.length}::int * interval '1 day' END`);
    }
    if (!sets.length) return tenantOut(current);
    params.push(id);
    const t = await pool.query<TenantRow>(`UPDATE tenants SET ${sets.join(', ')}, updated_at = now() WHERE id = $${params.length} RETURNING *`, params);
    if (b.status === 'inactive' && current.status !== 'inactive') {
      // Spec §4: an inactive tenant's users are warned and logged out: sessions revoked, sockets closed.
      await endTenantSessions(kernel, id, 'tenant_inactive');
      req.log.info({ event: 'tenant.deactivated', tenant: id, by: principalOf(req).userId }, 'tenant deactivated: sessions ended');
    }
    await kernel.bus.publish({ tenantId: id, event: 'tenant.updated', data: { id, status: t.rows[0].status, blocked: t.rows[0].blocked, menus: tenantOut(t.rows[0]).menus } });
    return tenantOut(t.rows[0]);
  });

  r.delete('/api/tenants/:id', { ...superOnly, schema: { operationId: 'deleteTenant', tags: ['tenants'], summary: 'Exclui uma empresa e todos os seus dados', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    const id = req.params.id;
    if (id === PLATFORM_TENANT_ID) throw new AppError('ERR_PLATFORM_TENANT');
    await findTenant(id);
    await endTenantSessions(kernel, id, 'tenant_deleted');
    await pool.query('DELETE FROM tenants WHERE id = $1', [id]);
    req.log.info({ event: 'tenant.deleted', tenant: id, by: principalOf(req).userId }, 'tenant deleted');
    return reply.status(204).send(null);
  });

  // ---- terms of use (install-wide; only the superadmin accepts) ----
  r.get('/api/tenants/terms', { schema: { operationId: 'getTerms', tags: ['tenants'], summary: 'Termos de uso da instalação e se foram aceitos', response: { 200: termsAnswer } } }, async () => {
    const t = await pool.query<{ terms_accepted_at: Date | null }>('SELECT terms_accepted_at FROM tenants WHERE id = $1', [PLATFORM_TENANT_ID]);
    const at = t.rows[0]?.terms_accepted_at ?? null;
    return { accepted: !!at, acceptedAt: at?.toISOString() ?? null, version: TERMS_VERSION, text: TERMS_TEXT };
  });

  r.post('/api/tenants/terms/accept', { schema: { operationId: 'acceptTerms', tags: ['tenants'], summary: 'Aceita os termos de uso (somente o superadmin)', response: { 200: termsAcceptedAnswer } } }, async (req) => {
    const who = principalOf(req);
    if (who.profile !== 'superadmin' || who.apiToken) throw new AppError('ERR_TERMS_SUPERADMIN_ONLY');
    const t = await pool.query<{ terms_accepted_at: Date }>(
      'UPDATE tenants SET terms_accepted_at = COALESCE(terms_accepted_at, now()) WHERE id = $1 RETURNING terms_accepted_at',
      [PLATFORM_TENANT_ID],
    );
    req.log.info({ event: 'terms.accepted', user: who.userId }, 'terms of use accepted');
    return { accepted: true as const, acceptedAt: t.rows[0].terms_accepted_at.toISOString(), version: TERMS_VERSION };
  });

  // ---- appearance colours ----
  r.get('/api/tenants/systemColors', { schema: { operationId: 'getSystemColors', tags: ['tenants'], summary: 'Cores da aparência da empresa', response: { 200: systemColorsAnswer } } }, async (req) => {
    const t = await pool.query<{ system_colors: Record<string, string>[] }>('SELECT system_colors FROM tenants WHERE id = $1', [principalOf(req).tenantId]);
    return t.rows[0]?.system_colors ?? [];
  });
  r.put('/api/tenants/systemColors', { config: { access: { menu: 'settings', profiles: ['admin'] } }, schema: { operationId: 'updateSystemColors', tags: ['tenants'], summary: 'Altera as cores da aparência da empresa', body: colourList, response: { 200: systemColorsAnswer } } }, async (req) => {
    const t = await pool.query<{ system_colors: Record<string, string>[] }>('UPDATE tenants SET system_colors = $2, updated_at = now() WHERE id = $1 RETURNING system_colors', [principalOf(req).tenantId, JSON.stringify(req.body)]);
    await kernel.bus.publish({ tenantId: principalOf(req).tenantId, event: 'tenant.colors_updated', data: t.rows[0].system_colors });
    return t.rows[0].system_colors;
  });
  /**
   * Public (the login page themes itself before anyone logs in): the caller's
   * tenant colours when a valid token comes along, otherwise, or when the
   * tenant has none, the platform tenant's. No tenant id is taken from input.
   */
  r.get('/api/publicSystemColors', { config: { access: { public: true } }, schema: { operationId: 'getPublicSystemColors', tags: ['tenants'], summary: 'Cores da aparência para a tela de login', response: { 200: systemColorsAnswer } } }, async (req) => {
    let tenantId = PLATFORM_TENANT_ID;
    const token = bearer(req);
    if (token && !token.startsWith('atk_')) tenantId = await authenticate(app, token).then((w) => w.tenantId, () => PLATFORM_TENANT_ID);
    const t = await pool.query<{ id: number; system_colors: Record<string, string>[] }>('SELECT id, system_colors FROM tenants WHERE id IN ($1, $2)', [tenantId, PLATFORM_TENANT_ID]);
    const own = t.rows.find((x) => x.id === tenantId)?.system_colors ?? [];
    return own.length ? own : (t.rows.find((x) => x.id === PLATFORM_TENANT_ID)?.system_colors ?? []);
  });

  // ---- settings ----
  /** Any user of the tenant reads the settings (the shell needs its flags); admins change them. */
  r.get('/api/settings', { schema: { operationId: 'getSettings', tags: ['settings'], summary: 'Configurações da empresa', response: { 200: settingsSchema } } }, async (req) => loadSettings(pool, principalOf(req).tenantId));
  r.put('/api/settings', { config: { access: { menu: 'settings', profiles: ['admin'] } }, schema: { operationId: 'updateSettings', tags: ['settings'], summary: 'Altera configurações da empresa', body: settingsUpdateSchema, response: { 200: settingsSchema } } }, async (req) => {
    const tenantId = principalOf(req).tenantId;
    if (tenantId !== PLATFORM_TENANT_ID && Object.keys(req.body).some((k) => PLATFORM_ONLY_SETTINGS.has(k))) throw new AppError('ERR_NO_PERMISSION');
    const next = await updateSettings(pool, tenantId, req.body);
    await kernel.bus.publish({ tenantId, event: 'settings.updated', data: req.body });
    return next;
  });

  // ---- plans ----
  const plansAccess = { config: { access: { menu: 'plans', profiles: ['superadmin' as const] } } };
  r.get('/api/plans/public', { config: { access: { public: true } }, schema: { operationId: 'listPublicPlans', tags: ['plans'], summary: 'Planos ativos, para o cadastro', response: { 200: z.array(publicPlanAnswer) } } }, async () => {
    const rows = await pool.query<PlanRow>('SELECT * FROM plans WHERE active ORDER BY value, id');
    return rows.rows.map((p) => ({ id: p.id, name: p.name, value: Number(p.value), users: p.users, connections: p.connections, trial: p.trial, trialDays: p.trial_days }));
  });
  r.get('/api/plans', { ...plansAccess, schema: { operationId: 'listPlans', tags: ['plans'], summary: 'Lista os planos', response: { 200: z.array(planAnswer) } } }, async () => (await pool.query<PlanRow>('SELECT * FROM plans ORDER BY id')).rows.map(planOut));
  r.get('/api/plans/:id', { ...plansAccess, schema: { operationId: 'getPlan', tags: ['plans'], summary: 'Mostra um plano', params: idParam, response: { 200: planAnswer } } }, async (req) => planOut(await planById(req.params.id)));
  r.post('/api/plans', { ...plansAccess, schema: { operationId: 'createPlan', tags: ['plans'], summary: 'Cria um plano', body: planCreate, response: { 201: planAnswer } } }, async (req, reply) => {
    const b = req.body;
    const p = await pool.query<PlanRow>(
      'INSERT INTO plans (name, value, users, connections, trial, trial_days, active) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
      [b.name, b.value, b.users, b.connections, b.trial, b.trialDays, b.active],
    );
    return reply.status(201).send(planOut(p.rows[0]));
  });
  r.put('/api/plans/:id', { ...plansAccess, schema: { operationId: 'updatePlan', tags: ['plans'], summary: 'Altera um plano', params: idParam, body: planUpdate, response: { 200: planAnswer } } }, async (req) => {
    const cur = await planById(req.params.id);
    const b = req.body;
    const p = await pool.query<PlanRow>(
      `UPDATE plans SET name = $2, value = $3, users = $4, connections = $5, trial = $6, trial_days = $7, active = $8, updated_at = now() WHERE id = $1 RETURNING *`,
      [cur.id, b.name ?? cur.name, b.value ?? cur.value, b.users ?? cur.users, b.connections ?? cur.connections, b.trial ?? cur.trial, b.trialDays ?? cur.trial_days, b.active ?? cur.active],
    );
    return planOut(p.rows[0]);
  });
  /** Tenants on a deleted plan keep their limits; only the link is cleared. */
  r.delete('/api/plans/:id', { ...plansAccess, schema: { operationId: 'deletePlan', tags: ['plans'], summary: 'Exclui um plano', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    const d = await pool.query('DELETE FROM plans WHERE id = $1', [req.params.id]);
    if (!d.rowCount) throw new AppError('ERR_NOT_FOUND');
    return reply.status(204).send(null);
  });

  await apiTokenRoutes(app, kernel);
}
