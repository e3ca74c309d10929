import { MikroORM, type EntitySchema } from '@mikro-orm/core';
import { PostgreSqlDriver, type EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';

export interface Database {
  orm: MikroORM<PostgreSqlDriver>;
  /** A plain pg pool for migrations, health checks and hot paths that need raw SQL. */
  pool: pg.Pool;
  /**
   * A few connections kept for storing inbound messages only: a customer's message
   * must not queue behind background work (a bulk send's pump and its provider's writes
   * can keep every connection of `pool` busy for minutes).
   */
  ingestPool: pg.Pool;
  /** An EntityManager fork for one tenant (tenant filter on). */
  forTenant(tenantId: number): EntityManager;
  /** A fork with the tenant filter off: platform-level work (superadmin, jobs over all tenants). */
  forPlatform(): EntityManager;
  close(): Promise<void>;
}

// Keep timestamps as UTC instants and bigints (counts) as numbers in raw queries.
pg.types.setTypeParser(20, (v) => Number(v));

/** Ingest runs one or two batches at a time per node (ingest.ts), each on one connection, plus webhooks' channel lookups. */
const INGEST_POOL_MAX = 6;

export async function openDatabase(url: string, entities: EntitySchema<any, any>[], opts: { poolMax?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolMax ?? 10, idleTimeoutMillis: 30_000 });
  // A dropped connection (server restart) must not crash the process; the pool reconnects on next use.
  pool.on('error', () => undefined);
  const ingestPool = new pg.Pool({ connectionString: url, max: INGEST_POOL_MAX, idleTimeoutMillis: 30_000 });
  ingestPool.on('error', () => undefined);
  const orm = await MikroORM.init<PostgreSqlDriver>({
    driver: PostgreSqlDriver,
    clientUrl: url,
    entities,
    discovery: { disableDynamicFileAccess: true, warnWhenNoEntities: false },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    debug: false,
    ensureDatabase: false,
  });
  return {
    orm,
    pool,
    ingestPool,
    forTenant(tenantId: number) {
      const em = orm.em.fork({ clear: true }) as EntityManager;
      em.setFilterParams('tenant', { tenantId });
      return em;
    },
    forPlatform() {
      const em = orm.em.fork({ clear: true }) as EntityManager;
      return em;
    },
    async close() {
      await orm.close(true);
      await Promise.all([pool.end(), ingestPool.end()]);
    },
  };
}
