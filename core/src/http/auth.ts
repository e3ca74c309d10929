import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { resolvePrincipal, type AccessClaims, type ResolvedPrincipal } from '../modules/identity/tokens.ts';
import { menuAllowed } from '../modules/access/menus.ts';

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
    claims = app.jwt.verify<AccessClaims>(token);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new AppError(code === 'FAST_JWT_EXPIRED' ? 'ERR_SESSION_EXPIRED' : 'ERR_INVALID_TOKEN');
  }
  if (typeof claims.sub !== 'number' || typeof claims.tid !== 'number' || typeof claims.sid !== 'string') throw new AppError('ERR_INVALID_TOKEN');
  return resolvePrincipal(app.kernel.db.pool, claims);
}

export function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const [scheme, value] = h.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/**
 * Every /api route requires a verified token unless it declares
 * `config.access.public`; a route that declares a menu is checked by the one
 * access function. The tenant comes from the token only, never from input.
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
    const who = await authenticate(app, bearer(req));
    req.access = who;
    req.principal = who;
    req.em = app.kernel.db.forTenant(who.tenantId);
    if (access?.profiles && who.profile !== 'superadmin' && !access.profiles.includes(who.profile)) throw new AppError('ERR_NO_PERMISSION');
    if (access?.menu) {
      const menu = app.kernel.menus.get(access.menu);
      if (!menu || !menuAllowed(menu, { profile: who.profile, userMenus: who.userMenus, tenantMenus: who.tenantMenus, tenantBlocked: who.tenantBlocked }))
        throw new AppError('ERR_NO_PERMISSION');
    }
  });
}
