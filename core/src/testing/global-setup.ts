import path from 'node:path';
import pg from 'pg';
import { ROOT_DIR } from '../config.ts';

/**
 * Tests run against the machine's PostgreSQL when DATABASE_URL is set (CI sets
 * it). On a machine with nothing installed, an embedded PostgreSQL in
 * `.atende-test/` stands in, so `npm test` works on a fresh clone.
 *
 * Test databases (`atende_t_<run>_*`, one per createTestApp) are dropped here,
 * once every worker has exited: dropping them while a worker's connections are
 * still closing would kill those connections mid-close. `<run>` is this vitest
 * process's pid, so several runs can share one PostgreSQL (two checkouts, two
 * engineers): a run drops its own databases and those of runs whose process is
 * gone, never a live run's.
 */
export default async function setup() {
  // Workers are forked after this and inherit the environment.
  process.env.ATENDE_TEST_RUN = String(process.pid);
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!process.env.DATABASE_URL && !process.env.ATENDE_TEST_DATABASE_URL) {
    const { startEmbeddedPostgres } = await import('../db/embedded.ts');
    const db = await startEmbeddedPostgres(path.join(ROOT_DIR, '.atende-test'), { info: () => undefined, warn: (m) => console.warn(m) });
    process.env.ATENDE_TEST_DATABASE_URL = db.url;
    stopEmbedded = () => db.stop();
  }
  await dropTestDatabases((run) => run !== process.pid && !alive(run));
  return async () => {
    await dropTestDatabases((run) => run === process.pid);
    await stopEmbedded?.();
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function dropTestDatabases(mine: (run: number) => boolean) {
  const u = new URL((process.env.ATENDE_TEST_DATABASE_URL ?? process.env.DATABASE_URL)!);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  c.on('error', () => undefined);
  await c.connect();
  try {
    const r = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'atende\\_t\\_%'`);
    for (const { datname } of r.rows) {
      const run = Number(/^atende_t_(\d+)_/.exec(datname)?.[1] ?? NaN);
      // Names from before runs were tagged (atende_t_<pid>_<uuid>) have no live owner to protect.
      if (Number.isFinite(run) && !mine(run) && /^atende_t_\d+_\d+_/.test(datname)) continue;
      await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    }
  } finally {
    await c.end();
  }
}
