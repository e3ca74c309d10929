import { defineEntity } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant-filter.ts';
import type { Profile } from '../../sdk/types.ts';

export interface UserConfigs {
  isDark?: boolean;
  filtrosAtendimento?: Record<string, unknown>;
  sounds?: boolean;
  desktopNotifications?: boolean;
}

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    name: p.string(),
    email: p.string(),
    passwordHash: p.string().hidden().lazy(),
    profile: p.string().$type<Profile>().default('user'),
    queues: p.json<number[]>().default('[]'),
    whatsappAllowed: p.json<number[]>().default('[]'),
    isOnline: p.boolean().default(false),
    blockWavoip: p.boolean().default(false),
    menus: p.json<Record<string, boolean>>().default('{}'),
    configs: p.json<UserConfigs>().default('{}'),
    active: p.boolean().default(true),
    /** Bumped on logout-everywhere, disable or password change: tokens carrying an older value are refused. */
    tokenVersion: p.integer().default(0),
    lastSeenAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});

export const identityMigrations = [
  {
    name: '0001_init',
    up: [
      `CREATE TABLE users (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        email text NOT NULL,
        password_hash text NOT NULL,
        profile text NOT NULL DEFAULT 'user' CHECK (profile IN ('user','super','admin','superadmin')),
        queues jsonb NOT NULL DEFAULT '[]',
        whatsapp_allowed jsonb NOT NULL DEFAULT '[]',
        is_online boolean NOT NULL DEFAULT false,
        block_wavoip boolean NOT NULL DEFAULT false,
        menus jsonb NOT NULL DEFAULT '{}',
        configs jsonb NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        token_version integer NOT NULL DEFAULT 0,
        last_seen_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE UNIQUE INDEX users_email_key ON users (lower(email))`,
      `CREATE INDEX users_tenant_idx ON users (tenant_id, id)`,
    ],
  },
  {
    // The status an agent chooses (U2 "presence"): online, on a pause (with its reason) or offline.
    // Whether they have the app open at all stays `is_online` (realtime/presence.ts).
    name: '0002_presence_status',
    up: [
      `ALTER TABLE users
         ADD COLUMN presence text NOT NULL DEFAULT 'online' CHECK (presence IN ('online','paused','offline')),
         ADD COLUMN pause_reason text,
         ADD COLUMN presence_since timestamptz NOT NULL DEFAULT now()`,
    ],
  },
  {
    // X1-13: an admin who adds a user whose address another tenant holds gets the answer any new
    // user gets; the row is kept, flagged, and never logs in (login looks only at unflagged rows).
    // An address stays unique among the rows that log in, and within each tenant.
    name: '0003_email_held_elsewhere',
    up: [
      `ALTER TABLE users ADD COLUMN email_held_elsewhere boolean NOT NULL DEFAULT false`,
      `DROP INDEX users_email_key`,
      `CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE NOT email_held_elsewhere`,
      `CREATE UNIQUE INDEX users_tenant_email_key ON users (tenant_id, lower(email))`,
    ],
  },
];
