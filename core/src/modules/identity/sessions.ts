import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ACCESS_TTL_SECONDS, hashToken, newOpaqueToken, type AccessClaims } from './tokens.ts';
import type { Profile } from '../../sdk/types.ts';

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

/** Opens a new session (refresh family) for a user and issues its first token pair. */
export async function openSession(
  app: FastifyInstance,
  user: { id: number; tenantId: number; profile: Profile; tokenVersion: number },
  meta: { ip?: string; userAgent?: string } = {},
): Promise<IssuedTokens> {
  const sid = randomUUID();
  const refreshToken = newOpaqueToken();
  const pool = app.kernel.db.pool;
  await pool.query('INSERT INTO auth_sessions (id, user_id, tenant_id, ip, user_agent) VALUES ($1, $2, $3, $4, $5)', [sid, user.id, user.tenantId, meta.ip ?? null, meta.userAgent?.slice(0, 300) ?? null]);
  await pool.query('INSERT INTO auth_refresh_tokens (token_hash, session_id, expires_at) VALUES ($1, $2, $3)', [hashToken(refreshToken), sid, new Date(Date.now() + REFRESH_TTL_MS)]);
  const token = signAccess(app, { sub: user.id, tid: user.tenantId, prf: user.profile, sid, tv: user.tokenVersion });
  return { token, refreshToken, sessionId: sid, expiresIn: ACCESS_TTL_SECONDS };
}
