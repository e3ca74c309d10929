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
import { PgThrottle, RedisThrottle, type ThrottlePort, type ThrottleSlot } from './throttle.ts';
import { isValidCpfCnpj, isValidEmail, normalizeEmail } from './validation.ts';
import { mailerOf } from '../mail/routes.ts';
import { PLATFORM_TENANT_ID } from './bootstrap.ts';
import { okAnswer } from '../../sdk/contract.ts';
import { principalOf } from '../../sdk/http.ts';
import { captchaAnswer, sessionAnswer, signupSchema } from './schemas.ts';

/**
 * Login throttle (docs/reliability.md R8, docs/access.md): failures within a minute, then a one-minute lock.
 * `perAccount` counts one account's failures from one source (X1-14: a stranger's guesses do not lock the
 * owner out); `perAccountAnySource` is the ceiling for guesses spread over many sources (a password reset
 * lifts it); `perIp` counts one source's failures over every account.
 */
export const LOGIN_LIMITS = { perAccount: 5, perAccountAnySource: 50, perIp: 20, windowMs: 60_000, lockMs: 60_000 } as const;

/**
 * The source an attempt is charged to: the IPv4 address, or the /64 of an IPv6 one (one subscriber
 * holds a whole /64, so per-address counting would let them rotate without end).
 */
export function sourceOf(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const tl = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(Math.max(0, 8 - h.length - tl.length)).fill('0'), ...tl] : h;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The counters one login attempt is charged to: account from this source, account from anywhere, this source. */
export function loginSlots(email: string, ip: string): [ThrottleSlot, ThrottleSlot, ThrottleSlot] {
  const src = sourceOf(ip);
  const { windowMs, lockMs } = LOGIN_LIMITS;
  return [
    { key: `login:acct:${email}|${src}`, limit: LOGIN_LIMITS.perAccount, windowMs, lockMs },
    { key: `login:acct:${email}`, limit: LOGIN_LIMITS.perAccountAnySource, windowMs, lockMs },
    { key: `login:ip:${src}`, limit: LOGIN_LIMITS.perIp, windowMs, lockMs },
  ];
}
/** Reset mails per address (against mail bombing) and signups per IP. */
const RESET_LIMIT = { perAccount: 3, windowMs: 15 * 60_000 };
const SIGNUP_LIMIT = { perIp: 10, windowMs: 3600_000 };
export const RESET_TTL_MS = 3600_000;
export const PASSWORD_RESET_JOB = 'identity.password_reset_mail';
/** Tells an address's owner that someone tried to sign up with it (X1-13), instead of telling the one who tried. */
export const ADDRESS_IN_USE_JOB = 'identity.address_in_use_notice';
const NOTICE_LIMIT = { perAccount: 3, windowMs: 3600_000 };

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

/** Tells the owner of an address that it was given elsewhere (X1-13), a few times an hour at most. */
export async function noticeAddressInUse(kernel: Kernel, email: string, reason: 'signup' | 'user'): Promise<void> {
  const notice = { key: `notice:acct:${email}`, limit: NOTICE_LIMIT.perAccount, windowMs: NOTICE_LIMIT.windowMs, lockMs: NOTICE_LIMIT.windowMs };
  if (!(await throttleOf(kernel).reserve([notice]))) await kernel.jobs.enqueue(ADDRESS_IN_USE_JOB, { email, reason }, { attempts: 3 });
}

