import type { MigrationDef } from '../../sdk/types.ts';

/**
 * Tables the contacts module owns beside the conversation schema. An import
 * keeps its rows and its progress here, so the job is resumable (a retried or
 * re-delivered job continues after the last committed chunk) and its result can
 * be polled by any API node.
 */
export const contactsMigrations: MigrationDef[] = [
  {
    name: '0001_imports',
    up: [
      `CREATE TABLE contact_imports (
        id uuid PRIMARY KEY,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        user_id integer REFERENCES users(id) ON DELETE SET NULL,
        file_name text NOT NULL,
        lang text NOT NULL DEFAULT 'pt',
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','finished','failed')),
        total integer NOT NULL,
        processed integer NOT NULL DEFAULT 0,
        imported integer NOT NULL DEFAULT 0,
        rejected integer NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]',
        rows jsonb,
        failure text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz)`,
      `CREATE INDEX contact_imports_tenant_idx ON contact_imports (tenant_id, created_at DESC)`,
    ],
  },
  {
    // The uploaded file waits here for the job worker, which reads it as a stream
    // (the request never parses it); the rows are known, and counted, only then.
    name: '0002_import_file',
    up: [
      `ALTER TABLE contact_imports ADD COLUMN file bytea, ADD COLUMN file_kind text CHECK (file_kind IN ('csv','xlsx'))`,
      `ALTER TABLE contact_imports ALTER COLUMN total SET DEFAULT 0`,
      `CREATE INDEX contact_imports_active_idx ON contact_imports (tenant_id) WHERE status IN ('queued','running')`,
    ],
  },
];
