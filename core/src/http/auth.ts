import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { resolvePrincipal, type AccessClaims, type ResolvedPrincipal } from '../modules/identity/tokens.ts';
import { effectiveProfile, menuAllowed } from '../modules/access/menus.ts';
import { API_TOKEN_PREFIX, resolveApiToken } from '../modules/tenancy/api-tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Full access subject of the caller (menus, queues), set with `principal`. */
    access?: ResolvedPrincipal;
  }
}

/** Verifies a bearer access token and resolves the caller; throws a catalogue error. */
export async function authenticate(app: FastifyInstance, token: string | undefined): Promise<ResolvedPrincipal> {
  if (!token) throw new AppError('ERR_LOGIN_REQUIRED');
  let claims: AccessClaims;
  try {
    // The algorithm allow-list (HS256 only) is set where @fastify/jwt is registered: `alg: none` and RS/ES tokens fail here.
    claims = app.jwt.verify<AccessClaims>(token);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new AppError(code === 'FAST_JWT_EXPIRED' ? 'ERR_SESSION_EXPIRED' : 'ERR_INVALID_TOKEN');
  }
  if (typeof claims.sub !== 'number' || typeof claims.tid !== 'number' || typeof claims.sid !== 'string' || typeof claims.tv !== 'number') throw new AppError('ERR_INVALID_TOKEN');
  if (!/^[0-9a-f-]{36}$/.test(claims.sid)) throw new AppError('ERR_INVALID_TOKEN');
  return resolvePrincipal(app.kernel.db.pool, claims);
}

export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const [scheme, value] = h.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/**
 * Routes a user may still call while the install's terms of use are not
 * accepted: enough to learn why (`/api/me/access`, the terms text), to log out
 * and to keep the socket/theme/online state consistent.
 */
export const TERMS_EXEMPT_ROUTES = new Set([
  '/api/me/access',
  '/api/tenants/terms',
  '/api/tenants/terms/accept',
  '/api/auth/logout',
  '/api/events',
  '/api/users/:id/configs',
  '/api/usersIsOnline/:id',
]);

/**
 * Routes without a menu that a blocked tenant's users may still call (spec
 * §6: a blocked tenant sees only settings). Routes with a menu are decided by
 * `menuAllowed`, which lets only the settings menu through.
 */
export const BLOCKED_TENANT_ROUTES = new Set([
  ...TERMS_EXEMPT_ROUTES,
  '/api/plugins/ui',
  '/api/settings',
  '/api/tenants/systemColors',
]);

/**
 * Every /api route requires a verified token unless it declares
 * `config.access.public`; the tenant comes from the token only, never from
 * input. Then, in order: API tokens only where the route accepts them; the
 * terms-of-use gate; the blocked-tenant gate; the route's profiles; the route's
 * menu through the one access function.
 */
export function installAuth(app: FastifyInstance) {
  app.decorateRequest('principal', undefined);
  app.decorateRequest('access', undefined);
  app.decorateRequest('em', undefined as never);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    const access = req.routeOptions.config?.access;
    if (access?.public || req.routeOptions.url === undefined) return;
    if (req.url.startsWith('/api/ws')) return; // the socket route authenticates from its query string before the upgrade
    if (req.url === '/api/docs' || req.url.startsWith('/api/docs/') || req.url.startsWith('/api/docs?')) return; // its own cookie guard (http/docs.ts)
    const route = req.routeOptions.url;
    const token = bearer(req);
    let who: ResolvedPrincipal;
    if (token?.startsWith(API_TOKEN_PREFIX)) {
      who = await resolveApiToken(app.kernel.db.pool, token);
      if (!access?.api && route !== '/api/me/access') {
        req.log.info({ code: 'ERR_NO_PERMISSION', url: req.url, tenant: who.tenantId, apiToken: who.sid }, 'API token refused on a route that does not accept it');
        throw new AppError('ERR_NO_PERMISSION');
      }
    } else {
      who = await authenticate(app, token);
    }
    req.access = who;
    req.principal = who;
    req.em = app.kernel.db.forTenant(who.tenantId);
    if (who.profile === 'superadmin') return;
    if (!who.termsAccepted && !TERMS_EXEMPT_ROUTES.has(route)) throw new AppError('ERR_TERMS_NOT_ACCEPTED');
    if (who.tenantBlocked && !access?.menu && !BLOCKED_TENANT_ROUTES.has(route)) throw new AppError('ERR_ACCESS_DENIED');
    if (access?.profiles && !access.profiles.includes(effectiveProfile(who))) throw new AppError('ERR_NO_PERMISSION');
    if (access?.menu) {
      const menu = app.kernel.menus.get(access.menu);
      if (!menu || !menuAllowed(menu, who)) throw new AppError('ERR_NO_PERMISSION');
    }
  });
}
