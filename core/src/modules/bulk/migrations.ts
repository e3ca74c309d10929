import type { MigrationDef } from '../../sdk/types.ts';

/**
 * Bulk sends. `bulk_recipients` is the send ledger: one row per (batch,
 * recipient), written before any provider call; its state moves pending →
 * sending (handed to the provider, maybe) → sent | failed, or pending →
 * cancelled. `bulk_pacers` holds one row per channel: the lease of the node
 * sending for that number and the earliest time of its next send, so the
 * pace survives a crash or a move to another node.
 */
export const bulkMigrations: MigrationDef[] = [
  {
    name: '0001_bulk_send',
    up: [
      `CREATE TABLE bulk_batches (
        id bigserial PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        channel_id integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        source text NOT NULL,
        reference text,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running','cancelled','done')),
        message jsonb NOT NULL DEFAULT '{}',
        min_gap_ms integer NOT NULL CHECK (min_gap_ms >= 0),
        max_gap_ms integer NOT NULL CHECK (max_gap_ms >= min_gap_ms),
        rooms text[] NOT NULL DEFAULT '{tenant}',
        total integer NOT NULL DEFAULT 0,
        sent integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        cancelled integer NOT NULL DEFAULT 0,
        created_by integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz)`,
      `CREATE INDEX bulk_batches_tenant_idx ON bulk_batches (tenant_id, source, id)`,
      `CREATE INDEX bulk_batches_running_idx ON bulk_batches (tenant_id, channel_id, id) WHERE status = 'running'`,
      `CREATE TABLE bulk_recipients (
        id bigserial PRIMARY KEY,
        tenant_id integer NOT NULL,
        batch_id bigint NOT NULL REFERENCES bulk_batches(id) ON DELETE CASCADE,
        recipient text NOT NULL,
        name text,
        body text,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','sending','sent','failed','cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        not_before timestamptz NOT NULL DEFAULT 'epoch',
        provider_id text,
        error text,
        -- When the provider call started (the pace is measured on it).
        started_at timestamptz,
        finished_at timestamptz)`,
      `CREATE UNIQUE INDEX bulk_recipients_once_idx ON bulk_recipients (tenant_id, batch_id, recipient)`,
      `CREATE INDEX bulk_recipients_pending_idx ON bulk_recipients (tenant_id, batch_id, id) WHERE state = 'pending'`,
      `CREATE INDEX bulk_recipients_sending_idx ON bulk_recipients (tenant_id, batch_id) WHERE state = 'sending'`,
      `CREATE INDEX bulk_recipients_list_idx ON bulk_recipients (tenant_id, batch_id, state, id)`,
      `CREATE TABLE bulk_pacers (
        channel_id integer PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        tenant_id integer NOT NULL,
        next_at timestamptz NOT NULL DEFAULT 'epoch',
        owner text,
        lease_until timestamptz NOT NULL DEFAULT '-infinity')`,
      `CREATE INDEX bulk_pacers_tenant_idx ON bulk_pacers (tenant_id, channel_id)`,
    ],
  },
];
