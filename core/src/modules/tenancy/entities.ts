import { defineEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant-filter.ts';

export interface TenantMenus {
  groups: boolean; massSend: boolean; kanban: boolean; tasks: boolean; api: boolean;
  chatbot: boolean; reports: boolean; campaigns: boolean; chat: boolean; teams: boolean;
}

export const DEFAULT_TENANT_MENUS: TenantMenus = {
  groups: true, massSend: true, kanban: true, tasks: true, api: true,
  chatbot: true, reports: true, campaigns: true, chat: true, teams: true,
};

export const Tenant = defineEntity({
  name: 'Tenant',
  tableName: 'tenants',
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    status: p.string().default('active'),
    name: p.string(),
    maxUsers: p.integer().default(10),
    maxConnections: p.integer().default(5),
    identity: p.string().nullable(),
    asaasActive: p.boolean().default(false),
    asaasToken: p.string().nullable().hidden(),
    asaasCustomerId: p.string().nullable(),
    hideNonOfficial: p.boolean().default(false),
    trial: p.boolean().default(false),
    trialDays: p.integer().default(0),
    trialEndsAt: p.datetime().nullable(),
    blocked: p.boolean().default(false),
    menus: p.json<TenantMenus>().default(JSON.stringify(DEFAULT_TENANT_MENUS)),
    planId: p.integer().nullable(),
    timezone: p.string().default('America/Sao_Paulo'),
    termsAcceptedAt: p.datetime().nullable(),
    /** Appearance colours: a list of `{name: value}` maps (spec core.md §3 "System colours"). */
    systemColors: p.json<Record<string, string>[]>().default('[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});

export const TenantPlugin = defineEntity({
  name: 'TenantPlugin',
  tableName: 'tenant_plugins',
  filters: tenantFilter,
  properties: (p) => ({
    tenantId: p.integer().primary(),
    pluginId: p.string().primary(),
    enabled: p.boolean(),
    config: p.json<Record<string, unknown>>().default('{}'),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});

export const Setting = defineEntity({
  name: 'Setting',
  tableName: 'settings',
  filters: tenantFilter,
  properties: (p) => ({
    tenantId: p.integer().primary(),
    key: p.string().primary(),
    value: p.text(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});

/** A plan offered at signup and assigned to tenants (administration.md §3 "Plan"). */
export const Plan = defineEntity({
  name: 'Plan',
  tableName: 'plans',
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    name: p.string(),
    value: p.decimal('number'),
    users: p.integer(),
    connections: p.integer(),
    trial: p.boolean().default(false),
    trialDays: p.integer().default(0),
    /** Inactive plans stay on their tenants but are not offered at signup. */
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});

export const tenancyMigrations = [
  {
    name: '0001_init',
    up: [
      `CREATE TABLE tenants (
        id serial PRIMARY KEY,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
        name text NOT NULL,
        max_users integer NOT NULL DEFAULT 10,
        max_connections integer NOT NULL DEFAULT 5,
        identity text,
        asaas_active boolean NOT NULL DEFAULT false,
        asaas_token text,
        asaas_customer_id text,
        hide_non_official boolean NOT NULL DEFAULT false,
        trial boolean NOT NULL DEFAULT false,
        trial_days integer NOT NULL DEFAULT 0,
        trial_ends_at timestamptz,
        blocked boolean NOT NULL DEFAULT false,
        menus jsonb NOT NULL DEFAULT '{}',
        plan_id integer,
        timezone text NOT NULL DEFAULT 'America/Sao_Paulo',
        terms_accepted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE TABLE tenant_plugins (
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        plugin_id text NOT NULL,
        enabled boolean NOT NULL,
        config jsonb NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, plugin_id))`,
      `CREATE TABLE settings (
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key text NOT NULL,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, key))`,
      `CREATE TABLE install_secrets (key text PRIMARY KEY, value text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    ],
  },
  {
    name: '0002_plans_colors_api_tokens',
    up: [
      `CREATE TABLE plans (
        id serial PRIMARY KEY,
        name text NOT NULL,
        value numeric(12,2) NOT NULL DEFAULT 0 CHECK (value >= 0),
        users integer NOT NULL CHECK (users >= 1),
        connections integer NOT NULL CHECK (connections >= 0),
        trial boolean NOT NULL DEFAULT false,
        trial_days integer NOT NULL DEFAULT 0 CHECK (trial_days >= 0),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `ALTER TABLE tenants ADD CONSTRAINT tenants_plan_fk FOREIGN KEY (plan_id) REFERENCES plans(id) ON DELETE SET NULL`,
      `ALTER TABLE tenants ADD COLUMN system_colors jsonb NOT NULL DEFAULT '[]'`,
      // The trial sweep reads only trial tenants past their end.
      `CREATE INDEX tenants_trial_idx ON tenants (trial_ends_at) WHERE trial`,
      `CREATE TABLE tenant_api_tokens (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        token_prefix text NOT NULL,
        created_by integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        rotated_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz)`,
      `CREATE INDEX tenant_api_tokens_tenant_idx ON tenant_api_tokens (tenant_id, id)`,
    ],
  },
];
