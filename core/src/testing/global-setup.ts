import path from 'node:path';
import { ROOT_DIR } from '../config.ts';

/**
 * Tests run against the machine's PostgreSQL when DATABASE_URL is set (CI sets
 * it). On a machine with nothing installed, an embedded PostgreSQL in
 * `.atende-test/` stands in, so `npm test` works on a fresh clone.
 */
export default async function setup() {
  if (process.env.DATABASE_URL || process.env.ATENDE_TEST_DATABASE_URL) return;
  const { startEmbeddedPostgres } = await import('../db/embedded.ts');
  const db = await startEmbeddedPostgres(path.join(ROOT_DIR, '.atende-test'), { info: () => undefined, warn: (m) => console.warn(m) });
  process.env.ATENDE_TEST_DATABASE_URL = db.url;
  return async () => {
    await db.stop();
  };
}
