import type pg from 'pg';

export type Sql = pg.PoolClient;

/**
 * Runs `fn` in a transaction on one pooled connection and returns its result.
 * Events are collected while the transaction runs and handed back, so the
 * caller publishes them only after COMMIT (never for a rolled-back change).
 */
export async function withTx<T>(pool: pg.Pool, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Serialises concurrent work on one logical key inside the current transaction. */
export async function lockKey(sql: Sql, key: string): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
}
