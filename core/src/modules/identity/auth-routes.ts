import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import type { Profile } from '../../sdk/types.ts';
import { dummyHash, hashPassword, isStrongPassword, verifyPassword } from './passwords.ts';
import { endUserSessions, openSession, revokeSession, rotateRefresh, type IssuedTokens } from './sessions.ts';
import { hashToken, installSecret, newOpaqueToken } from './tokens.ts';
import { Captcha, CAPTCHA_HEIGHT, CAPTCHA_WIDTH } from './captcha.ts';
import { PgThrottle, RedisThrottle, type ThrottlePort } from './throttle.ts';
import { isValidCpfCnpj, isValidEmail, normalizeEmail } from './validation.ts';
import { mailerOf } from '../mail/routes.ts';
import { PLATFORM_TENANT_ID } from './bootstrap.ts';

/** Login throttle (docs/reliability.md R8, docs/access.md): failures per account and per IP within a minute, then a one-minute lock. */
export const LOGIN_LIMITS = { perAccount: 5, perIp: 20, windowMs: 60_000, lockMs: 60_000 } as const;
/** Reset mails per address (against mail bombing) and signups per IP. */
const RESET_LIMIT = { perAccount: 3, windowMs: 15 * 60_000 };
const SIGNUP_LIMIT = { perIp: 10, windowMs: 3600_000 };
export const RESET_TTL_MS = 3600_000;
export const PASSWORD_RESET_JOB = 'identity.password_reset_mail';

