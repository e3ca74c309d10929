import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { menuAllowed } from '../access/menus.ts';
import { AppError } from '../../errors.ts';

const withTimeout = <T,>(p: Promise<T>, ms: number, fallback: T) => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);

export async function platformRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();

  r.get('/api/health', { config: { access: { public: true } } }, async (_req, reply) => {
    const [database, jobs, events] = await Promise.all([
      withTimeout(kernel.db.pool.query('SELECT 1').then(() => true, () => false), 2000, false),
      withTimeout(kernel.jobs.health(), 2500, false),
      withTimeout(kernel.bus.health(), 2000, false),
    ]);
    const ok = database && jobs && events && !kernel.state.shuttingDown;
    return reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : kernel.state.shuttingDown ? 'shutting_down' : 'degraded',
      role: kernel.config.role,
      uptimeSeconds: Math.round((Date.now() - kernel.state.startedAt) / 1000),
      checks: {
        database: database ? 'ok' : 'down',
        jobs: jobs ? 'ok' : 'down',
        jobBackend: kernel.config.redisUrl ? 'redis' : 'postgres',
        events: events ? 'ok' : 'down',
        eventBus: kernel.config.redisUrl ? 'redis' : 'in-process',
      },
      plugins: kernel.plugins.map((p) => ({ id: p.id, kind: p.kind, state: 'loaded' })),
      sockets: kernel.realtime.size,
    });
  });

  /** The remotes this user may load: enabled for the tenant and with at least one allowed menu. */
  r.get('/api/plugins/ui', async (req) => {
    const who = req.access!;
    const enabled = await kernel.enablement.enabledMap(who.tenantId);
    const subject = { profile: who.profile, userMenus: who.userMenus, tenantMenus: who.tenantMenus, tenantBlocked: who.tenantBlocked };
    return kernel.plugins
      .filter((p) => p.ui && enabled.get(p.id))
      .filter((p) => (p.menus ?? []).length === 0 || (p.menus ?? []).some((m) => menuAllowed(kernel.menus.get(m.key) ?? m, subject)))
      .map((p) => ({
        id: p.id,
        name: p.name ?? p.id,
        entry: `/plugins/${p.id}/mf-manifest.json`,
        menus: (p.menus ?? []).filter((m) => menuAllowed(kernel.menus.get(m.key) ?? m, subject)),
      }));
  });

  /** Plugins installed and their state for the caller's tenant (admin screens and CLI use it). */
  r.get('/api/plugins', { config: { access: { profiles: ['admin', 'superadmin'] } } }, async (req) => {
    const enabled = await kernel.enablement.enabledMap(req.principal!.tenantId);
    return kernel.plugins.map((p) => ({ id: p.id, name: p.name ?? p.id, kind: p.kind, description: p.description ?? '', enabled: enabled.get(p.id) ?? false, ui: !!p.ui }));
  });

  r.put(
    '/api/plugins/:id/enabled',
    {
      config: { access: { menu: 'settings', profiles: ['admin', 'superadmin'] } },
      schema: { params: z.object({ id: z.string().max(100) }), body: z.object({ enabled: z.boolean() }).strict() },
    },
    async (req) => {
      const def = kernel.plugins.find((p) => p.id === req.params.id);
      if (!def) throw new AppError('ERR_PLUGIN_UNKNOWN');
      await kernel.enablement.set(req.principal!.tenantId, def.id, req.body.enabled);
      await kernel.bus.publish({ tenantId: req.principal!.tenantId, event: 'plugins.changed', data: { id: def.id, enabled: req.body.enabled } });
      return { id: def.id, enabled: req.body.enabled };
    },
  );
}
