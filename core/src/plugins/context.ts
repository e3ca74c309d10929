import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kernel } from '../kernel.ts';
import type { PluginContext, PluginDefinition, Principal, RecordExtension } from '../sdk/types.ts';
import { menuAllowed, type AccessSubject } from '../modules/access/menus.ts';
import { viewerCanSee } from '../modules/conversations/visibility.ts';
import { loadTicket } from '../modules/conversations/ingest.ts';
import { AppError, registerPluginErrors } from '../errors.ts';
import { ingestInbound, applyAck } from '../modules/conversations/ingest.ts';
import { findChannel, setChannelStatus, channelRuntime } from '../modules/conversations/channels.ts';
import { authState, channelSessions } from '../modules/channels/sessions.ts';
import { agentTools } from '../modules/conversations/agent-tools.ts';
import { bulkSendFor } from '../modules/bulk/service.ts';
import { updateContact } from '../modules/contacts/service.ts';
import { TEMPLATE_VARIABLES, renderFor } from '../modules/conversations/templates.ts';
import { readServices } from '../modules/read/index.ts';

/**
 * Mounts a plugin: its routes live under `/api/plugins/<id>` (`ctx.http`) or,
 * for paths the spec fixes, under `/api` (`ctx.api`). Both scopes answer 404
 * for a tenant that has the plugin disabled, exactly like a missing route.
 */
export async function mountPlugin(root: FastifyInstance, kernel: Kernel, def: PluginDefinition): Promise<void> {
  if (def.contract) {
    if (def.contract.id !== def.id) throw new Error(`plugin ${def.id} passes the contract of "${def.contract.id}"`);
    registerPluginErrors(def.id, def.contract.errors);
  }
  await root.register(
    async (apiScope) => {
      apiScope.addHook('onRoute', (route) => {
        route.config = { ...(route.config as object), pluginId: def.id } as typeof route.config;
      });
      apiScope.addHook('onRequest', async (req) => {
        if (req.principal && !(await kernel.enablement.isEnabled(req.principal.tenantId, def.id))) throw new AppError('ERR_ROUTE_NOT_FOUND');
      });
      await apiScope.register(
        async (pluginScope) => {
          await def.register(makePluginContext(pluginScope, apiScope, kernel, def));
        },
        { prefix: `/plugins/${def.id}` },
      );
    },
    { prefix: '/api' },
  );
}

