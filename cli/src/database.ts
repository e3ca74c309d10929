import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { discoverPlugins, embeddedStatus, migrationPlan, runMigrations, startEmbeddedPostgres, type AtendeConfig } from '@atende/core';
import type { PluginDefinition } from '@atende/core/sdk';
import { CliError, type CliContext } from './context.ts';
import { describePostgresError } from './diagnose.ts';
import { ensurePlatformTenant } from './kernel.ts';

type MigrationModule = ReturnType<typeof migrationPlan>[number];

export interface DbSession {
  pool: pg.Pool;
  /** Kernel modules' then plugins' migrations, in the order they apply. */
  plan: MigrationModule[];
  /** Installed plugins, in dependency order. */
  plugins: PluginDefinition[];
  /** Creates tenant 1 (the platform) if this database has never been started. */
  ensurePlatformTenant(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Runs `fn` against the install's database and always cleans up:
 * - with DATABASE_URL, that server (its schema must be up to date: in
 *   production, schema changes are an explicit `atende migrate`);
 * - otherwise the embedded PostgreSQL of the data dir: the one a running
 *   Atende already started, or one started for this command and stopped
 *   after it. Its schema is brought up to date, as `start` would.
 */
export async function withDatabase<T>(
  config: AtendeConfig,
  ctx: CliContext,
  fn: (db: DbSession) => Promise<T>,
  opts: { schema?: 'current' | 'untouched' } = {},
): Promise<T> {
  const plugins = await discoverPlugins(config.rootDir, config.plugins);
  const plan = migrationPlan(plugins);
  let stopEmbedded: (() => Promise<void>) | undefined;
  let url: string;
  let owned: boolean;

  if (config.databaseUrl) {
    url = config.databaseUrl;
    owned = false;
  } else {
    const running = await runningEmbeddedUrl(config.dataDir);
    if (running) {
      url = running;
    } else {
      const embedded = await startEmbeddedPostgres(config.dataDir, { info: ctx.err, warn: ctx.err }).catch((err: unknown) => {
        throw new CliError(`O PostgreSQL embutido em ${config.dataDir} não iniciou: ${(err as Error).message}`);
      });
      url = embedded.url;
      stopEmbedded = embedded.stop;
    }
    owned = true;
  }

  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its server (the embedded one stopping) must not crash the command.
  pool.on('error', () => undefined);
  try {
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      throw new CliError(describePostgresError(err, url, CONNECT_TIMEOUT_MS / 1000));
    }
    if (opts.schema === 'untouched') {
      // The caller (`atende migrate`) handles the schema itself.
    } else if (owned) {
      await runMigrations(pool, plan, (line) => ctx.err(line));
    } else {
      const pending = await pendingMigrations(pool, plan);
      if (pending.length) {
        throw new CliError(
          `O banco de DATABASE_URL tem ${pending.length} migração(ões) pendente(s) (${summarise(pending)}). Aplique-as primeiro: npx atende migrate`,
        );
      }
    }
    return await fn({
      pool,
      plan,
      plugins,
      ensurePlatformTenant: () => ensurePlatformTenant({ db: { pool } } as unknown as Parameters<typeof ensurePlatformTenant>[0]),
    });
  } finally {
    await pool.end().catch(() => undefined);
    await stopEmbedded?.();
  }
}

/** `module/name` of each migration of the plan this database has not applied. */
export async function pendingMigrations(pool: pg.Pool, plan: MigrationModule[]): Promise<string[]> {
  const table = await pool.query<{ t: string | null }>(`SELECT to_regclass('atende_migrations')::text AS t`);
  const done = new Set<string>();
  if (table.rows[0]?.t) {
    const rows = await pool.query<{ k: string }>(`SELECT module || '/' || name AS k FROM atende_migrations`);
    for (const r of rows.rows) done.add(r.k);
  }
  return plan.flatMap((m) => m.migrations.map((x) => `${m.module}/${x.name}`)).filter((k) => !done.has(k));
}

export function summarise(items: string[], max = 3): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} e mais ${items.length - max}`;
}

/**
 * The connection URL of the embedded PostgreSQL when a running Atende already
 * holds it. A second server cannot be started on the same cluster, so admin
 * commands share the running one. Port and password live in
 * `<dataDir>/embedded-pg.json`, the layout `core/src/db/embedded.ts` documents.
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const status = await embeddedStatus(dataDir);
  if (!status.running || !status.port) return undefined;
  const settings = JSON.parse(await fs.readFile(path.join(dataDir, 'embedded-pg.json'), 'utf8')) as { password: string };
  return `postgres://postgres:${encodeURIComponent(settings.password)}@127.0.0.1:${status.port}/atende`;
}
