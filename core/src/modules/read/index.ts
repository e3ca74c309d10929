import type pg from 'pg';
import type { KernelModule } from '../index.ts';
import type { ContactSummary, Profile, QueueSummary, TenantSummary, TicketSummary, UserSummary } from '../../sdk/types.ts';

/**
 * The kernel's stable read surface for plugins (docs/architecture.md "Reading
 * kernel data"): read services on `ctx` for lookups, and read-only views for
 * the plugins that must join or aggregate kernel data at volume (reports,
 * boards, lists with names). A plugin never reads, writes, indexes or alters
 * the kernel's tables themselves; the views keep their columns when the
 * tables change (a migration that changes a table recreates its view).
 * The views leave out secrets (password hashes, tokens, channel credentials)
 * and nothing in them belongs to a plugin.
 */
export const readMigrations = [
  {
    name: '0001_views',
    up: [
      `CREATE VIEW v_tenants AS SELECT id, name, status, blocked, plan_id, timezone, created_at FROM tenants`,
      `CREATE VIEW v_users AS SELECT id, tenant_id, name, email, profile, active, is_online, last_seen_at, created_at FROM users`,
      `CREATE VIEW v_queues AS SELECT id, tenant_id, name, color, created_at FROM queues`,
      `CREATE VIEW v_tags AS SELECT id, tenant_id, name, color, active, created_at FROM tags`,
      `CREATE VIEW v_channels AS SELECT id, tenant_id, type, name, number, status, is_default, created_at FROM channels WHERE deleted_at IS NULL`,
      `CREATE VIEW v_contacts AS
         SELECT id, tenant_id, name, number, email, identity, birthday, first_name, last_name, business_name,
                profile_pic_url, is_group, state, extra_info, blocked, chatbot_blocked, created_at, updated_at
           FROM contacts`,
      `CREATE VIEW v_contact_tags AS SELECT tenant_id, contact_id, tag_id FROM contact_tags`,
      `CREATE VIEW v_contact_wallets AS SELECT tenant_id, contact_id, user_id FROM contact_wallets`,
      `CREATE VIEW v_tickets AS
         SELECT id, tenant_id, contact_id, channel_id, queue_id, user_id, status, is_group, chatflow_id, unread_messages,
                last_message, last_message_at, answered, protocol, demand, value, notes, closed_at, created_at, updated_at
           FROM tickets`,
      `CREATE VIEW v_messages AS
         SELECT id, tenant_id, ticket_id, contact_id, channel_id, user_id, from_me, is_note, body, type, media_name, media_type,
                status, edited, deleted_at, created_at
           FROM messages`,
    ],
  },
  {
    // Feature columns leave the kernel's tables (docs/plugin-authoring.md "Moving a kernel column into a plugin"):
    // the values are kept here, readable through v_retired_values, for the owning plugin's migration to copy,
    // since kernel migrations run before any plugin's. Fresh installs retire empty columns.
    name: '0002_retired_values',
    up: [
      `CREATE TABLE retired_values (
        kind text NOT NULL,
        field text NOT NULL,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        record_id integer NOT NULL,
        value jsonb NOT NULL,
        retired_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, field, tenant_id, record_id))`,
      `CREATE VIEW v_retired_values AS SELECT kind, field, tenant_id, record_id, value, retired_at FROM retired_values`,
      // A contact's kanban lane belongs to the kanban plugin (kanban_contact_lanes).
      `INSERT INTO retired_values (kind, field, tenant_id, record_id, value)
         SELECT 'contact', 'kanban', tenant_id, id, to_jsonb(kanban) FROM contacts WHERE kanban IS NOT NULL`,
      `ALTER TABLE contacts DROP COLUMN kanban`,
    ],
  },
  {
    // The access paths the notes and protocols lists take through v_messages and v_tickets: indexes on
    // kernel tables are the kernel's. Installs where those plugins had created them keep them, renamed.
    name: '0003_list_indexes',
    up: [
      `ALTER INDEX IF EXISTS notes_messages_idx RENAME TO messages_notes_idx`,
      `CREATE INDEX IF NOT EXISTS messages_notes_idx ON messages (tenant_id, id DESC) WHERE is_note AND deleted_at IS NULL`,
      `ALTER INDEX IF EXISTS protocols_tickets_idx RENAME TO tickets_protocol_list_idx`,
      `CREATE INDEX IF NOT EXISTS tickets_protocol_list_idx ON tickets (tenant_id, id DESC) WHERE protocol IS NOT NULL`,
    ],
  },
];

export const readModule: KernelModule = { name: 'read', entities: [], migrations: readMigrations };

const userOut = (r: { id: number; name: string; email: string; profile: Profile; active: boolean; is_online: boolean }): UserSummary => ({
  id: r.id,
  name: r.name,
  email: r.email,
  profile: r.profile,
  active: r.active,
  isOnline: r.is_online,
});

