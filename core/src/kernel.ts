import type { FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { AtendeConfig } from './config.ts';
import type { Database } from './db/orm.ts';
import type { EventBusPort, JobsPort, MenuDef, PluginDefinition, Principal, RouteAccess } from './sdk/types.ts';
import type { RealtimeHub } from './realtime/hub.ts';
import type { PluginEnablement } from './plugins/enablement.ts';
import type { BullJobs } from './jobs/bullmq.ts';
import type { ChannelAdapter } from './sdk/channel.ts';
import type { LocalMediaStore } from './storage/local.ts';
import type { ClusterPort } from './events/cluster.ts';
import type { OutboundGuard } from './net/outbound.ts';
import type { RecordExtensions } from './plugins/records.ts';
import type { TemplateProvider } from './modules/conversations/templates.ts';

/** An ordered list of async hooks; one failing hook is logged and does not stop the others. */
export class HookList<T> {
  private readonly fns: ((arg: T) => Promise<void> | void)[] = [];
  constructor(private readonly logger: Logger, private readonly name: string) {}
  add(fn: (arg: T) => Promise<void> | void): void {
    this.fns.push(fn);
  }
  async run(arg: T): Promise<void> {
    for (const fn of this.fns) {
      try {
        await fn(arg);
      } catch (err) {
        this.logger.warn({ err: (err as Error).message, hook: this.name }, 'hook failed');
      }
    }
  }
}

export interface AfterInbound {
  tenantId: number;
  ticketId: number;
  contactId: number;
  created: boolean;
  fromMe: boolean;
  ratingClosed?: boolean;
  message: { id: string; body: string; type: string };
  /** The ticket as it stood after the message was stored, so hooks need not read it again. */
  ticket?: { channelId: number | null; status: string; userId: number | null; chatflowId: number | null; ratingRequested?: boolean };
}

/** Everything the kernel owns, built once per process by buildApp. */
export interface Kernel {
  config: AtendeConfig;
  logger: Logger;
  db: Database;
  bus: EventBusPort;
  /** Node-to-node messages, apart from the tenant event bus. */
  cluster: ClusterPort;
  /** Contributions to extension points, by point name (`ctx.extensions`). */
  extensions: Map<string, { pluginId: string; value: unknown }[]>;
  jobs: JobsPort & Pick<BullJobs, 'start' | 'close' | 'definedNames'>;
  realtime: RealtimeHub;
  plugins: PluginDefinition[];
  enablement: PluginEnablement;
  /** Kernel menus plus every plugin's menus, by key. */
  menus: Map<string, MenuDef & { pluginId?: string }>;
  jwtSecret: string;
  /** Channel adapters registered by channel plugins, by type. */
  channelAdapters: Map<string, ChannelAdapter>;
  /** The plugin that registered each channel type: a type whose plugin a tenant has switched off is not offered to it. */
  channelPlugins: Map<string, string>;
  storage: LocalMediaStore;
  /** The one guarded client for destinations a tenant can influence (docs/security.md). */
  outbound: OutboundGuard;
  hooks: { afterInbound: HookList<AfterInbound> };
  /** Template variables whose values live in plugin tables (`{{kanban}}`), registered through `ctx.templates.provide`. */
  templateProviders: Map<string, { pluginId: string; provide: TemplateProvider }>;
  /** Fields plugins add to kernel records (`ctx.records.extend`), applied wherever the kernel serialises those records. */
  records: RecordExtensions;
  /** Every route as registered (method, url, access config, schema): the R1/R2 suites and the API docs read it. */
  routes: { method: string; url: string; access?: RouteAccess; pluginId?: string; schema?: Record<string, unknown>; websocket?: boolean }[];
  /** Hooks run by graceful shutdown, in order. */
  onClose: (() => Promise<void>)[];
  state: { shuttingDown: boolean; startedAt: number };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal & { sid?: string };
    /** The exact bytes of a JSON body, for webhook signatures. */
    rawBody?: Buffer;
    /** Request-scoped EntityManager (tenant filter set from the verified token). */
    em: EntityManager;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Set by the plugin host on routes a plugin registers. */
    pluginId?: string;
    /**
     * The route receives a provider's webhook (verified by its own signature over `rawBody`):
     * NUL characters in the JSON are stripped from the parsed strings instead of refused with
     * a 400, which the provider would redeliver forever.
     */
    webhook?: boolean;
  }
  interface FastifyInstance {
    kernel: Kernel;
  }
}

export type { FastifyRequest };