export async function authRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pool = kernel.db.pool;
  const throttle = throttleOf(kernel);
  const captcha = new Captcha(await installSecret(pool, 'captcha'), pool);
  const mailer = mailerOf(kernel);
  const pub = { config: { access: { public: true } } };

  r.get('/api/auth/captcha', { ...pub, schema: { operationId: 'getCaptcha', tags: ['auth'], summary: 'Desafio do captcha de deslizar para o login', response: { 200: captchaAnswer } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (!kernel.config.captcha) return { enabled: false as const, width: CAPTCHA_WIDTH, height: CAPTCHA_HEIGHT };
    return captcha.issue();
  });

  r.post('/api/auth/login', { ...pub, schema: { operationId: 'login', tags: ['auth'], summary: 'Entra com e-mail e senha', body: loginBody, response: { 200: sessionAnswer } } }, async (req, reply) => {
    // Credentials in the answer: no browser or proxy may keep it (X1-18).
    reply.header('cache-control', 'no-store');
    const email = normalizeEmail(req.body.email);
    const ip = req.ip;
    const slots = loginSlots(email, ip);
    const ipSlot = slots[2];
    const captchaFailed = kernel.config.captcha && !(await captcha.verify(req.body.captchaToken, req.body.captchaX));
    if (captchaFailed) {
      // An unsolved captcha costs the address an attempt, never the account.
      const lock = await throttle.reserve([ipSlot]);
      if (lock) tooMany(reply, lock);
      await throttle.settle([ipSlot]);
      req.log.warn({ event: 'auth.login_failed', email, ip, reason: 'captcha' }, 'login refused: captcha not solved');
      throw new AppError('ERR_CAPTCHA');
    }
    // The attempt is counted before the password is checked (X1-6): concurrent guesses each take a
    // slot, so no more than the limit are ever evaluated, and a locked account cannot be probed.
    const lock = await throttle.reserve(slots);
    if (lock) {
      req.log.warn({ event: 'auth.login_throttled', email, ip }, 'login refused: too many attempts');
      tooMany(reply, lock);
    }
    // The address's own login first, then rows other tenants' admins gave the same address (X1-13): each
    // of those logs in with its own password, so creating one tells its admin nothing about the owner.
    const found = await pool.query<LoginRow>(
      `SELECT ${USER_COLS}, u.password_hash, t.status AS tenant_status FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE lower(u.email) = $1 ORDER BY u.email_held_elsewhere, u.id LIMIT 10`,
      [email],
    );
    let user: LoginRow | undefined;
    let ok = false;
    for (const row of found.rows) {
      if (await verifyPassword(row.password_hash, req.body.password)) {
        user = row;
        ok = true;
        break;
      }
    }
    user ??= found.rows[0];
    // An unknown address costs one hash verification too, so timing does not tell which accounts exist.
    if (!found.rows.length) await verifyPassword(await dummyHash(), req.body.password);
    if (!ok || !user!.active) {
      await throttle.settle(slots);
      req.log.warn({ event: 'auth.login_failed', email, ip, tenant: user?.tenant_id, reason: !user ? 'unknown_account' : !ok ? 'wrong_password' : 'user_disabled' }, 'login failed');
      throw new AppError('ERR_INVALID_CREDENTIALS');
    }
    // The right password: this source's failures on the account are forgiven, the other counters get the attempt back.
    await throttle.reset(slots[0].key);
    await throttle.release([slots[1].key, ipSlot.key]);
    if (user.tenant_status !== 'active') {
      req.log.warn({ event: 'auth.login_failed', email, ip, tenant: user.tenant_id, reason: 'tenant_inactive' }, 'login refused: tenant inactive');
      throw new AppError('ERR_TENANT_INACTIVE');
    }
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

  r.post('/api/auth/logout', { schema: { operationId: 'logout', tags: ['auth'], summary: 'Encerra a sessão atual', response: { 204: z.null() } } }, async (req, reply) => {
    const who = principalOf(req);
    // Every authenticated request carries its session id (`req.access`, http/auth.ts).
    await revokeSession(kernel, who.tenantId, req.access!.sid, 'logout');
    await pool.query(`UPDATE users SET is_online = false, last_seen_at = now() WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM auth_sessions WHERE user_id = $1 AND revoked_at IS NULL)`, [who.userId]);
    await kernel.bus.publish({ tenantId: who.tenantId, event: 'user.status_updated', data: { id: who.userId, isOnline: false } });
    req.log.info({ event: 'auth.logout', user: who.userId, tenant: who.tenantId }, 'logout');
    return reply.status(204).send(null);
  });

  r.post('/api/auth/refresh_token', { ...pub, schema: { operationId: 'refreshToken', tags: ['auth'], summary: 'Troca o token de renovação por uma nova sessão', body: z.object({ refreshToken: z.string().min(1).max(200) }).strict(), response: { 200: sessionAnswer } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const issued = await rotateRefresh(app, req.body.refreshToken);
    const u = await pool.query<LoginRow>(`SELECT ${USER_COLS} FROM users u WHERE u.id = $1`, [issued.user.id]);
    return sessionRecord(u.rows[0], issued);
  });

  r.get('/api/check-version', { ...pub, schema: { operationId: 'checkVersion', tags: ['auth'], summary: 'Versão do servidor', response: { 200: z.object({ version: z.string() }) } } }, async () => ({ version: VERSION }));

  // ---- password recovery ----
  kernel.jobs.define<{ email: string }>(PASSWORD_RESET_JOB, async ({ email }, job) => {
    const u = await pool.query<{ id: number; tenant_id: number; name: string; email: string }>(
      `SELECT u.id, u.tenant_id, u.name, u.email FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE lower(u.email) = $1 AND NOT u.email_held_elsewhere AND u.active AND t.status = 'active'`,
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

  kernel.jobs.define<{ email: string; reason?: 'signup' | 'user' }>(ADDRESS_IN_USE_JOB, async ({ email, reason = 'signup' }, job) => {
    const u = await pool.query<{ id: number; tenant_id: number; name: string; email: string }>(
      `SELECT u.id, u.tenant_id, u.name, u.email FROM users u WHERE lower(u.email) = $1 AND NOT u.email_held_elsewhere`,
      [email],
    );
    const user = u.rows[0];
    if (!user) return { sent: false };
    const base = (kernel.config.publicUrl ?? `http://localhost:${kernel.config.port}`).replace(/\/$/, '');
    const link = `${base}/#/login`;
    if (reason === 'user') {
      const sent = await mailer.send(user.tenant_id, {
        to: user.email,
        subject: 'Seu e-mail foi informado em outra empresa',
        text: `Olá, ${user.name}.\n\nO administrador de outra empresa cadastrou este endereço de e-mail para um usuário. Esse cadastro não dá acesso à sua conta, e nada mudou nela.\n\nSe você não esperava isso, ignore este e-mail.`,
        html: `<p>Olá, ${escapeHtml(user.name)}.</p><p>O administrador de outra empresa cadastrou este endereço de e-mail para um usuário. Esse cadastro não dá acesso à sua conta, e nada mudou nela.</p><p>Se você não esperava isso, ignore este e-mail.</p>`,
      });
      job.logger.info({ user: user.id, tenant: user.tenant_id, delivered: sent.delivered }, 'address-in-use notice processed');
      return { sent: sent.delivered };
    }
    const result = await mailer.send(user.tenant_id, {
      to: user.email,
      subject: 'Tentativa de cadastro com o seu e-mail',
      text: `Olá, ${user.name}.\n\nAlguém tentou criar uma nova conta com este endereço de e-mail, que já tem uma conta conosco. Nada foi criado.\n\nSe foi você, entre com o seu e-mail e senha (ou use "Esqueci minha senha") em:\n\n${link}\n\nSe não foi você, ignore este e-mail.`,
      html: `<p>Olá, ${escapeHtml(user.name)}.</p><p>Alguém tentou criar uma nova conta com este endereço de e-mail, que já tem uma conta conosco. Nada foi criado.</p><p>Se foi você, entre com o seu e-mail e senha (ou use "Esqueci minha senha") em:</p><p><a href="${link}">${link}</a></p><p>Se não foi você, ignore este e-mail.</p>`,
    });
    job.logger.info({ user: user.id, tenant: user.tenant_id, delivered: result.delivered }, 'address-in-use notice processed');
    return { sent: result.delivered };
  }, { concurrency: 2 });

  /**
   * Always answers the same 200 whether or not the address has an account: the
   * lookup and the mail happen in a job, so neither the answer nor its timing
   * tells accounts apart.
   */
  r.post('/api/password-reset', { ...pub, schema: { operationId: 'requestPasswordReset', tags: ['auth'], summary: 'Pede o e-mail de redefinição de senha (mesma resposta exista ou não a conta)', body: z.object({ email: z.string().max(254) }).strict(), response: { 200: okAnswer } } }, async (req) => {
    const email = normalizeEmail(req.body.email);
    const key = `reset:acct:${email}`;
    // The mail is counted before it is queued, in one atomic step (X1-12): concurrent requests cannot all see room left.
    if (isValidEmail(email) && !(await throttle.reserve([{ key, limit: RESET_LIMIT.perAccount, windowMs: RESET_LIMIT.windowMs, lockMs: RESET_LIMIT.windowMs }]))) {
      await kernel.jobs.enqueue(PASSWORD_RESET_JOB, { email }, { attempts: 3 });
    }
    req.log.info({ event: 'auth.password_reset_requested', ip: req.ip }, 'password reset requested');
    return { ok: true as const };
  });

  r.post(
    '/api/reset-password',
    { ...pub, schema: { operationId: 'resetPassword', tags: ['auth'], summary: 'Define a nova senha com o link recebido por e-mail', body: z.object({ token: z.string().min(1).max(200), password: z.string().max(200), confirmPassword: z.string().max(200).optional() }).strict(), response: { 200: okAnswer } } },
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
      // The owner gets in even while guesses lock the account (X1-14): the account's ceiling and this source's count go.
      const owner = (await pool.query<{ email: string }>('SELECT lower(email) AS email FROM users WHERE id = $1', [userId])).rows[0].email;
      const [fromHere, anySource] = loginSlots(owner, req.ip);
      await Promise.all([throttle.reset(fromHere.key), throttle.reset(anySource.key)]);
      req.log.info({ event: 'auth.password_reset', user: userId, tenant: u.rows[0].tenant_id }, 'password reset');
      return { ok: true as const };
    },
  );

  // ---- signup (core.md §5) ----
  r.post('/api/signup', { ...pub, schema: { operationId: 'signup', tags: ['auth'], summary: 'Cadastro público de uma nova empresa', body: signupBody, response: { 201: signupSchema } } }, async (req, reply) => {
    const b = req.body;
    const ipKey = `signup:ip:${sourceOf(req.ip)}`;
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
    // Counted and checked in one atomic step, so concurrent signups cannot all slip under the limit.
    const over = await throttle.reserve([{ key: ipKey, limit: SIGNUP_LIMIT.perIp, windowMs: SIGNUP_LIMIT.windowMs, lockMs: SIGNUP_LIMIT.windowMs }]);
    if (over) tooMany(reply, over, 'ERR_RATE_LIMIT');
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
      return reply.status(201).send(signupAnswer(email, p, t.rows[0].trial_ends_at));
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((err as { code?: string; constraint?: string }).constraint === 'users_email_key') {
        // The address has an account (in whatever tenant). Answering so would tell anyone which addresses
        // are customers (X1-13): the answer is the one a new account gets, nothing is created, and the
        // address's owner is told by mail instead (a few times an hour at most).
        await noticeAddressInUse(kernel, email, 'signup');
        req.log.warn({ event: 'tenant.signup_address_in_use', ip: req.ip }, 'signup with an address that has an account: owner notified');
        return reply.status(201).send(signupAnswer(email, p, p.trial ? new Date(Date.now() + p.trial_days * 86_400_000) : null));
      }
      req.log.error({ err: (err as Error).message }, 'signup failed');
      throw new AppError('ERR_CREATING_CLIENT');
    } finally {
      client.release();
    }
  });
}

/**
 * What a signup answers. It names no tenant or user id: the same answer is given when the address
 * already has an account and nothing was created (X1-13).
 */
function signupAnswer(email: string, p: { id: number; trial: boolean }, trialEndsAt: Date | null) {
  return { email, planId: p.id, trial: p.trial, trialEndsAt: trialEndsAt?.toISOString() ?? null };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