/** The read services a plugin context gets (`ctx.users`, `ctx.tenants`, `ctx.queues`, `ctx.tickets`, and `ctx.contacts.get/list`). */
export function readServices(pool: pg.Pool) {
  return {
    users: {
      async list(tenantId: number, opts: { ids?: number[]; activeOnly?: boolean } = {}): Promise<UserSummary[]> {
        const r = await pool.query(
          `SELECT id, name, email, profile, active, is_online FROM v_users
            WHERE tenant_id = $1 AND ($2::int[] IS NULL OR id = ANY($2::int[])) AND (NOT $3 OR active)
            ORDER BY lower(name), id`,
          [tenantId, opts.ids ?? null, opts.activeOnly ?? false],
        );
        return r.rows.map(userOut);
      },
      async get(tenantId: number, id: number): Promise<UserSummary | undefined> {
        const r = await pool.query('SELECT id, name, email, profile, active, is_online FROM v_users WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
        return r.rows[0] ? userOut(r.rows[0]) : undefined;
      },
    },
    tenants: {
      async list(opts: { ids?: number[] } = {}): Promise<TenantSummary[]> {
        const r = await pool.query<TenantSummary>(
          `SELECT id, name, status, blocked FROM v_tenants WHERE ($1::int[] IS NULL OR id = ANY($1::int[])) ORDER BY id`,
          [opts.ids ?? null],
        );
        return r.rows;
      },
      async get(id: number): Promise<TenantSummary | undefined> {
        const r = await pool.query<TenantSummary>('SELECT id, name, status, blocked FROM v_tenants WHERE id = $1', [id]);
        return r.rows[0];
      },
    },
    queues: {
      async list(tenantId: number): Promise<QueueSummary[]> {
        const r = await pool.query<QueueSummary>('SELECT id, name, color FROM v_queues WHERE tenant_id = $1 ORDER BY lower(name), id', [tenantId]);
        return r.rows;
      },
    },
    tickets: {
      async get(tenantId: number, id: number): Promise<TicketSummary | undefined> {
        return (await ticketRows(pool, tenantId, 'id = $2', [id]))[0];
      },
      async byProtocol(tenantId: number, protocol: string): Promise<TicketSummary | undefined> {
        return (await ticketRows(pool, tenantId, 'protocol = $2', [protocol]))[0];
      },
    },
    contacts: {
      async get(tenantId: number, id: number): Promise<ContactSummary | undefined> {
        return (await contactRows(pool, tenantId, [id]))[0];
      },
      async list(tenantId: number, ids: number[]): Promise<ContactSummary[]> {
        return ids.length ? contactRows(pool, tenantId, ids) : [];
      },
    },
  };
}

async function ticketRows(pool: pg.Pool, tenantId: number, where: string, params: unknown[]): Promise<TicketSummary[]> {
  const r = await pool.query(
    `SELECT t.id, t.contact_id, t.channel_id, t.queue_id, t.user_id, t.status, t.protocol, t.created_at, t.closed_at, c.name AS contact_name
       FROM v_tickets t JOIN v_contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
      WHERE t.tenant_id = $1 AND t.${where}`,
    [tenantId, ...params],
  );
  return r.rows.map((t) => ({
    id: t.id,
    contactId: t.contact_id,
    contactName: t.contact_name,
    channelId: t.channel_id,
    queueId: t.queue_id,
    userId: t.user_id,
    status: t.status,
    protocol: t.protocol,
    createdAt: t.created_at.toISOString(),
    closedAt: t.closed_at?.toISOString() ?? null,
  }));
}

async function contactRows(pool: pg.Pool, tenantId: number, ids: number[]): Promise<ContactSummary[]> {
  const r = await pool.query(
    `SELECT c.id, c.name, c.number, c.email, c.profile_pic_url, c.is_group, c.updated_at,
            COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) ORDER BY g.name)
                        FROM v_contact_tags ct JOIN v_tags g ON g.tenant_id = ct.tenant_id AND g.id = ct.tag_id
                       WHERE ct.tenant_id = c.tenant_id AND ct.contact_id = c.id), '[]') AS tags,
            COALESCE((SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.name)
                        FROM v_contact_wallets cw JOIN v_users u ON u.tenant_id = cw.tenant_id AND u.id = cw.user_id
                       WHERE cw.tenant_id = c.tenant_id AND cw.contact_id = c.id), '[]') AS wallets
       FROM v_contacts c WHERE c.tenant_id = $1 AND c.id = ANY($2::int[]) ORDER BY c.id`,
    [tenantId, ids],
  );
  return r.rows.map((c) => ({
    id: c.id,
    name: c.name,
    number: c.number,
    email: c.email,
    profilePicUrl: c.profile_pic_url,
    isGroup: c.is_group,
    tags: c.tags,
    wallets: c.wallets,
    updatedAt: c.updated_at.toISOString(),
  }));
}
