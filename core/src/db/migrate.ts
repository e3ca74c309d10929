import type { Pool, PoolClient } from 'pg';
import type { MigrationDef } from '../sdk/types.ts';

export interface MigrationModule {
  /** `core:<module>` or `plugin:<id>`. */
  module: string;
  migrations: MigrationDef[];
}

// One arbitrary constant so concurrent nodes starting together migrate one at a time.
const LOCK_KEY = 7_345_112_001;

/**
 * Applies pending migrations module by module, in the order given (kernel
 * modules first, then plugins in dependency order). Each migration runs in its
 * own transaction and is recorded in `atende_migrations`.
 */
export async function runMigrations(pool: Pool, modules: MigrationModule[], log?: (msg: string) => void): Promise<number> {
  const client = await pool.connect();
  let applied = 0;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS atende_migrations (
      module text NOT NULL, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (module, name))`);
    const done = new Set((await client.query<{ k: string }>(`SELECT module || '/' || name AS k FROM atende_migrations`)).rows.map((r) => r.k));
    for (const mod of modules) {
      for (const m of [...mod.migrations].sort((a, b) => a.name.localeCompare(b.name))) {
        if (done.has(`${mod.module}/${m.name}`)) continue;
        await applyOne(client, mod.module, m);
        log?.(`migration ${mod.module}/${m.name} applied`);
        applied++;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    client.release();
  }
  return applied;
}

async function applyOne(client: PoolClient, module: string, m: MigrationDef): Promise<void> {
  await client.query('BEGIN');
  try {
    for (const sql of m.up) await client.query(sql);
    await client.query('INSERT INTO atende_migrations (module, name) VALUES ($1, $2)', [module, m.name]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw new Error(`migration ${module}/${m.name} failed: ${(err as Error).message}`);
  }
}
