import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { menuAllowed } from './menus.ts';
import { countryOfTimeZone } from '../tenancy/country.ts';

/**
 * The access map for one user, computed only with `menuAllowed` over every
 * menu the install knows (kernel and plugins) and the tenant's plugin
 * enablement, so the shell never guesses: a menu the server would refuse is
 * false here, and a route of a disabled plugin is not listed at all.
 */
export async function accessMap(kernel: Kernel, who: ResolvedPrincipal) {
  const enabled = await kernel.enablement.enabledMap(who.tenantId);
  const menus: Record<string, boolean> = {};
  const routes: Record<string, string> = {};
  for (const [key, def] of kernel.menus) {
    const pluginOn = !def.pluginId || enabled.get(def.pluginId) === true;
    menus[key] = pluginOn && menuAllowed(def, who);
    // The first menu to claim a route guards it (kernel menus come first), so a plugin's new key cannot loosen a kernel route.
    if (pluginOn && !(def.route in routes)) routes[def.route] = key;
  }
  // Plugin menus that reuse a kernel key (e.g. a settings tab) add their route under that key.
  for (const p of kernel.plugins) {
    if (!enabled.get(p.id)) continue;
    for (const m of p.menus ?? []) if (!(m.route in routes)) routes[m.route] = m.key;
  }
  return { menus, routes };
}

/** What `GET /api/me/access` answers: the caller, its tenant and the access map the shell follows. */
export const accessAnswer = z.object({
  user: z.object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    profile: z.enum(['user', 'super', 'admin', 'superadmin']),
    tenantId: z.number().int(),
    queues: z.array(z.number().int()),
    configs: z.record(z.string(), z.unknown()),
    blockWavoip: z.boolean(),
    apiToken: z.boolean(),
  }),
  tenant: z.object({
    id: z.number().int(),
    name: z.string(),
    status: z.string(),
    blocked: z.boolean(),
    termsAccepted: z.boolean(),
    country: z.literal('BR').nullable(),
  }),
  superadmin: z.boolean(),
  /** Menu key → whether the caller may use it. */
  menus: z.record(z.string(), z.boolean()),
  /** Screen route → the menu key that guards it. */
  routes: z.record(z.string(), z.string()),
});

export async function accessRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Accepts API tokens too (they see the admin map of their tenant), and works before the terms are accepted or while blocked. */
  r.get('/api/me/access', { schema: { operationId: 'getMyAccess', tags: ['access'], summary: 'O usuário, a empresa e o mapa de acesso (menus e telas)', response: { 200: accessAnswer } } }, async (req) => {
    const who = req.access!;
    const [{ menus, routes }, rows] = await Promise.all([
      accessMap(kernel, who),
      kernel.db.pool.query<{ configs: Record<string, unknown> | null; block_wavoip: boolean | null; name: string; status: string; blocked: boolean; terms: boolean; timezone: string }>(
        `SELECT u.configs, u.block_wavoip, t.name, t.status, t.blocked, t.timezone,
                EXISTS (SELECT 1 FROM tenants p WHERE p.id = 1 AND p.terms_accepted_at IS NOT NULL) AS terms
           FROM tenants t LEFT JOIN users u ON u.id = $2 AND u.tenant_id = t.id WHERE t.id = $1`,
        [who.tenantId, who.userId],
      ),
    ]);
    const row = rows.rows[0];
    return {
      user: {
        id: who.userId, name: who.name, email: who.email, profile: who.profile, tenantId: who.tenantId, queues: who.queues,
        configs: row?.configs ?? {}, blockWavoip: row?.block_wavoip ?? false, apiToken: !!who.apiToken,
      },
      tenant: {
        id: who.tenantId, name: row?.name ?? '', status: row?.status ?? 'active', blocked: row?.blocked ?? false, termsAccepted: row?.terms ?? false,
        // Brazilian companies (by time zone) get Brazil's forms: states (UF) as a list, national numbers with +55.
        country: countryOfTimeZone(row?.timezone),
      },
      superadmin: who.profile === 'superadmin',
      menus,
      routes,
    };
  });
}
