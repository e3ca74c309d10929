import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import type { Profile } from '../../sdk/types.ts';
import { hashPassword, isStrongPassword, verifyPassword } from './passwords.ts';
import { loginSlots, noticeAddressInUse, throttleOf } from './auth-routes.ts';
import { endUserSessions } from './sessions.ts';
import { isValidEmail, normalizeEmail } from './validation.ts';
import { PLATFORM_TENANT_ID } from './bootstrap.ts';
import { menuAllowed } from '../access/menus.ts';
import { principalOf } from '../../sdk/http.ts';
import { userAnswer, userPage, userPublicAnswer } from './schemas.ts';

const PAGE_SIZE = 40;
const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ids = z.array(z.number().int().positive().max(2_147_483_647)).max(500);
const configsSchema = z
  .object({
    isDark: z.boolean().optional(),
    filtrosAtendimento: z.record(z.string().max(60), z.unknown()).optional(),
    /** Sound on new tickets and messages (the user menu's switch); on unless turned off. */
    sounds: z.boolean().optional(),
    /** Desktop notifications while the page is in the background, once the browser allows them; on unless turned off. */
    desktopNotifications: z.boolean().optional(),
  })
  .strict()
  .refine((c) => JSON.stringify(c).length <= 20_000, 'configurações grandes demais');

const userFields = {
  name: z.string().trim().min(1).max(120),
  email: z.string().trim().max(254),
  password: z.string().max(200),
  /** Required when users change their own password (X1-10): a stolen session alone cannot take the account. */
  currentPassword: z.string().max(500),
  profile: z.enum(['user', 'super', 'admin', 'superadmin']),
  queues: ids,
  whatsappAllowed: ids,
  blockWavoip: z.boolean(),
  menus: z.record(z.string().max(40), z.boolean()),
  configs: configsSchema,
  active: z.boolean(),
};
const createBody = z.object(userFields).omit({ currentPassword: true }).partial().required({ name: true, email: true, password: true }).strict();
const updateBody = z.object(userFields).partial().strict();
const listQuery = z.object({ searchParam: z.string().max(120).optional(), pageNumber: z.coerce.number().int().min(1).max(100_000).default(1) });

type CreateInput = z.infer<typeof createBody>;
type UpdateInput = z.infer<typeof updateBody>;

export interface UserRow {
  id: number; tenant_id: number; name: string; email: string; profile: Profile; queues: number[]; whatsapp_allowed: number[];
  is_online: boolean; block_wavoip: boolean; menus: Record<string, boolean>; configs: Record<string, unknown>; active: boolean;
  last_seen_at: Date | null; created_at: Date; updated_at: Date; tenant_name?: string;
}

/** A user as admins see it (spec core.md §3 "User"); never the password hash. */
export const userOut = (u: UserRow) => ({
  id: u.id, tenantId: u.tenant_id, name: u.name, email: u.email, profile: u.profile, queues: u.queues, whatsappAllowed: u.whatsapp_allowed,
  isOnline: u.is_online, blockWavoip: u.block_wavoip, menus: u.menus, configs: u.configs, active: u.active,
  lastSeenAt: u.last_seen_at?.toISOString() ?? null, createdAt: u.created_at.toISOString(), updatedAt: u.updated_at.toISOString(),
  ...(u.tenant_name !== undefined ? { tenantName: u.tenant_name } : {}),
});
/** What any colleague sees (transfer dialogs, private chat): no email, menus or configs. */
const userPublic = (u: UserRow) => ({ id: u.id, name: u.name, profile: u.profile, queues: u.queues, isOnline: u.is_online, lastSeenAt: u.last_seen_at?.toISOString() ?? null });

const COLS = `u.id, u.tenant_id, u.name, u.email, u.profile, u.queues, u.whatsapp_allowed, u.is_online, u.block_wavoip, u.menus, u.configs, u.active, u.last_seen_at, u.created_at, u.updated_at`;
const like = (s: string | undefined) => (s ? `%${s.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null);

/**
 * Ids that a user record points at in other modules (queues, channels) must
 * belong to the same tenant: another tenant's id is answered as not found.
 * The check runs once the owning module's table exists.
 */
async function assertOwned(db: pg.Pool | pg.PoolClient, table: 'queues' | 'channels', tenantId: number, list: number[] | undefined): Promise<void> {
  if (!list?.length) return;
  const exists = await db.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`public.${table}`]);
  if (!exists.rows[0].t) return;
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1 AND id = ANY($2::int[])`, [tenantId, [...new Set(list)]]);
  if (r.rows[0].n !== new Set(list).size) throw new AppError('ERR_NOT_FOUND');
}

