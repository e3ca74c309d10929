import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { ACCESS_TTL_SECONDS, hashToken, newOpaqueToken, type AccessClaims } from './tokens.ts';
import type { Profile } from '../../sdk/types.ts';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';

/** Refresh tokens (and so sessions) last 30 days of inactivity at most. */
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

export interface IssuedTokens {
  token: string;
  refreshToken: string;
  sessionId: string;
  expiresIn: number;
}

export function signAccess(app: FastifyInstance, claims: AccessClaims): string {
  return app.jwt.sign(claims, { expiresIn: ACCESS_TTL_SECONDS });
}

/** Opens a new session (refresh family) for a user and issues its first token pair, in one round trip. */
export async function openSession(
  app: FastifyInstance,
  user: { id: number; tenantId: number; profile: Profile; tokenVersion: number },
  meta: { ip?: string; userAgent?: string } = {},
): Promise<IssuedTokens> {
  const sid = randomUUID();
  const refreshToken = newOpaqueToken();
  await app.kernel.db.pool.query(
    `WITH s AS (INSERT INTO auth_sessions (id, user_id, tenant_id, ip, user_agent) VALUES ($1, $2, $3, $4, $5) RETURNING id)
     INSERT INTO auth_refresh_tokens (token_hash, session_id, expires_at) SELECT $6, s.id, $7 FROM s`,
    [sid, user.id, user.tenantId, meta.ip ?? null, meta.userAgent?.slice(0, 300) ?? null, hashToken(refreshToken), new Date(Date.now() + REFRESH_TTL_MS)],
  );
  const token = signAccess(app, { sub: user.id, tid: user.tenantId, prf: user.profile, sid, tv: user.tokenVersion });
  return { token, refreshToken, sessionId: sid, expiresIn: ACCESS_TTL_SECONDS };
}

export interface RefreshedUser {
  id: number;
  tenantId: number;
  profile: Profile;
  tokenVersion: number;
}

/**
 * Rotates a refresh token: the presented one is marked used and a new one is
 * issued in the same session. Presenting a token that was already used means it
 * was copied (the legitimate holder rotated it, or a thief did first): the whole
 * session is revoked and its sockets closed, so both parties must log in again.
 */
export async function rotateRefresh(app: FastifyInstance, presented: string): Promise<IssuedTokens & { user: RefreshedUser }> {
  const pool = app.kernel.db.pool;
  const hash = hashToken(presented);
  const claimed = await pool.query<{ session_id: string; expires_at: Date }>(
    `UPDATE auth_refresh_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL RETURNING session_id, expires_at`,
    [hash],
  );
  if (!claimed.rowCount) {
    const prior = await pool.query<{ session_id: string; tenant_id: number; user_id: number }>(
      `SELECT r.session_id, s.tenant_id, s.user_id FROM auth_refresh_tokens r JOIN auth_sessions s ON s.id = r.session_id WHERE r.token_hash = $1`,
      [hash],
    );
    const p = prior.rows[0];
    if (!p) throw new AppError('ERR_INVALID_TOKEN');
    await revokeSession(app.kernel, p.tenant_id, p.session_id, 'refresh_reuse');
    app.log.warn({ event: 'auth.refresh_reuse', user: p.user_id, tenant: p.tenant_id, session: p.session_id }, 'refresh token reused: session revoked');
    throw new AppError('ERR_SESSION_EXPIRED');
  }
  const sid = claimed.rows[0].session_id;
  if (claimed.rows[0].expires_at.getTime() <= Date.now()) throw new AppError('ERR_SESSION_EXPIRED');
  const r = await pool.query<{ id: number; tenant_id: number; profile: Profile; token_version: number; active: boolean; status: string; revoked_at: Date | null }>(
    `SELECT u.id, u.tenant_id, u.profile, u.token_version, u.active, t.status, s.revoked_at
       FROM auth_sessions s JOIN users u ON u.id = s.user_id JOIN tenants t ON t.id = u.tenant_id WHERE s.id = $1`,
    [sid],
  );
  const row = r.rows[0];
  if (!row) throw new AppError('ERR_INVALID_TOKEN');
  if (row.status !== 'active') throw new AppError('ERR_TENANT_INACTIVE');
  if (row.revoked_at || !row.active) throw new AppError('ERR_SESSION_EXPIRED');
  const refreshToken = newOpaqueToken();
  await pool.query(
    `WITH t AS (INSERT INTO auth_refresh_tokens (token_hash, session_id, expires_at) VALUES ($1, $2, $3) RETURNING session_id)
     UPDATE auth_sessions SET last_used_at = now() WHERE id = (SELECT session_id FROM t)`,
    [hashToken(refreshToken), sid, new Date(Date.now() + REFRESH_TTL_MS)],
  );
  const user = { id: row.id, tenantId: row.tenant_id, profile: row.profile, tokenVersion: row.token_version };
  const token = signAccess(app, { sub: user.id, tid: user.tenantId, prf: user.profile, sid, tv: user.tokenVersion });
  return { token, refreshToken, sessionId: sid, expiresIn: ACCESS_TTL_SECONDS, user };
}

/** Revokes one session: its access tokens are refused at once and its sockets closed on every node. */
export async function revokeSession(kernel: Kernel, tenantId: number, sid: string, reason: string): Promise<void> {
  await kernel.db.pool.query(`UPDATE auth_sessions SET revoked_at = now(), revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL`, [sid, reason]);
  await kernel.realtime.endSessions(tenantId, { sid });
}

/**
 * Ends every session of a user (disable, delete, password change). Bumping the
 * token version refuses every access token already issued even before the
 * session rows are read. `except` keeps the caller's own session alive.
 */
export async function endUserSessions(kernel: Kernel, tenantId: number, userId: number, reason: string, opts: { bumpVersion?: boolean; except?: string; db?: pg.Pool | pg.PoolClient } = {}): Promise<void> {
  const db = opts.db ?? kernel.db.pool;
  if (opts.bumpVersion) await db.query('UPDATE users SET token_version = token_version + 1, is_online = false WHERE id = $1', [userId]);
  const r = await db.query<{ id: string }>(
    `UPDATE auth_sessions SET revoked_at = now(), revoked_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid) RETURNING id`,
    [userId, reason, opts.except ?? null],
  );
  if (opts.except) for (const row of r.rows) await kernel.realtime.endSessions(tenantId, { sid: row.id });
  else await kernel.realtime.endSessions(tenantId, { userId });
}

/** Ends every session of a tenant (deactivated or erased): one socket-close message per user with live sessions. */
export async function endTenantSessions(kernel: Kernel, tenantId: number, reason: string): Promise<void> {
  const r = await kernel.db.pool.query<{ user_id: number }>(
    `WITH s AS (UPDATE auth_sessions SET revoked_at = now(), revoked_reason = $2 WHERE tenant_id = $1 AND revoked_at IS NULL RETURNING user_id)
     SELECT DISTINCT user_id FROM s`,
    [tenantId, reason],
  );
  await kernel.db.pool.query('UPDATE users SET is_online = false WHERE tenant_id = $1 AND is_online', [tenantId]);
  for (const row of r.rows) await kernel.realtime.endSessions(tenantId, { userId: row.user_id });
}