const VERSION = (() => {
  try {
    return (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

interface LoginRow {
  id: number; tenant_id: number; name: string; email: string; password_hash: string; profile: Profile; queues: number[];
  whatsapp_allowed: number[]; block_wavoip: boolean; configs: Record<string, unknown>; active: boolean; token_version: number; tenant_status: string;
}

/** The session record of spec core.md §3, as login and refresh answer it. */
function sessionRecord(u: Omit<LoginRow, 'password_hash' | 'active' | 'tenant_status'>, t: IssuedTokens) {
  return {
    token: t.token, refreshToken: t.refreshToken, expiresIn: t.expiresIn,
    username: u.name, profile: u.profile, userId: u.id, tenantId: u.tenant_id, queues: u.queues,
    blockWavoip: u.block_wavoip, whatsappAllowed: u.whatsapp_allowed, email: u.email, configs: u.configs,
  };
}

const USER_COLS = `u.id, u.tenant_id, u.name, u.email, u.profile, u.queues, u.whatsapp_allowed, u.block_wavoip, u.configs, u.active, u.token_version`;

const throttles = new WeakMap<Kernel, ThrottlePort>();
/** The install's throttle store: Redis when configured (shared by every node), PostgreSQL otherwise. */
export function throttleOf(kernel: Kernel): ThrottlePort {
  let t = throttles.get(kernel);
  if (!t) {
    t = kernel.config.redisUrl ? new RedisThrottle(kernel.config.redisUrl, kernel.config.namespace) : new PgThrottle(kernel.db.pool);
    throttles.set(kernel, t);
    const store = t;
    kernel.onClose.push(() => store.close());
  }
  return t;
}

function tooMany(reply: FastifyReply, ms: number, code: 'ERR_LIMIT_MAX' | 'ERR_RATE_LIMIT' = 'ERR_LIMIT_MAX'): never {
  reply.header('retry-after', String(Math.max(1, Math.ceil(ms / 1000))));
  throw new AppError(code);
}

const loginBody = z
  .object({
    email: z.string().max(254),
    password: z.string().max(500),
    captchaToken: z.string().max(1000).optional(),
    captchaX: z.number().min(-1000).max(10_000).optional(),
  })
  .strict();

const signupBody = z
  .object({
    name: z.string().max(120).optional(),
    email: z.string().max(254).optional(),
    password: z.string().max(200).optional(),
    identity: z.string().max(32).optional(),
    planId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    userName: z.string().max(120).optional(),
    phone: z.string().max(40).optional(),
  })
  .strict();

export async function authRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pool = kernel.db.pool;
  const throttle = throttleOf(kernel);
  const captcha = new Captcha(await installSecret(pool, 'captcha'), pool);
  const mailer = mailerOf(kernel);
  const pub = { config: { access: { public: true } } };

  r.get('/api/auth/captcha', pub, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (!kernel.config.captcha) return { enabled: false, width: CAPTCHA_WIDTH, height: CAPTCHA_HEIGHT };
    return captcha.issue();
  });

  r.post('/api/auth/login', { ...pub, schema: { body: loginBody } }, async (req, reply) => {
    const email = normalizeEmail(req.body.email);
    const ip = req.ip;
    const acctKey = `login:acct:${email}`;
    const ipKey = `login:ip:${ip}`;
    const [acctLock, ipLock] = await Promise.all([throttle.lockedFor(acctKey), throttle.lockedFor(ipKey)]);
    if (acctLock || ipLock) {
      req.log.warn({ event: 'auth.login_throttled', email, ip, scope: acctLock ? 'account' : 'ip' }, 'login refused: too many attempts');
      tooMany(reply, Math.max(acctLock, ipLock));
    }
    if (kernel.config.captcha && !(await captcha.verify(req.body.captchaToken, req.body.captchaX))) {
      await throttle.fail(ipKey, LOGIN_LIMITS.perIp, LOGIN_LIMITS.windowMs, LOGIN_LIMITS.lockMs);
      req.log.warn({ event: 'auth.login_failed', email, ip, reason: 'captcha' }, 'login refused: captcha not solved');
      throw new AppError('ERR_CAPTCHA');
    }
    const found = await pool.query<LoginRow>(
      `SELECT ${USER_COLS}, u.password_hash, t.status AS tenant_status FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE lower(u.email) = $1`,
      [email],
    );
    const user = found.rows[0];
    // An unknown address costs one hash verification too, so timing does not tell which accounts exist.
    const ok = user ? await verifyPassword(user.password_hash, req.body.password) : (await verifyPassword(await dummyHash(), req.body.password), false);
    if (!ok || !user!.active) {
      await Promise.all([
        throttle.fail(acctKey, LOGIN_LIMITS.perAccount, LOGIN_LIMITS.windowMs, LOGIN_LIMITS.lockMs),
        throttle.fail(ipKey, LOGIN_LIMITS.perIp, LOGIN_LIMITS.windowMs, LOGIN_LIMITS.lockMs),
      ]);
      req.log.warn({ event: 'auth.login_failed', email, ip, tenant: user?.tenant_id, reason: !user ? 'unknown_account' : !ok ? 'wrong_password' : 'user_disabled' }, 'login failed');
      throw new AppError('ERR_INVALID_CREDENTIALS');
    }
    if (user.tenant_status !== 'active') {
      req.log.warn({ event: 'auth.login_failed', email, ip, tenant: user.tenant_id, reason: 'tenant_inactive' }, 'login refused: tenant inactive');
      throw new AppError('ERR_TENANT_INACTIVE');
    }
    await throttle.reset(acctKey);
    const tokens = await openSession(app, { id: user.id, tenantId: user.tenant_id, profile: user.profile, tokenVersion: user.token_version }, { ip, userAgent: req.headers['user-agent'] });
    const flip = await pool.query<{ was: boolean }>(
      'WITH prev AS (SELECT is_online FROM users WHERE id = $1) UPDATE users u SET is_online = true, last_seen_at = now() FROM prev WHERE u.id = $1 RETURNING prev.is_online AS was',
      [user.id],
    );
    // Colleagues' presence lists (transfer, the supervisors' team view) learn it now: the socket that
    // follows finds the user already online and announces nothing.
    if (flip.rows[0] && !flip.rows[0].was) await kernel.bus.publish({ tenantId: user.tenant_id, event: 'user.status_updated', data: { id: user.id, isOnline: true } });
    req.log.info({ event: 'auth.login', user: user.id, tenant: user.tenant_id, ip }, 'login');
    return sessionRecord(user, tokens);
  });

  r.post('/api/auth/logout', async (req, reply) => {
    const who = req.principal!;
    await revokeSession(kernel, who.tenantId, who.sid!, 'logout');
    await pool.query(`UPDATE users SET is_online = false, last_seen_at = now() WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM auth_sessions WHERE user_id = $1 AND revoked_at IS NULL)`, [who.userId]);
    await kernel.bus.publish({ tenantId: who.tenantId, event: 'user.status_updated', data: { id: who.userId, isOnline: false } });
    req.log.info({ event: 'auth.logout', user: who.userId, tenant: who.tenantId }, 'logout');
    return reply.status(204).send();
  });

  r.post('/api/auth/refresh_token', { ...pub, schema: { body: z.object({ refreshToken: z.string().min(1).max(200) }).strict() } }, async (req) => {
    const issued = await rotateRefresh(app, req.body.refreshToken);
    const u = await pool.query<LoginRow>(`SELECT ${USER_COLS} FROM users u WHERE u.id = $1`, [issued.user.id]);
    return sessionRecord(u.rows[0], issued);
  });

  r.get('/api/check-version', pub, async () => ({ version: VERSION }));

  // ---- password recovery ----
  kernel.jobs.define<{ email: string }>(PASSWORD_RESET_JOB, async ({ email }, job) => {
    const u = await pool.query<{ id: number; tenant_id: number; name: string; email: string }>(
      `SELECT u.id, u.tenant_id, u.name, u.email FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE lower(u.email) = $1 AND u.active AND t.status = 'active'`,
      [email],
    );
    const user = u.rows[0];
    if (!user) return { sent: false };
    const token = newOpaqueToken();
    // A new link replaces any older one still pending.
    await pool.query(`UPDATE auth_password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL`, [user.id]);
    await pool.query('INSERT INTO auth_password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [hashToken(token), user.id, new Date(Date.now() + RESET_TTL_MS)]);
    const base = (kernel.config.publicUrl ?? `http://localhost:${kernel.config.port}`).replace(/\/$/, '');
    const link = `${base}/#/reset/${token}`;
    const result = await mailer.send(user.tenant_id, {
      to: user.email,
      subject: 'Redefinição de senha',
      text: `Olá, ${user.name}.\n\nRecebemos um pedido para redefinir a sua senha. Abra o link abaixo em até 1 hora para escolher uma nova senha:\n\n${link}\n\nSe você não fez este pedido, ignore este e-mail; sua senha continua a mesma.`,
      html: `<p>Olá, ${escapeHtml(user.name)}.</p><p>Recebemos um pedido para redefinir a sua senha. Abra o link abaixo em até 1 hora para escolher uma nova senha:</p><p><a href="${link}">${link}</a></p><p>Se você não fez este pedido, ignore este e-mail; sua senha continua a mesma.</p>`,
    });
    job.logger.info({ user: user.id, tenant: user.tenant_id, delivered: result.delivered }, 'password reset mail processed');
    return { sent: result.delivered };
  }, { concurrency: 4 });

  /**
   * Always answers the same 200 whether or not the address has an account: the
   * lookup and the mail happen in a job, so neither the answer nor its timing
   * tells accounts apart.
   */
  r.post('/api/password-reset', { ...pub, schema: { body: z.object({ email: z.string().max(254) }).strict() } }, async (req) => {
    const email = normalizeEmail(req.body.email);
    const key = `reset:acct:${email}`;
    if (isValidEmail(email) && !(await throttle.lockedFor(key))) {
      await throttle.fail(key, RESET_LIMIT.perAccount, RESET_LIMIT.windowMs, RESET_LIMIT.windowMs);
      await kernel.jobs.enqueue(PASSWORD_RESET_JOB, { email }, { attempts: 3 });
    }
    req.log.info({ event: 'auth.password_reset_requested', ip: req.ip }, 'password reset requested');
    return { ok: true };
  });

  r.post(
    '/api/reset-password',
    { ...pub, schema: { body: z.object({ token: z.string().min(1).max(200), password: z.string().max(200), confirmPassword: z.string().max(200).optional() }).strict() } },
    async (req) => {
      const b = req.body;
      if (b.confirmPassword !== undefined && b.confirmPassword !== b.password) throw new AppError('ERR_PASSWORDS_MISMATCH');
      if (!isStrongPassword(b.password)) throw new AppError('ERR_WEAK_PASSWORD');
      const passwordHash = await hashPassword(b.password);
      const used = await pool.query<{ user_id: number }>(
        `UPDATE auth_password_resets SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
        [hashToken(b.token)],
      );
      const userId = used.rows[0]?.user_id;
      if (!userId) {
        req.log.warn({ event: 'auth.reset_failed', ip: req.ip }, 'password reset with an invalid, used or expired token');
        throw new AppError('ERR_RESET_PASSWORD');
      }
      const u = await pool.query<{ tenant_id: number }>('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING tenant_id', [userId, passwordHash]);
      // Whoever held the old password loses every session.
      await endUserSessions(kernel, u.rows[0].tenant_id, userId, 'password_reset', { bumpVersion: true });
      await throttle.reset(`login:acct:${(await pool.query<{ email: string }>('SELECT lower(email) AS email FROM users WHERE id = $1', [userId])).rows[0].email}`);
      req.log.info({ event: 'auth.password_reset', user: userId, tenant: u.rows[0].tenant_id }, 'password reset');
      return { ok: true };
    },
  );

  // ---- signup (core.md §5) ----
  r.post('/api/signup', { ...pub, schema: { body: signupBody } }, async (req, reply) => {
    const b = req.body;
    const ipKey = `signup:ip:${req.ip}`;
    const lock = await throttle.lockedFor(ipKey);
    if (lock) tooMany(reply, lock, 'ERR_RATE_LIMIT');
    const creation = await pool.query<{ value: string }>(`SELECT value FROM settings WHERE tenant_id = $1 AND key = 'userCreation'`, [PLATFORM_TENANT_ID]);
    if (creation.rows[0]?.value === 'disabled') throw new AppError('ERR_USER_CREATION_DISABLED');
    const name = b.name?.trim() ?? '';
    const email = normalizeEmail(b.email ?? '');
    const identity = b.identity?.trim() ?? '';
    if (!name || !email || !b.password || !identity || !b.planId) throw new AppError('ERR_SIGNUP_FIELDS');
    if (!isValidCpfCnpj(identity)) throw new AppError('ERR_INVALID_CPF_CNPJ');
    if (!isValidEmail(email)) throw new AppError('ERR_INVALID_EMAIL');
    if (!isStrongPassword(b.password)) throw new AppError('ERR_WEAK_PASSWORD');
    await throttle.fail(ipKey, SIGNUP_LIMIT.perIp, SIGNUP_LIMIT.windowMs, SIGNUP_LIMIT.windowMs);
    const plan = await pool.query<{ id: number; users: number; connections: number; trial: boolean; trial_days: number }>('SELECT * FROM plans WHERE id = $1 AND active', [b.planId]);
    if (!plan.rows[0]) throw new AppError('ERR_CREATING_CLIENT');
    const p = plan.rows[0];
    const passwordHash = await hashPassword(b.password);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const t = await client.query<{ id: number; trial_ends_at: Date | null }>(
        `INSERT INTO tenants (name, status, max_users, max_connections, identity, plan_id, trial, trial_days, trial_ends_at, menus)
         VALUES ($1, 'active', $2, $3, $4, $5, $6, $7, CASE WHEN $6::boolean THEN now() + $7::int * interval '1 day' END, '{}') RETURNING id, trial_ends_at`,
        [name, p.users, p.connections, identity, p.id, p.trial, p.trial_days],
      );
      const u = await client.query<{ id: number }>(
        `INSERT INTO users (tenant_id, name, email, password_hash, profile) VALUES ($1, $2, $3, $4, 'admin') RETURNING id`,
        [t.rows[0].id, b.userName?.trim() || name, email, passwordHash],
      );
      await client.query('COMMIT');
      req.log.info({ event: 'tenant.signup', tenant: t.rows[0].id, user: u.rows[0].id, plan: p.id }, 'tenant created by signup');
      return reply.status(201).send({ tenantId: t.rows[0].id, userId: u.rows[0].id, email, planId: p.id, trial: p.trial, trialEndsAt: t.rows[0].trial_ends_at?.toISOString() ?? null });
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((err as { code?: string }).code === '23505') throw new AppError('ERR_EMAIL_IN_USE');
      req.log.error({ err: (err as Error).message }, 'signup failed');
      throw new AppError('ERR_CREATING_CLIENT');
    } finally {
      client.release();
    }
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
