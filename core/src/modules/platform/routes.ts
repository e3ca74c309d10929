import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { menuAllowed } from '../access/menus.ts';
import { AppError } from '../../errors.ts';
import { principalOf } from '../../sdk/http.ts';
import { checkProviderUrls } from '../conversations/channel-routes.ts';
import { parseAllowList } from '../../net/addresses.ts';
import type { MigrationDef } from '../../sdk/types.ts';

/** Install-wide settings only the superadmin changes (not a tenant's): the outbound allow-list. */
export const platformMigrations: MigrationDef[] = [
  {
    name: '0001_platform_settings',
    up: [
      `CREATE TABLE platform_settings (
        key text PRIMARY KEY,
        value jsonb NOT NULL,
        updated_by integer,
        updated_at timestamptz NOT NULL DEFAULT now())`,
    ],
  },
];

/** The superadmin's outbound allow-list (docs/security.md), read by the guard through its short cache. */
export async function loadOutboundAllow(pool: Kernel['db']['pool']): Promise<string[]> {
  const r = await pool.query<{ value: unknown }>(`SELECT value FROM platform_settings WHERE key = 'outboundAllow'`);
  const v = r.rows[0]?.value;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Cluster topic telling the other nodes to drop their cached allow-list. */
export const OUTBOUND_ALLOW_CHANGED = '_kernel:outbound_allow_changed';

const withTimeout = <T,>(p: Promise<T>, ms: number, fallback: T) => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);

const healthAnswer = z.object({
  status: z.enum(['ok', 'degraded', 'shutting_down']),
  role: z.string(),
  uptimeSeconds: z.number().int(),
  checks: z.object({
    database: z.enum(['ok', 'down']),
    jobs: z.enum(['ok', 'down']),
    jobBackend: z.enum(['redis', 'postgres']),
    events: z.enum(['ok', 'down']),
    eventBus: z.enum(['redis', 'in-process']),
  }),
  plugins: z.array(z.object({ id: z.string(), kind: z.string(), state: z.literal('loaded') })),
  sockets: z.number().int(),
});

/** A plugin menu as declared (`MenuDef`, sdk/types.ts); the shell builds its menu entries from it. */
const menuAnswer = z.object({
  key: z.string(),
  label: z.string(),
  route: z.string(),
  profiles: z.array(z.enum(['user', 'super', 'admin', 'superadmin'])),
  tenantMenu: z.string().optional(),
  userMenu: z.string().optional(),
});
const pluginRemote = z.object({ id: z.string(), name: z.string(), entry: z.string(), menus: z.array(menuAnswer) });
const pluginState = z.object({ id: z.string(), name: z.string(), kind: z.string(), description: z.string(), enabled: z.boolean(), ui: z.boolean() });
const outboundAllowAnswer = z.object({ entries: z.array(z.string()), fromConfig: z.array(z.string()) });