export async function userRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pool = kernel.db.pool;
  const toggles = () => new Set([...kernel.menus.values()].map((m) => m.userMenu).filter((x): x is string => !!x));

  function checkMenus(menus: Record<string, boolean> | undefined) {
    if (!menus) return;
    const known = toggles();
    const bad = Object.keys(menus).filter((k) => !known.has(k));
    if (bad.length) throw new AppError('ERR_VALIDATION', { details: `menus desconhecidos: ${bad.join(', ')}` });
  }

  async function publish(tenantId: number, event: string, u: UserRow) {
    await kernel.bus.publish({ tenantId, event, data: userPublic(u) });
  }

  async function findUser(tenantId: number, id: number, db: pg.Pool | pg.PoolClient = pool): Promise<UserRow> {
    const u = await db.query<UserRow>(`SELECT ${COLS} FROM users u WHERE u.id = $1 AND u.tenant_id = $2`, [id, tenantId]);
    if (!u.rows[0]) throw new AppError('ERR_NO_USER_FOUND');
    return u.rows[0];
  }

  /** Active admins (superadmins count, they administer tenant 1) other than `exceptId`. */
  async function otherActiveAdmins(db: pg.Pool | pg.PoolClient, tenantId: number, exceptId: number): Promise<number> {
    const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE tenant_id = $1 AND id <> $2 AND active AND profile IN ('admin','superadmin')`, [tenantId, exceptId]);
    return r.rows[0].n;
  }

  /**
   * Runs a user insert or update that sets an address; when another tenant's login holds the address,
   * runs it again with the row flagged (X1-13), so the admin gets the same answer as for a free address
   * and learns nothing about other tenants. An address taken in the same tenant stays ERR_EMAIL_IN_USE.
   */
  async function heldElsewhereRetry(client: pg.PoolClient, run: (held: boolean) => Promise<pg.QueryResult<UserRow>>): Promise<{ rows: UserRow[]; held: boolean }> {
    await client.query('SAVEPOINT set_email');
    try {
      return { rows: (await run(false)).rows, held: false };
    } catch (err) {
      if ((err as { constraint?: string }).constraint !== 'users_email_key') throw err;
      await client.query('ROLLBACK TO SAVEPOINT set_email');
      return { rows: (await run(true)).rows, held: true };
    }
  }

  /** Creates a user under the tenant's user limit; the tenant row lock makes concurrent creations respect it. */
  async function createUser(req: FastifyRequest, tenantId: number, b: CreateInput): Promise<UserRow> {
    const actor = principalOf(req);
    const profile = b.profile ?? 'user';
    if (profile === 'superadmin' && (actor.profile !== 'superadmin' || tenantId !== PLATFORM_TENANT_ID)) throw new AppError('ERR_NO_PERMISSION');
    const email = normalizeEmail(b.email);
    if (!isValidEmail(email)) throw new AppError('ERR_INVALID_EMAIL');
    if (!isStrongPassword(b.password)) throw new AppError('ERR_WEAK_PASSWORD');
    checkMenus(b.menus);
    const passwordHash = await hashPassword(b.password);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const t = await client.query<{ max_users: number }>('SELECT max_users FROM tenants WHERE id = $1 FOR UPDATE', [tenantId]);
      if (!t.rows[0]) throw new AppError('ERR_NO_TENANT_FOUND');
      const n = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE tenant_id = $1', [tenantId]);
      if (n.rows[0].n >= t.rows[0].max_users) throw new AppError('ERR_USER_LIMIT');
      await assertOwned(client, 'queues', tenantId, b.queues);
      await assertOwned(client, 'channels', tenantId, b.whatsappAllowed);
      const insert = (held: boolean) => client.query<UserRow>(
        `INSERT INTO users AS u (tenant_id, name, email, password_hash, profile, queues, whatsapp_allowed, block_wavoip, menus, configs, active, email_held_elsewhere)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${COLS}`,
        [tenantId, b.name, email, passwordHash, profile, JSON.stringify(b.queues ?? []), JSON.stringify(b.whatsappAllowed ?? []), b.blockWavoip ?? false, JSON.stringify(b.menus ?? {}), JSON.stringify(b.configs ?? {}), b.active ?? true, held],
      );
      const u = await heldElsewhereRetry(client, insert);
      await client.query('COMMIT');
      if (u.held) await noticeAddressInUse(kernel, email, 'user').catch((err) => req.log.warn({ err: (err as Error).message }, 'address-in-use notice not queued'));
      req.log.info({ event: 'user.created', user: u.rows[0].id, tenant: tenantId, by: actor.userId }, 'user created');
      await publish(tenantId, 'user.created', u.rows[0]);
      return u.rows[0];
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((err as { code?: string }).code === '23505') throw new AppError('ERR_EMAIL_IN_USE');
      throw err;
    } finally {
      client.release();
    }
  }

  async function checkCurrentPassword(req: FastifyRequest, id: number, given: string | undefined): Promise<void> {
    const row = (await pool.query<{ email: string; password_hash: string }>('SELECT lower(email) AS email, password_hash FROM users WHERE id = $1', [id])).rows[0];
    if (!row) throw new AppError('ERR_NO_USER_FOUND');
    const [fromHere, anySource] = loginSlots(row.email, req.ip);
    const throttle = throttleOf(kernel);
    const lock = await throttle.reserve([fromHere, anySource]);
    if (lock) throw new AppError('ERR_LIMIT_MAX');
    if (!given || !(await verifyPassword(row.password_hash, given))) {
      await throttle.settle([fromHere, anySource]);
      req.log.warn({ event: 'user.password_change_refused', user: id, ip: req.ip }, 'own password change with a wrong current password');
      throw new AppError('ERR_CURRENT_PASSWORD');
    }
    await throttle.release([fromHere.key, anySource.key]);
  }

  /** Updates a user. An admin (or the superadmin) may change anything; a user only their own name and password. */
  async function updateUser(req: FastifyRequest, tenantId: number, id: number, b: UpdateInput, asAdmin: boolean): Promise<UserRow> {
    const actor = principalOf(req);
    const self = actor.userId === id && tenantId === actor.tenantId;
    if (!asAdmin) {
      if (!self) throw new AppError('ERR_NO_PERMISSION');
      const allowed = new Set(['name', 'password', 'currentPassword', 'configs']);
      if (Object.keys(b).some((k) => !allowed.has(k))) throw new AppError('ERR_NO_PERMISSION');
    }
    // Changing one's own password takes the current one, whatever the profile (X1-10). Wrong guesses
    // count against the login throttle of that account and source, so this is no side door for guessing.
    if (self && b.password !== undefined) await checkCurrentPassword(req, id, b.currentPassword);
    const client = await pool.connect();
    let passwordChanged = false;
    let disabled = false;
    let u: UserRow;
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM tenants WHERE id = $1 FOR UPDATE', [tenantId]);
      const cur = await findUser(tenantId, id, client);
      if (cur.profile === 'superadmin' && actor.profile !== 'superadmin') throw new AppError('ERR_NO_PERMISSION');
      if (b.profile === 'superadmin' && (actor.profile !== 'superadmin' || tenantId !== PLATFORM_TENANT_ID)) throw new AppError('ERR_NO_PERMISSION');
      const wasAdmin = cur.active && (cur.profile === 'admin' || cur.profile === 'superadmin');
      const staysAdmin = (b.active ?? cur.active) && ['admin', 'superadmin'].includes(b.profile ?? cur.profile);
      if (wasAdmin && !staysAdmin && (await otherActiveAdmins(client, tenantId, id)) === 0) throw new AppError('ERR_LAST_ADMIN');
      checkMenus(b.menus);
      await assertOwned(client, 'queues', tenantId, b.queues);
      await assertOwned(client, 'channels', tenantId, b.whatsappAllowed);
      const sets: string[] = [];
      const params: unknown[] = [];
      let heldParam = -1;
      const set = (col: string, v: unknown, cast = '') => {
        params.push(v);
        sets.push(`${col} = $${params.length}${cast}`);
      };
      if (b.name !== undefined) set('name', b.name);
      if (b.email !== undefined) {
        const email = normalizeEmail(b.email);
        if (!isValidEmail(email)) throw new AppError('ERR_INVALID_EMAIL');
        set('email', email);
        // Flipped to true below when another tenant holds the address (X1-13).
        set('email_held_elsewhere', false);
        heldParam = params.length - 1;
      }
      if (b.password !== undefined) {
        if (!isStrongPassword(b.password)) throw new AppError('ERR_WEAK_PASSWORD');
        set('password_hash', await hashPassword(b.password));
        passwordChanged = true;
      }
      if (b.profile !== undefined) set('profile', b.profile);
      if (b.queues !== undefined) set('queues', JSON.stringify(b.queues), '::jsonb');
      if (b.whatsappAllowed !== undefined) set('whatsapp_allowed', JSON.stringify(b.whatsappAllowed), '::jsonb');
      if (b.blockWavoip !== undefined) set('block_wavoip', b.blockWavoip);
      if (b.menus !== undefined) set('menus', JSON.stringify(b.menus), '::jsonb');
      if (b.configs !== undefined) {
        params.push(JSON.stringify(b.configs));
        sets.push(`configs = configs || $${params.length}::jsonb`);
      }
      if (b.active !== undefined) {
        set('active', b.active);
        disabled = cur.active && !b.active;
      }
      if (!sets.length) {
        await client.query('COMMIT');
        return cur;
      }
      params.push(id, tenantId);
      const update = (held: boolean) => {
        if (heldParam >= 0) params[heldParam] = held;
        return client.query<UserRow>(`UPDATE users AS u SET ${sets.join(', ')}, updated_at = now() WHERE u.id = $${params.length - 1} AND u.tenant_id = $${params.length} RETURNING ${COLS}`, params);
      };
      const res = heldParam >= 0 ? await heldElsewhereRetry(client, update) : { rows: (await update(false)).rows, held: false };
      u = res.rows[0];
      await client.query('COMMIT');
      if (res.held) await noticeAddressInUse(kernel, normalizeEmail(b.email!), 'user').catch((err) => req.log.warn({ err: (err as Error).message }, 'address-in-use notice not queued'));
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((err as { code?: string }).code === '23505') throw new AppError('ERR_EMAIL_IN_USE');
      throw err;
    } finally {
      client.release();
    }
    // Sessions end after the commit, so a socket that reconnects at once already meets the disabled user.
    if (disabled) await endUserSessions(kernel, tenantId, id, 'user_disabled', { bumpVersion: true });
    // A new password ends the other sessions; the user changing their own keeps the one they are using.
    else if (passwordChanged) await endUserSessions(kernel, tenantId, id, 'password_changed', self ? { except: req.principal?.sid } : { bumpVersion: true });
    if (disabled) req.log.info({ event: 'user.disabled', user: id, tenant: tenantId, by: actor.userId }, 'user disabled: sessions ended');
    req.log.info({ event: 'user.updated', user: id, tenant: tenantId, by: actor.userId, fields: Object.keys(b).filter((k) => k !== 'password' && k !== 'currentPassword') }, 'user updated');
    await publish(tenantId, 'user.updated', u);
    return u;
  }

  /** Deletes a user: never oneself, never the last active admin ('Não é possível deletar o usuário'). */
  async function deleteUser(req: FastifyRequest, tenantId: number, id: number): Promise<void> {
    const actor = principalOf(req);
    if (actor.userId === id && actor.tenantId === tenantId) throw new AppError('ERR_DELETE_USER');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM tenants WHERE id = $1 FOR UPDATE', [tenantId]);
      const cur = await findUser(tenantId, id, client);
      if (cur.profile === 'superadmin' && actor.profile !== 'superadmin') throw new AppError('ERR_NO_PERMISSION');
      const isAdmin = cur.active && (cur.profile === 'admin' || cur.profile === 'superadmin');
      if (isAdmin && (await otherActiveAdmins(client, tenantId, id)) === 0) throw new AppError('ERR_DELETE_USER');
      await client.query('DELETE FROM users WHERE id = $1 AND tenant_id = $2', [id, tenantId]);
      await client.query('COMMIT');
      await kernel.realtime.endSessions(tenantId, { userId: id });
      req.log.info({ event: 'user.deleted', user: id, tenant: tenantId, by: actor.userId }, 'user deleted: sessions ended');
      await kernel.bus.publish({ tenantId, event: 'user.deleted', data: { id } });
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  const isAdmin = (req: FastifyRequest) => {
    const p = req.access!;
    return p.profile === 'admin' || p.profile === 'superadmin';
  };
  const usersMenu = { config: { access: { menu: 'users', profiles: ['admin' as const] } } };

  // ---- users of the caller's tenant ----
  /** Admins get full records; other users a colleague view (they need names for transfers and chat). */
  r.get('/api/users', { schema: { operationId: 'listUsers', tags: ['users'], summary: 'Lista os usuários da empresa (colegas veem só nome, perfil e filas)', querystring: listQuery, response: { 200: userPage(z.union([userAnswer, userPublicAnswer])) } } }, async (req) => {
    const tenantId = principalOf(req).tenantId;
    const q = req.query;
    // Only admins search by e-mail: for anyone else a match on a guessed address would tell it (the colleague view has no e-mail).
    const admin = isAdmin(req);
    const rows = await pool.query<UserRow & { total: number }>(
      `SELECT ${COLS}, count(*) OVER ()::int AS total FROM users u
        WHERE u.tenant_id = $1 AND ($2::text IS NULL OR u.name ILIKE $2 OR ($5 AND u.email ILIKE $2))
        ORDER BY u.name, u.id LIMIT $3 OFFSET $4`,
      [tenantId, like(q.searchParam), PAGE_SIZE, (q.pageNumber - 1) * PAGE_SIZE, admin],
    );
    const count = rows.rows[0]?.total ?? 0;
    return { users: rows.rows.map(admin ? userOut : userPublic), count, hasMore: count > q.pageNumber * PAGE_SIZE };
  });

  /** Users of the tenant for the private chat (everyone but the caller). */
  r.get('/api/users/chat-privado', { config: { access: { menu: 'chat' } }, schema: { operationId: 'listChatUsers', tags: ['users'], summary: 'Usuários para o chat interno', querystring: listQuery, response: { 200: userPage(userPublicAnswer) } } }, async (req) => {
    const p = principalOf(req);
    const q = req.query;
    const rows = await pool.query<UserRow & { total: number }>(
      `SELECT ${COLS}, count(*) OVER ()::int AS total FROM users u
        WHERE u.tenant_id = $1 AND u.id <> $2 AND u.active AND ($3::text IS NULL OR u.name ILIKE $3)
        ORDER BY u.is_online DESC, u.name, u.id LIMIT $4 OFFSET $5`,
      [p.tenantId, p.userId, like(q.searchParam), PAGE_SIZE, (q.pageNumber - 1) * PAGE_SIZE],
    );
    const count = rows.rows[0]?.total ?? 0;
    return { users: rows.rows.map(userPublic), count, hasMore: count > q.pageNumber * PAGE_SIZE };
  });

  /** One user: admins any of their tenant, others only themselves (the shell refreshes the current user every 30 s). */
  r.get('/api/users/:id', { schema: { operationId: 'getUser', tags: ['users'], summary: 'Mostra um usuário', params: idParam, response: { 200: userAnswer } } }, async (req) => {
    const p = principalOf(req);
    const u = await findUser(p.tenantId, req.params.id);
    if (!isAdmin(req) && u.id !== p.userId) throw new AppError('ERR_NO_PERMISSION');
    return userOut(u);
  });

  r.post('/api/users', { ...usersMenu, schema: { operationId: 'createUser', tags: ['users'], summary: 'Cria um usuário', body: createBody, response: { 201: userAnswer } } }, async (req, reply) => reply.status(201).send(userOut(await createUser(req, principalOf(req).tenantId, req.body))));

  r.put('/api/users/:id', { schema: { operationId: 'updateUser', tags: ['users'], summary: 'Altera um usuário (o próprio usuário só nome, senha e preferências)', params: idParam, body: updateBody, response: { 200: userAnswer } } }, async (req) => {
    const p = req.access!;
    // Editing someone else is the users screen: admin profile and the users menu.
    const usersDef = kernel.menus.get('users');
    const asAdmin = isAdmin(req) && !!usersDef && menuAllowed(usersDef, p);
    return userOut(await updateUser(req, p.tenantId, req.params.id, req.body, asAdmin));
  });

  r.delete('/api/users/:id', { ...usersMenu, schema: { operationId: 'deleteUser', tags: ['users'], summary: 'Exclui um usuário', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    await deleteUser(req, principalOf(req).tenantId, req.params.id);
    return reply.status(204).send(null);
  });

  r.put('/api/usersIsOnline/:id', { schema: { operationId: 'setUserOnline', tags: ['users'], summary: 'Marca o usuário como online ou offline', params: idParam, body: z.object({ isOnline: z.boolean() }).strict(), response: { 200: z.object({ id: z.number().int(), isOnline: z.boolean() }) } } }, async (req) => {
    const p = principalOf(req);
    const u = await findUser(p.tenantId, req.params.id);
    if (u.id !== p.userId && !isAdmin(req)) throw new AppError('ERR_NO_PERMISSION');
    await pool.query('UPDATE users SET is_online = $2, last_seen_at = now() WHERE id = $1', [u.id, req.body.isOnline]);
    await kernel.bus.publish({ tenantId: p.tenantId, event: 'user.status_updated', data: { id: u.id, isOnline: req.body.isOnline } });
    return { id: u.id, isOnline: req.body.isOnline };
  });

  /** The user's own interface preferences (theme, ticket filters): only the user themselves. */
  r.put('/api/users/:id/configs', { schema: { operationId: 'updateUserConfigs', tags: ['users'], summary: 'Altera as preferências de interface do próprio usuário', params: idParam, body: configsSchema, response: { 200: z.object({ id: z.number().int(), configs: userAnswer.shape.configs }) } } }, async (req) => {
    const p = principalOf(req);
    const u = await findUser(p.tenantId, req.params.id);
    if (u.id !== p.userId) throw new AppError('ERR_NO_PERMISSION');
    const res = await pool.query<{ configs: Record<string, unknown> }>('UPDATE users SET configs = configs || $2::jsonb, updated_at = now() WHERE id = $1 RETURNING configs', [u.id, JSON.stringify(req.body)]);
    return { id: u.id, configs: res.rows[0].configs };
  });

  // ---- users across tenants (superadmin, /usuariotenants) ----
  const acrossTenants = { config: { access: { menu: 'userTenants', profiles: ['superadmin' as const] } } };
  const withTenant = z.object({ tenantId: z.number().int().positive().max(2_147_483_647) });

  async function tenantOfUser(id: number, expected?: number): Promise<number> {
    const r2 = await pool.query<{ tenant_id: number }>('SELECT tenant_id FROM users WHERE id = $1', [id]);
    const tid = r2.rows[0]?.tenant_id;
    if (tid === undefined || (expected !== undefined && expected !== tid)) throw new AppError('ERR_NO_USER_FOUND');
    return tid;
  }

  r.get('/api/userTenants', { ...acrossTenants, schema: { operationId: 'listUsersAcrossTenants', tags: ['userTenants'], summary: 'Lista usuários de todas as empresas', querystring: listQuery.extend({ tenantId: z.coerce.number().int().positive().optional() }), response: { 200: userPage(userAnswer) } } }, async (req) => {
    const q = req.query;
    const rows = await pool.query<UserRow & { total: number }>(
      `SELECT ${COLS}, t.name AS tenant_name, count(*) OVER ()::int AS total FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE ($1::int IS NULL OR u.tenant_id = $1) AND ($2::text IS NULL OR u.name ILIKE $2 OR u.email ILIKE $2 OR t.name ILIKE $2)
        ORDER BY u.tenant_id, u.name, u.id LIMIT $3 OFFSET $4`,
      [q.tenantId ?? null, like(q.searchParam), PAGE_SIZE, (q.pageNumber - 1) * PAGE_SIZE],
    );
    const count = rows.rows[0]?.total ?? 0;
    return { users: rows.rows.map(userOut), count, hasMore: count > q.pageNumber * PAGE_SIZE };
  });

  r.post('/api/userTenants', { ...acrossTenants, schema: { operationId: 'createUserInTenant', tags: ['userTenants'], summary: 'Cria um usuário em uma empresa', body: createBody.extend(withTenant.shape), response: { 201: userAnswer } } }, async (req, reply) => {
    const { tenantId, ...body } = req.body;
    return reply.status(201).send(userOut(await createUser(req, tenantId, body)));
  });

  /** `tenantId` in the body, when sent, must be the user's tenant: users are not moved between tenants. */
  r.put('/api/userTenants/:id', { ...acrossTenants, schema: { operationId: 'updateUserInTenant', tags: ['userTenants'], summary: 'Altera um usuário de qualquer empresa', params: idParam, body: updateBody.extend({ tenantId: withTenant.shape.tenantId.optional() }), response: { 200: userAnswer } } }, async (req) => {
    const { tenantId, ...body } = req.body;
    const tid = await tenantOfUser(req.params.id, tenantId);
    return userOut(await updateUser(req, tid, req.params.id, body, true));
  });

  r.delete('/api/userTenants/:id', { ...acrossTenants, schema: { operationId: 'deleteUserInTenant', tags: ['userTenants'], summary: 'Exclui um usuário de qualquer empresa', params: idParam, body: withTenant.strict(), response: { 204: z.null() } } }, async (req, reply) => {
    const tid = await tenantOfUser(req.params.id, req.body.tenantId);
    await deleteUser(req, tid, req.params.id);
    return reply.status(204).send(null);
  });
}
