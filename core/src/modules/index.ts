import type { EntitySchema } from '@mikro-orm/core';
import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../kernel.ts';
import type { MigrationDef } from '../sdk/types.ts';
import { Setting, Tenant, TenantPlugin, tenancyMigrations } from './tenancy/entities.ts';
import { User, identityMigrations } from './identity/entities.ts';
import { sessionMigrations } from './identity/tokens.ts';
import { platformRoutes } from './platform/routes.ts';
import { realtimeRoutes } from '../realtime/routes.ts';
import { Channel, Contact, Queue, QuickMessage, Tag } from './conversations/entities.ts';
import { conversationMigrations } from './conversations/migrations.ts';
import { conversationRoutes } from './conversations/routes.ts';
import { catalogModule } from './catalog/index.ts';
import { contactsModule } from './contacts/index.ts';

export interface KernelModule {
  name: string;
  entities: EntitySchema<any, any>[];
  migrations: MigrationDef[];
  routes?: (app: FastifyInstance, kernel: Kernel) => Promise<void>;
}

/** Kernel modules in dependency order: their migrations run in this order, before any plugin's. */
export const kernelModules: KernelModule[] = [
  { name: 'tenancy', entities: [Tenant, TenantPlugin, Setting], migrations: tenancyMigrations },
  { name: 'identity', entities: [User], migrations: [...identityMigrations, ...sessionMigrations] },
  { name: 'platform', entities: [], migrations: [], routes: platformRoutes },
  { name: 'realtime', entities: [], migrations: [], routes: realtimeRoutes },
  { name: 'conversations', entities: [Queue, Tag, QuickMessage, Contact, Channel], migrations: conversationMigrations, routes: conversationRoutes },
  catalogModule,
  contactsModule,
];