export async function platformRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();

  r.get('/api/health', { config: { access: { public: true } }, schema: { operationId: 'getHealth', tags: ['platform'], summary: 'Saúde do servidor e das suas dependências', response: { 200: healthAnswer, 503: healthAnswer } } }, async (_req, reply) => {
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
  r.get('/api/plugins/ui', { schema: { operationId: 'listPluginRemotes', tags: ['plugins'], summary: 'Telas de plugins que o usuário pode carregar', response: { 200: z.array(pluginRemote) } } }, async (req) => {
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
  r.get('/api/plugins', { config: { access: { profiles: ['admin', 'superadmin'] } }, schema: { operationId: 'listPlugins', tags: ['plugins'], summary: 'Plugins instalados e se estão ativos na empresa', response: { 200: z.array(pluginState) } } }, async (req) => {
    const enabled = await kernel.enablement.enabledMap(principalOf(req).tenantId);
    return kernel.plugins.map((p) => ({ id: p.id, name: p.name ?? p.id, kind: p.kind, description: p.description ?? '', enabled: enabled.get(p.id) ?? false, ui: !!p.ui }));
  });

  /**
   * Hosts and address ranges that tenant-configured destinations (provider base URLs,
   * SMTP, webhooks) may reach although they are not public: on-premise providers.
   * The install's own ATENDE_OUTBOUND_ALLOW entries are listed apart and cannot be
   * removed here.
   */
  const superOnly = { config: { access: { profiles: ['superadmin' as const] } } };
  r.get('/api/platform/outbound-allow', { ...superOnly, schema: { operationId: 'getOutboundAllow', tags: ['platform'], summary: 'Destinos não públicos liberados para a instalação', response: { 200: outboundAllowAnswer } } }, async () => ({ entries: await loadOutboundAllow(kernel.db.pool), fromConfig: kernel.config.outboundAllow }));
  r.put(
    '/api/platform/outbound-allow',
    { ...superOnly, schema: { operationId: 'updateOutboundAllow', tags: ['platform'], summary: 'Altera os destinos não públicos liberados', body: z.object({ entries: z.array(z.string().trim().min(1).max(253)).max(200) }).strict(), response: { 200: outboundAllowAnswer } } },
    async (req) => {
      const parsed = parseAllowList(req.body.entries);
      if (parsed.invalid.length) throw new AppError('ERR_VALIDATION', { details: `entradas inválidas: ${parsed.invalid.slice(0, 5).join(', ')}` });
      const entries = [...new Set(req.body.entries.map((e) => e.toLowerCase()))];
      await kernel.db.pool.query(
        `INSERT INTO platform_settings (key, value, updated_by) VALUES ('outboundAllow', $1, $2)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
        [JSON.stringify(entries), principalOf(req).userId],
      );
      kernel.outbound.invalidate();
      await kernel.cluster.broadcast(OUTBOUND_ALLOW_CHANGED, {});
      req.log.info({ event: 'platform.outbound_allow_updated', by: principalOf(req).userId, entries }, 'outbound allow-list updated');
      return { entries, fromConfig: kernel.config.outboundAllow };
    },
  );

  r.put(
    '/api/plugins/:id/enabled',
    {
      config: { access: { menu: 'settings', profiles: ['admin', 'superadmin'] } },
      schema: { operationId: 'setPluginEnabled', tags: ['plugins'], summary: 'Ativa ou desativa um plugin na empresa', params: z.object({ id: z.string().max(100) }), body: z.object({ enabled: z.boolean() }).strict(), response: { 200: z.object({ id: z.string(), enabled: z.boolean() }) } },
    },
    async (req) => {
      const def = kernel.plugins.find((p) => p.id === req.params.id);
      if (!def) throw new AppError('ERR_PLUGIN_UNKNOWN');
      await kernel.enablement.set(principalOf(req).tenantId, def.id, req.body.enabled);
      await kernel.bus.publish({ tenantId: principalOf(req).tenantId, event: 'plugins.changed', data: { id: def.id, enabled: req.body.enabled } });
      return { id: def.id, enabled: req.body.enabled };
    },
  );

  /**
   * A plugin's per-tenant settings (`definePlugin({ tenantSettings })`), as its
   * schema parses them (defaults filled in): any user of the tenant reads them,
   * admins change them. A plugin without a settings schema has none.
   */
  const pluginOf = (id: string, tenantId: number) =>
    kernel.enablement.isEnabled(tenantId, id).then((on) => {
      const def = kernel.plugins.find((p) => p.id === id);
      // A disabled plugin's settings are as invisible as its routes.
      if (!def || !on || !def.tenantSettings) throw new AppError('ERR_ROUTE_NOT_FOUND');
      return def as typeof def & { tenantSettings: NonNullable<typeof def.tenantSettings> };
    });
  const settingsAnswer = z.record(z.string(), z.unknown());
  r.get(
    '/api/plugins/:id/settings',
    { schema: { operationId: 'getPluginSettings', tags: ['plugins'], summary: 'Configurações de um plugin para a empresa', params: z.object({ id: z.string().max(100) }), response: { 200: settingsAnswer } } },
    async (req) => {
      const { tenantId } = principalOf(req);
      const def = await pluginOf(req.params.id, tenantId);
      const row = await kernel.db.pool.query<{ config: Record<string, unknown> }>('SELECT config FROM tenant_plugins WHERE tenant_id = $1 AND plugin_id = $2', [tenantId, def.id]);
      const parsed = def.tenantSettings.safeParse(row.rows[0]?.config ?? {});
      // Settings saved under an older schema fall back to the defaults rather than failing the screen.
      return parsed.success ? parsed.data : def.tenantSettings.parse({});
    },
  );
  r.put(
    '/api/plugins/:id/settings',
    {
      config: { access: { menu: 'settings', profiles: ['admin', 'superadmin'] } },
      schema: { operationId: 'updatePluginSettings', tags: ['plugins'], summary: 'Altera as configurações de um plugin para a empresa', params: z.object({ id: z.string().max(100) }), body: settingsAnswer, response: { 200: settingsAnswer } },
    },
    async (req) => {
      const { tenantId, userId } = principalOf(req);
      const def = await pluginOf(req.params.id, tenantId);
      const parsed = def.tenantSettings.safeParse(req.body);
      if (!parsed.success) {
        const details = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
        throw new AppError('ERR_VALIDATION', { details });
      }
      // A channel plugin's tenant-wide default for a provider base URL (WABA's `graphBaseUrl`) is held to the
      // same rule as the channel's own field (X1-1): the official host, an allowed one, or the superadmin's choice.
      for (const [type, pluginId] of kernel.channelPlugins) {
        const adapter = kernel.channelAdapters.get(type);
        if (pluginId !== def.id || !adapter?.providerUrls) continue;
        const saved = await kernel.db.pool.query<{ config: Record<string, unknown> | null }>('SELECT config FROM tenant_plugins WHERE tenant_id = $1 AND plugin_id = $2', [tenantId, def.id]);
        await checkProviderUrls(kernel, req.access!, adapter, parsed.data as Record<string, unknown>, saved.rows[0]?.config ?? {}, '');
      }
      await kernel.db.pool.query(
        `INSERT INTO tenant_plugins (tenant_id, plugin_id, enabled, config) VALUES ($1, $2, true, $3)
         ON CONFLICT (tenant_id, plugin_id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()`,
        [tenantId, def.id, JSON.stringify(parsed.data)],
      );
      req.log.info({ event: 'plugin.settings_updated', plugin: def.id, tenant: tenantId, by: userId }, 'plugin settings updated');
      await kernel.bus.publish({ tenantId, event: 'plugin.settings_updated', data: { id: def.id, settings: parsed.data } });
      return parsed.data;
    },
  );
}