export function makePluginContext(http: FastifyInstance, api: FastifyInstance, kernel: Kernel, def: PluginDefinition): PluginContext {
  const logger = kernel.logger.child({ plugin: def.id });
  const read = readServices(kernel.db.pool);
  // Cluster topics are the plugin's own: two plugins never hear each other's frames.
  const topic = (t: string) => `${def.id}:${t}`;
  return {
    id: def.id,
    http: http as PluginContext['http'],
    api: api as PluginContext['api'],
    logger,
    config: kernel.config,
    jobs: {
      define: (name, handler, opts) => kernel.jobs.define(`${def.id}.${name}`, handler, opts),
      enqueue: (name, data, opts) => kernel.jobs.enqueue(`${def.id}.${name}`, data, opts),
      schedule: (name, key, repeat, data) => kernel.jobs.schedule(`${def.id}.${name}`, key, repeat, data),
      counts: (name) => kernel.jobs.counts(`${def.id}.${name}`),
      health: () => kernel.jobs.health(),
    },
    events: {
      publish: async (tenantId, event, data, rooms) => {
        await kernel.bus.publish({ tenantId, event, data, rooms });
      },
      on: (event, handler) => {
        kernel.bus.subscribe((e) => {
          if (e.event === event) void Promise.resolve(handler(e as never)).catch((err) => logger.warn({ err: (err as Error).message, event }, 'event handler failed'));
        });
      },
    },
    cluster: {
      get nodeId() {
        return kernel.cluster.nodeId;
      },
      broadcast: (t, data) => kernel.cluster.broadcast(topic(t), data),
      on: (t, handler) => kernel.cluster.on(topic(t), handler),
      handle: (t, handler) => kernel.cluster.handle(topic(t), handler),
      request: (t, data, opts) => kernel.cluster.request(topic(t), data, opts),
    },
    extensions: {
      contribute: (point, value) => {
        const list = kernel.extensions.get(point) ?? [];
        // Tests build several apps in one process: a plugin contributes once per kernel.
        list.push({ pluginId: def.id, value });
        kernel.extensions.set(point, list);
      },
      list: (point) => (kernel.extensions.get(point) ?? []) as never,
    },
    query: async (q) => (await kernel.db.pool.query(q.text, q.values)).rows as never,
    realtime: kernel.realtime,
    settings: {
      get: async (tenantId, key) => {
        const r = await kernel.db.pool.query<{ value: string }>('SELECT value FROM settings WHERE tenant_id = $1 AND key = $2', [tenantId, key]);
        return r.rows[0]?.value as never;
      },
      set: async (tenantId, key, value) => {
        await kernel.db.pool.query(
          'INSERT INTO settings (tenant_id, key, value) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()',
          [tenantId, key, typeof value === 'string' ? value : JSON.stringify(value)],
        );
      },
    },
    sql: async (text, params) => (await kernel.db.pool.query(text, params)) as never,
    db: (req: FastifyRequest) => {
      if (!req.em) throw new AppError('ERR_LOGIN_REQUIRED');
      return req.em;
    },
    dbForTenant: (tenantId) => kernel.db.forTenant(tenantId),
    isEnabled: (tenantId) => kernel.enablement.isEnabled(tenantId, def.id),
    tenantSettings: async <T,>(tenantId: number) => {
      const r = await kernel.db.pool.query<{ config: Record<string, unknown> }>('SELECT config FROM tenant_plugins WHERE tenant_id = $1 AND plugin_id = $2', [tenantId, def.id]);
      const raw = r.rows[0]?.config ?? {};
      return (def.tenantSettings ? def.tenantSettings.parse(raw) : raw) as T;
    },
    channels: {
      register: (adapter) => {
        if (kernel.channelAdapters.has(adapter.type)) throw new Error(`channel type ${adapter.type} registered twice`);
        kernel.channelAdapters.set(adapter.type, adapter);
        kernel.channelPlugins.set(adapter.type, def.id);
      },
      get: (type) => kernel.channelAdapters.get(type),
      list: () => [...kernel.channelAdapters.values()],
      find: (channelId, opts) => findChannel(kernel, channelId, opts?.maxAgeMs),
      setStatus: (tenantId, channelId, status, extra) => setChannelStatus(kernel, tenantId, channelId, status, extra),
      runtime: channelRuntime(kernel),
      sessions: channelSessions(kernel),
      authState: (channelId) => authState(kernel, channelSessions(kernel), channelId),
    },
    storage: { save: (tenantId, name, mimetype, stream) => kernel.storage.save(tenantId, name, mimetype, stream) },
    outbound: kernel.outbound,
    messages: {
      ingest: (msg) => ingestInbound(kernel, msg),
      ack: (tenantId, channelId, providerId, status, reason) => applyAck(kernel, tenantId, channelId, providerId, status, reason),
    },
    hooks: { afterInbound: { add: (fn) => kernel.hooks.afterInbound.add(fn) } },
    agentTools: agentTools(kernel),
    bulkSend: bulkSendFor(kernel, def.id),
    contacts: {
      ...read.contacts,
      update: (actor, contactId, { fields, ...own }) => {
        // Only plugin fields pass through `fields`: the kernel's own columns change through their named options.
        const { values } = kernel.records.split('contact', fields ?? {});
        return updateContact(kernel, kernel.db.forTenant(actor.tenantId), actor, contactId, { ...own, ...values }, 'dmy');
      },
    },
    users: read.users,
    tenants: read.tenants,
    queues: read.queues,
    tickets: read.tickets,
    visibility: {
      mayUseMenu: (who, menuKey) => {
        const menu = kernel.menus.get(menuKey);
        // Recipients and principals carry the access fields at run time (identity/tokens.ts ResolvedPrincipal).
        const s = who as Partial<AccessSubject> & Principal;
        return !!menu && !!s.userMenus && !!s.tenantMenus && menuAllowed(menu, { profile: s.profile, userMenus: s.userMenus, tenantMenus: s.tenantMenus, tenantBlocked: !!s.tenantBlocked, supervisorDemoted: s.supervisorDemoted });
      },
      maySeeTicket: async (who, ticketId) => {
        const t = await loadTicket(kernel, who.tenantId, ticketId);
        return !!t && (await viewerCanSee(kernel, who, t));
      },
    },
    templates: {
      render: (tenantId, template, target) => renderFor(kernel.db.pool, tenantId, template, target, kernel.templateProviders),
      provide: (variable, provider) => {
        if (!/^[a-zA-Z][a-zA-Z0-9_]*$/.test(variable)) throw new Error(`plugin ${def.id}: template variable "${variable}" must be a plain name`);
        if ((TEMPLATE_VARIABLES as readonly string[]).includes(variable)) throw new Error(`plugin ${def.id}: template variable "${variable}" is the kernel's`);
        const owner = kernel.templateProviders.get(variable)?.pluginId;
        if (owner) throw new Error(`plugin ${def.id}: template variable "${variable}" is already provided by plugin ${owner}`);
        // A tenant with the plugin off gets the variable empty, as if the value were unknown.
        kernel.templateProviders.set(variable, {
          pluginId: def.id,
          provide: async (facts) => ((await kernel.enablement.isEnabled(facts.tenantId, def.id)) ? provider(facts) : ''),
        });
      },
    },
    records: {
      extend: (kind, ext) => kernel.records.extend(def.id, kind, ext as RecordExtension),
    },
  };
}
