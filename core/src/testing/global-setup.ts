import path from 'node:path';
import pg from 'pg';
import { ROOT_DIR } from '../config.ts';

/**
 * Tests run against the machine's PostgreSQL when DATABASE_URL is set (CI sets
 * it). On a machine with nothing installed, an embedded PostgreSQL in
 * `.atende-test/` stands in, so `npm test` works on a fresh clone.
 *
 * Test databases (`atende_t_*`, one per createTestApp) are dropped here, once
 * every worker has exited: dropping them while a worker's connections are
 * still closing would kill those connections mid-close.
 */
export default async function setup() {
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!process.env.DATABASE_URL && !process.env.ATENDE_TEST_DATABASE_URL) {
    const { startEmbeddedPostgres } = await import('../db/embedded.ts');
    const db = await startEmbeddedPostgres(path.join(ROOT_DIR, '.atende-test'), { info: () => undefined, warn: (m) => console.warn(m) });
    process.env.ATENDE_TEST_DATABASE_URL = db.url;
    stopEmbedded = () => db.stop();
  }
  await dropTestDatabases();
  return async () => {
    await dropTestDatabases();
    await stopEmbedded?.();
  };
}

async function dropTestDatabases() {
  const u = new URL((process.env.ATENDE_TEST_DATABASE_URL ?? process.env.DATABASE_URL)!);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  c.on('error', () => undefined);
  await c.connect();
  try {
    const r = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'atende\\_t\\_%'`);
    for (const { datname } of r.rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
  } finally {
    await c.end();
  }
}
