import type { EntitySchema } from '@mikro-orm/core';
import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../kernel.ts';
import type { MigrationDef } from '../sdk/types.ts';
import { Plan, Setting, Tenant, TenantPlugin, tenancyMigrations } from './tenancy/entities.ts';
import { tenancyRoutes } from './tenancy/routes.ts';
import { User, identityMigrations } from './identity/entities.ts';
import { authMigrations, sessionMigrations } from './identity/tokens.ts';
import { authRoutes } from './identity/auth-routes.ts';
import { userRoutes } from './identity/user-routes.ts';
import { accessRoutes } from './access/routes.ts';
import { docsSessionRoute } from '../http/docs.ts';
import { mailMigrations } from './mail/mailer.ts';
import { mailRoutes } from './mail/routes.ts';
import { platformMigrations, platformRoutes } from './platform/routes.ts';
import { realtimeRoutes } from '../realtime/routes.ts';
import { presenceMigrations } from '../realtime/presence.ts';
import { Channel, Contact, Queue, QuickMessage, Tag } from './conversations/entities.ts';
import { conversationMigrations } from './conversations/migrations.ts';
import { conversationRoutes } from './conversations/routes.ts';
import { catalogModule } from './catalog/index.ts';
import { contactsModule } from './contacts/index.ts';
import { dashboardModule } from './dashboard/routes.ts';
import { metricsModule } from './metrics/index.ts';
import { bulkModule } from './bulk/index.ts';
import { readModule } from './read/index.ts';
import { rateLimitMigrations } from '../http/rate-limit.ts';

export interface KernelModule {
  name: string;
  entities: EntitySchema<any, any>[];
  migrations: MigrationDef[];
  routes?: (app: FastifyInstance, kernel: Kernel) => Promise<void>;
}

/** Kernel modules in dependency order: their migrations run in this order, before any plugin's. */
export const kernelModules: KernelModule[] = [
  metricsModule,
  { name: 'http', entities: [], migrations: rateLimitMigrations },
  { name: 'tenancy', entities: [Tenant, TenantPlugin, Setting, Plan], migrations: tenancyMigrations, routes: tenancyRoutes },
  {
    name: 'identity',
    entities: [User],
    migrations: [...identityMigrations, ...sessionMigrations, ...authMigrations],
    routes: async (app, kernel) => {
      await authRoutes(app, kernel);
      await userRoutes(app, kernel);
    },
  },
  { name: 'mail', entities: [], migrations: mailMigrations, routes: mailRoutes },
  {
    name: 'access',
    entities: [],
    migrations: [],
    routes: async (app, kernel) => {
      await accessRoutes(app, kernel);
      await docsSessionRoute(app, kernel);
    },
  },
  { name: 'platform', entities: [], migrations: platformMigrations, routes: platformRoutes },
  { name: 'realtime', entities: [], migrations: presenceMigrations, routes: realtimeRoutes },
  { name: 'conversations', entities: [Queue, Tag, QuickMessage, Contact, Channel], migrations: conversationMigrations, routes: conversationRoutes },
  catalogModule,
  contactsModule,
  dashboardModule,
  bulkModule,
  readModule,
];
