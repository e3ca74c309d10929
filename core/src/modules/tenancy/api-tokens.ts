import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { hashToken, type ResolvedPrincipal } from '../identity/tokens.ts';
import { principalOf } from '../../sdk/http.ts';
import { apiTokenAnswer, newApiTokenAnswer } from './schemas.ts';

/**
 * Tenant API tokens (administration.md §3 "Tenant API", route /tenantApi).
 * A token is shown once when generated or regenerated; only its SHA-256 is
 * stored. `Authorization: Bearer atk_...` then acts as an admin of that tenant
 * only, on the routes that declare `config.access.api = true` (and
 * `GET /api/me/access`); every other route refuses it.
 */
export const API_TOKEN_PREFIX = 'atk_';

const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** Resolves an API token to a principal, or throws ERR_INVALID_TOKEN / ERR_TENANT_INACTIVE. */
export async function resolveApiToken(pool: pg.Pool, token: string): Promise<ResolvedPrincipal> {
  const r = await pool.query<{ id: number; tenant_id: number; name: string; status: string; blocked: boolean; menus: Record<string, boolean>; stale: boolean }>(
    `SELECT k.id, k.tenant_id, k.name, t.status, t.blocked, t.menus,
            (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale
       FROM tenant_api_tokens k JOIN tenants t ON t.id = k.tenant_id
      WHERE k.token_hash = $1 AND k.revoked_at IS NULL`,
    [hashToken(token)],
  );
  const row = r.rows[0];
  if (!row) throw new AppError('ERR_INVALID_TOKEN');
  if (row.status !== 'active') throw new AppError('ERR_TENANT_INACTIVE');
  // Last use is recorded at most once a minute per token, off the request's path.
  if (row.stale) void pool.query('UPDATE tenant_api_tokens SET last_used_at = now() WHERE id = $1', [row.id]).catch(() => undefined);
  return {
    userId: 0, tenantId: row.tenant_id, profile: 'admin', email: '', name: `API: ${row.name}`, apiToken: true, sid: `api:${row.id}`,
    queues: [], userMenus: {}, tenantMenus: row.menus, tenantBlocked: row.blocked, supervisorDemoted: false, termsAccepted: true,
  };
}

interface TokenRow { id: number; tenant_id: number; name: string; token_prefix: string; created_by: number | null; created_at: Date; rotated_at: Date | null; last_used_at: Date | null; revoked_at: Date | null; tenant_name?: string }
const out = (t: TokenRow) => ({
  id: t.id, tenantId: t.tenant_id, ...(t.tenant_name !== undefined ? { tenantName: t.tenant_name } : {}), name: t.name, prefix: t.token_prefix,
  createdBy: t.created_by, createdAt: t.created_at.toISOString(), rotatedAt: t.rotated_at?.toISOString() ?? null,
  lastUsedAt: t.last_used_at?.toISOString() ?? null, revoked: !!t.revoked_at, revokedAt: t.revoked_at?.toISOString() ?? null,
});

export async function apiTokenRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pool = kernel.db.pool;
  const access = { config: { access: { menu: 'api', profiles: ['admin' as const] } } };
  const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

  /** The token row if the caller may manage it: its own tenant's, or any for the superadmin; otherwise 404 like a missing one. */
  async function owned(req: FastifyRequest, id: number): Promise<TokenRow> {
    const p = principalOf(req);
    const t = await pool.query<TokenRow>(`SELECT * FROM tenant_api_tokens WHERE id = $1 AND ($2 OR tenant_id = $3)`, [id, p.profile === 'superadmin', p.tenantId]);
    if (!t.rows[0]) throw new AppError('ERR_NOT_FOUND');
    return t.rows[0];
  }

  r.get('/api/tenantApi', { ...access, schema: { operationId: 'listApiTokens', tags: ['tenantApi'], summary: 'Lista os tokens de API', querystring: z.object({ tenantId: z.coerce.number().int().positive().optional() }), response: { 200: z.array(apiTokenAnswer) } } }, async (req) => {
    const p = principalOf(req);
    const all = p.profile === 'superadmin';
    const rows = await pool.query<TokenRow>(
      `SELECT k.*, t.name AS tenant_name FROM tenant_api_tokens k JOIN tenants t ON t.id = k.tenant_id
        WHERE ($1 OR k.tenant_id = $2) AND ($3::int IS NULL OR k.tenant_id = $3) ORDER BY k.id`,
      [all, p.tenantId, all ? (req.query.tenantId ?? null) : null],
    );
    return rows.rows.map(out);
  });

  r.post('/api/tenantApi', { ...access, schema: { operationId: 'createApiToken', tags: ['tenantApi'], summary: 'Gera um token de API (o segredo aparece só nesta resposta)', body: z.object({ name: z.string().trim().min(1).max(120).default('API'), tenantId: z.number().int().positive().optional() }).strict(), response: { 201: newApiTokenAnswer } } }, async (req, reply) => {
    const p = principalOf(req);
    // Only the superadmin names another tenant; for anyone else a tenantId other than their own is not found.
    const tenantId = req.body.tenantId ?? p.tenantId;
    if (tenantId !== p.tenantId && p.profile !== 'superadmin') throw new AppError('ERR_NO_TENANT_FOUND');
    const exists = await pool.query('SELECT 1 FROM tenants WHERE id = $1', [tenantId]);
    if (!exists.rowCount) throw new AppError('ERR_NO_TENANT_FOUND');
    const token = newApiToken();
    const row = await pool.query<TokenRow>(
      'INSERT INTO tenant_api_tokens (tenant_id, name, token_hash, token_prefix, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [tenantId, req.body.name, hashToken(token), token.slice(0, 10), p.apiToken ? null : p.userId],
    );
    req.log.info({ event: 'api_token.created', tenant: tenantId, id: row.rows[0].id, by: p.userId }, 'tenant API token created');
    return reply.status(201).send({ ...out(row.rows[0]), token });
  });

  /** A new secret for the same token entry: the old value stops working at once. */
  r.post('/api/tenantApi/:id/regenerate', { ...access, schema: { operationId: 'regenerateApiToken', tags: ['tenantApi'], summary: 'Gera um novo segredo para o token; o anterior deixa de valer', params: idParam, response: { 200: newApiTokenAnswer } } }, async (req) => {
    const cur = await owned(req, req.params.id);
    const token = newApiToken();
    const row = await pool.query<TokenRow>(
      'UPDATE tenant_api_tokens SET token_hash = $2, token_prefix = $3, rotated_at = now(), revoked_at = NULL WHERE id = $1 RETURNING *',
      [cur.id, hashToken(token), token.slice(0, 10)],
    );
    req.log.info({ event: 'api_token.regenerated', tenant: cur.tenant_id, id: cur.id, by: principalOf(req).userId }, 'tenant API token regenerated');
    return { ...out(row.rows[0]), token };
  });

  r.delete('/api/tenantApi/:id', { ...access, schema: { operationId: 'revokeApiToken', tags: ['tenantApi'], summary: 'Revoga um token de API', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    const cur = await owned(req, req.params.id);
    await pool.query('UPDATE tenant_api_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1', [cur.id]);
    req.log.info({ event: 'api_token.revoked', tenant: cur.tenant_id, id: cur.id, by: principalOf(req).userId }, 'tenant API token revoked');
    return reply.status(204).send(null);
  });
}
