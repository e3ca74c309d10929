/** Shared helpers for benchmarks: a dedicated database, percentiles, target lines. */
import pg from 'pg';
import { migrationPlan } from '../src/app.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { discoverPlugins } from '../src/plugins/discover.ts';
import { ROOT_DIR } from '../src/config.ts';

export function adminUrl(): string {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const u = new URL(base);
  u.pathname = '/postgres';
  return u.toString();
}

export function benchDbUrl(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

export async function databaseExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return !!(await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  } finally {
    await c.end();
  }
}

export async function recreateDatabase(name: string): Promise<string> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  const url = benchDbUrl(name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  await runMigrations(pool, migrationPlan(await discoverPlugins(ROOT_DIR)));
  await pool.end();
  return url;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export function report(rows: { name: string; value: number; unit: string; target: string; ok: boolean }[]): boolean {
  let ok = true;
  for (const r of rows) {
    ok &&= r.ok;
    console.log(`${r.ok ? 'OK  ' : 'MISS'} ${r.name.padEnd(48)} ${r.value.toFixed(2).padStart(10)} ${r.unit.padEnd(6)} target ${r.target}`);
  }
  return ok;
}
