import type { FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { AtendeConfig } from './config.ts';
import type { Database } from './db/orm.ts';
import type { EventBusPort, JobsPort, MenuDef, PluginDefinition, Principal, RouteAccess } from './sdk/types.ts';
import type { RealtimeHub } from './realtime/hub.ts';
import type { PluginEnablement } from './plugins/enablement.ts';
import type { BullJobs } from './jobs/bullmq.ts';

/** Everything the kernel owns, built once per process by buildApp. */
export interface Kernel {
  config: AtendeConfig;
  logger: Logger;
  db: Database;
  bus: EventBusPort;
  jobs: JobsPort & Pick<BullJobs, 'start' | 'close'>;
  realtime: RealtimeHub;
  plugins: PluginDefinition[];
  enablement: PluginEnablement;
  /** Kernel menus plus every plugin's menus, by key. */
  menus: Map<string, MenuDef & { pluginId?: string }>;
  jwtSecret: string;
  /** Hooks run by graceful shutdown, in order. */
  onClose: (() => Promise<void>)[];
  state: { shuttingDown: boolean; startedAt: number };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal & { sid?: string };
    /** Request-scoped EntityManager (tenant filter set from the verified token). */
    em: EntityManager;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Set by the plugin host on routes a plugin registers. */
    pluginId?: string;
  }
  interface FastifyInstance {
    kernel: Kernel;
  }
}

export type { FastifyRequest };
