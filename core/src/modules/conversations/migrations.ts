import type { MigrationDef } from '../../sdk/types.ts';
import { INGEST_BATCH_FUNCTION, INGEST_BATCH_FUNCTION_V2, INGEST_FUNCTIONS, INGEST_ONE_FUNCTION, INGEST_ONE_FUNCTION_V2 } from './ingest-sql.ts';

/**
 * The conversation core's tables. Every index starts with tenant_id: every
 * query is per tenant, and at 1M tickets a tenant-less index would be read
 * across every tenant's rows.
 */
export const conversationMigrations: MigrationDef[] = [
  {
    name: '0001_init',
    up: [
      `CREATE TABLE queues (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        color text NOT NULL DEFAULT '#4C6EF5',
        greeting_message text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE UNIQUE INDEX queues_name_key ON queues (tenant_id, lower(name))`,
      `CREATE TABLE tags (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        color text NOT NULL DEFAULT '#868E96',
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE UNIQUE INDEX tags_name_key ON tags (tenant_id, lower(name))`,
      `CREATE TABLE channels (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        type text NOT NULL,
        name text NOT NULL,
        number text,
        status text NOT NULL DEFAULT 'disconnected',
        is_default boolean NOT NULL DEFAULT false,
        queue_id integer REFERENCES queues(id) ON DELETE SET NULL,
        user_id integer REFERENCES users(id) ON DELETE SET NULL,
        chatflow_id integer,
        farewell_message text,
        closing_keyword text,
        config jsonb NOT NULL DEFAULT '{}',
        secrets jsonb NOT NULL DEFAULT '{}',
        qrcode text,
        retries integer NOT NULL DEFAULT 0,
        status_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz)`,
      `CREATE INDEX channels_tenant_idx ON channels (tenant_id, id) WHERE deleted_at IS NULL`,
      `CREATE TABLE contacts (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text NOT NULL,
        number text,
        email text,
        identity text,
        birthday date,
        first_name text,
        last_name text,
        business_name text,
        messenger_id text,
        instagram_id text,
        hub_id text,
        telegram_id text,
        profile_pic_url text,
        is_group boolean NOT NULL DEFAULT false,
        kanban integer,
        state text,
        extra_info jsonb NOT NULL DEFAULT '[]',
        blocked boolean NOT NULL DEFAULT false,
        chatbot_blocked boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE UNIQUE INDEX contacts_number_key ON contacts (tenant_id, number) WHERE number IS NOT NULL`,
      `CREATE INDEX contacts_name_idx ON contacts (tenant_id, lower(name), id)`,
      // Maps every provider identity (phone, WhatsApp LID, Telegram chat, Instagram/Messenger ids)
      // to one contact, so one person never becomes two contacts.
      `CREATE TABLE contact_identities (
        tenant_id integer NOT NULL,
        kind text NOT NULL,
        external_id text NOT NULL,
        contact_id integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        PRIMARY KEY (tenant_id, kind, external_id))`,
      `CREATE INDEX contact_identities_contact_idx ON contact_identities (tenant_id, contact_id)`,
      `CREATE TABLE contact_tags (
        tenant_id integer NOT NULL,
        contact_id integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        tag_id integer NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        PRIMARY KEY (tenant_id, contact_id, tag_id))`,
      `CREATE INDEX contact_tags_tag_idx ON contact_tags (tenant_id, tag_id)`,
      `CREATE TABLE contact_wallets (
        tenant_id integer NOT NULL,
        contact_id integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (tenant_id, contact_id, user_id))`,
      `CREATE INDEX contact_wallets_user_idx ON contact_wallets (tenant_id, user_id)`,
      `CREATE TABLE tickets (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        contact_id integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        channel_id integer REFERENCES channels(id) ON DELETE SET NULL,
        queue_id integer REFERENCES queues(id) ON DELETE SET NULL,
        user_id integer REFERENCES users(id) ON DELETE SET NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('open','pending','closed','schedule')),
        is_group boolean NOT NULL DEFAULT false,
        chatbot boolean NOT NULL DEFAULT false,
        chatflow_id integer,
        unread_messages integer NOT NULL DEFAULT 0,
        last_message text,
        last_message_at timestamptz NOT NULL DEFAULT now(),
        answered boolean NOT NULL DEFAULT false,
        protocol text,
        demand text,
        value numeric(14,2),
        notes text,
        rating smallint,
        integrations jsonb NOT NULL DEFAULT '{}',
        rating_requested_at timestamptz,
        farewell_sent_at timestamptz,
        closed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      // One open or pending ticket per contact and channel: the database refuses the duplicate a race would create.
      `CREATE UNIQUE INDEX tickets_one_active_key ON tickets (tenant_id, contact_id, COALESCE(channel_id, 0)) WHERE status IN ('open','pending')`,
      `CREATE INDEX tickets_list_idx ON tickets (tenant_id, status, last_message_at DESC, id DESC)`,
      `CREATE INDEX tickets_queue_idx ON tickets (tenant_id, queue_id, status, last_message_at DESC, id DESC)`,
      // Tab counts of open/pending tickets read only this index (index-only scan), never the table.
      `CREATE INDEX tickets_active_counts_idx ON tickets (tenant_id, status) INCLUDE (unread_messages, queue_id, user_id, is_group, chatbot) WHERE status IN ('open','pending')`,
      `CREATE INDEX tickets_user_idx ON tickets (tenant_id, user_id, status, last_message_at DESC, id DESC)`,
      `CREATE INDEX tickets_contact_idx ON tickets (tenant_id, contact_id, id DESC)`,
      // Foreign-key actions look rows up by the child column alone; without these a contact
      // or ticket delete would scan every tenant's tickets or messages.
      `CREATE INDEX tickets_contact_fk_idx ON tickets (contact_id)`,
      `CREATE UNIQUE INDEX tickets_protocol_key ON tickets (tenant_id, protocol) WHERE protocol IS NOT NULL`,
      `CREATE TABLE ticket_logs (
        id bigserial PRIMARY KEY,
        tenant_id integer NOT NULL,
        ticket_id integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        user_id integer,
        type text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE INDEX ticket_logs_ticket_idx ON ticket_logs (tenant_id, ticket_id, id)`,
      `CREATE TABLE messages (
        id bigserial PRIMARY KEY,
        tenant_id integer NOT NULL,
        ticket_id integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        contact_id integer,
        channel_id integer,
        user_id integer,
        provider_id text,
        from_me boolean NOT NULL DEFAULT false,
        is_note boolean NOT NULL DEFAULT false,
        body text NOT NULL DEFAULT '',
        type text NOT NULL DEFAULT 'chat',
        media_url text,
        media_name text,
        media_type text,
        status text NOT NULL DEFAULT 'received' CHECK (status IN ('received','pending','sent','delivered','read','failed')),
        failure_reason text,
        quoted_id bigint,
        schedule_date timestamptz,
        recurrence_days integer,
        repetitions integer,
        edited boolean NOT NULL DEFAULT false,
        deleted_at timestamptz,
        synced boolean NOT NULL DEFAULT false,
        reactions jsonb NOT NULL DEFAULT '[]',
        data jsonb NOT NULL DEFAULT '{}',
        timestamp timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      // Inbound idempotency: a provider message is stored once however often it is delivered.
      `CREATE UNIQUE INDEX messages_provider_key ON messages (tenant_id, channel_id, provider_id) WHERE provider_id IS NOT NULL`,
      `CREATE INDEX messages_ticket_idx ON messages (tenant_id, ticket_id, id DESC)`,
      `CREATE INDEX messages_ticket_fk_idx ON messages (ticket_id)`,
      `CREATE INDEX messages_scheduled_idx ON messages (tenant_id, schedule_date) WHERE status = 'pending' AND schedule_date IS NOT NULL`,
      // The send ledger: written before the provider is called, so a crash never sends twice.
      `CREATE TABLE message_sends (
        message_id bigint PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        tenant_id integer NOT NULL,
        state text NOT NULL CHECK (state IN ('sending','sent','failed')),
        attempts integer NOT NULL DEFAULT 1,
        provider_id text,
        error text,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz)`,
      `CREATE TABLE quick_messages (
        id serial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key text NOT NULL,
        message text NOT NULL,
        media_url text,
        media_name text,
        as_audio boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE UNIQUE INDEX quick_messages_key ON quick_messages (tenant_id, lower(key))`,
      `CREATE TABLE protocol_counters (tenant_id integer PRIMARY KEY, last bigint NOT NULL DEFAULT 0)`,
    ],
  },
  { name: '0002_ingest_function', up: INGEST_FUNCTIONS },
  {
    name: '0002_business_hours',
    up: [
      `ALTER TABLE tenants ADD COLUMN business_hours jsonb NOT NULL DEFAULT '[]', ADD COLUMN message_business_hours text, ADD COLUMN rating_config jsonb NOT NULL DEFAULT '{}'`,
      `ALTER TABLE tickets ADD COLUMN absence_sent integer NOT NULL DEFAULT 0`,
    ],
  },
  {
    name: '0003_channels_sessions',
    up: [
      // Channel settings the kernel acts on (administration.md §3); the rest lives in config/secrets.
      `ALTER TABLE channels
         ADD COLUMN birthday_message text,
         ADD COLUMN birthday_hour smallint CHECK (birthday_hour BETWEEN 0 AND 23),
         ADD COLUMN birthday_media jsonb,
         ADD COLUMN pairing_code text,
         ADD COLUMN last_error text`,
      // One row per long-lived channel session: the node that runs it and until when.
      // A node renews every few seconds; a row whose lease ran out belongs to nobody.
      `CREATE TABLE channel_sessions (
        channel_id integer PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        tenant_id integer NOT NULL,
        node_id text,
        lease_until timestamptz NOT NULL DEFAULT '-infinity',
        wanted boolean NOT NULL DEFAULT true,
        failures integer NOT NULL DEFAULT 0,
        retry_at timestamptz NOT NULL DEFAULT '-infinity',
        updated_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE INDEX channel_sessions_free_idx ON channel_sessions (lease_until) WHERE wanted`,
      `CREATE INDEX channel_sessions_node_idx ON channel_sessions (node_id) WHERE node_id IS NOT NULL`,
      // Provider auth state (keys, tokens, cursors): in the database so a session can move between nodes.
      `CREATE TABLE channel_auth_state (
        channel_id integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        tenant_id integer NOT NULL,
        key text NOT NULL,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (channel_id, key))`,
      `CREATE TABLE channel_history_imports (
        id bigserial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        channel_id integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        user_id integer,
        request jsonb NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed')),
        imported integer NOT NULL DEFAULT 0,
        total integer,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz)`,
      `CREATE INDEX channel_history_imports_idx ON channel_history_imports (tenant_id, channel_id, id DESC)`,
      `CREATE INDEX channel_history_imports_channel_fk_idx ON channel_history_imports (channel_id)`,
      // Moving or closing a channel's tickets reads them by channel.
      `CREATE INDEX tickets_channel_active_idx ON tickets (tenant_id, channel_id, status) WHERE status IN ('open','pending')`,
    ],
  },
  { name: '0004_ingest_batch', up: [INGEST_BATCH_FUNCTION] },
  // Ticket counters once per ticket per batch, and new tickets inserted with them (ingest-sql.ts).
  { name: '0005_ingest_counters_per_batch', up: [INGEST_ONE_FUNCTION, INGEST_BATCH_FUNCTION_V2] },
  {
    // Wait time and SLA per queue (U2 "what buyers check"): since when the customer waits for an
    // agent, when an agent first answered since then, and the queue's targets in minutes.
    name: '0006_wait_sla',
    up: [
      `ALTER TABLE queues
         ADD COLUMN sla_first_response_minutes integer CHECK (sla_first_response_minutes BETWEEN 1 AND 43200),
         ADD COLUMN sla_resolution_minutes integer CHECK (sla_resolution_minutes BETWEEN 1 AND 43200)`,
      `ALTER TABLE tickets ADD COLUMN waiting_since timestamptz, ADD COLUMN first_response_at timestamptz`,
      `UPDATE tickets SET waiting_since = date_trunc('milliseconds', updated_at) WHERE status = 'pending'`,
      // Every path that puts a ticket in 'pending' (ingest, reopen, transfer to a queue, the API)
      // goes through this trigger, so the wait starts there whatever wrote the row.
      `CREATE FUNCTION tickets_waiting_since() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.status = 'pending' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'pending') THEN
           NEW.waiting_since := now();
           NEW.first_response_at := NULL;
         END IF;
         -- Milliseconds, as the list's keyset cursor carries them (a JS Date): a finer value would
         -- compare greater than its own cursor and repeat the page's last row on the next page.
         NEW.waiting_since := date_trunc('milliseconds', NEW.waiting_since);
         RETURN NEW;
       END $$`,
      `CREATE TRIGGER tickets_waiting_since_ins BEFORE INSERT ON tickets FOR EACH ROW EXECUTE FUNCTION tickets_waiting_since()`,
      `CREATE TRIGGER tickets_waiting_since_upd BEFORE UPDATE OF status, waiting_since ON tickets FOR EACH ROW EXECUTE FUNCTION tickets_waiting_since()`,
      // Pendentes lists the longest wait first.
      `CREATE INDEX tickets_waiting_idx ON tickets (tenant_id, waiting_since, id) WHERE status = 'pending'`,
    ],
  },
  // The channel's default user gets new tickets only while they are available (paused or offline by choice: the
  // ticket waits in the queue instead; ingest-sql.ts).
  { name: '0007_ingest_skips_paused_default_user', up: [INGEST_ONE_FUNCTION_V2] },
];
