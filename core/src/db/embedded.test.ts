import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedStatus, startEmbeddedPostgres, type EmbeddedDb } from './embedded.ts';

const TIMEOUT = 60_000;

function recordingLog() {
  const lines: { level: 'info' | 'warn'; msg: string }[] = [];
  return {
    lines,
    info: (msg: string) => lines.push({ level: 'info', msg }),
    warn: (msg: string) => lines.push({ level: 'warn', msg }),
  };
}

async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query('SELECT 1 AS one, current_database() AS db');
    expect(res.rows[0].db).toBe('atende');
    return res.rows[0].one as number;
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  // Orphans may linger as zombies until init reaps them.
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Starts the server in a child Node process that then dies by SIGKILL, like a crashed or kill -9'd Atende. */
async function startInDoomedChild(dataDir: string): Promise<{ port: number; output: string }> {
  const moduleUrl = pathToFileURL(path.join(import.meta.dirname, 'embedded.ts')).href;
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(moduleUrl)});
    const db = await startEmbeddedPostgres(${JSON.stringify(dataDir)}, { info() {}, warn() {} });
    console.log('STARTED ' + db.port);
    process.kill(process.pid, 'SIGKILL');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '..', '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
  const m = /STARTED (\d+)/.exec(output);
  if (signal !== 'SIGKILL' || !m) throw new Error(`child did not start the server:\n${output}`);
  return { port: Number(m[1]), output };
}

describe('embedded PostgreSQL', () => {
  let dataDir: string;
  const open: EmbeddedDb[] = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'atende-embedded-pg-'));
  });

  afterAll(async () => {
    for (const db of open) await db.stop().catch(() => undefined);
    // Belt and braces: never leave a server behind if an assertion failed mid-way.
    const status = await embeddedStatus(dataDir).catch(() => undefined);
    if (status?.pid) {
      try {
        process.kill(status.pid, 'SIGINT');
      } catch {
        /* gone */
      }
      for (let i = 0; i < 50 && isAlive(status.pid); i++) await new Promise((r) => setTimeout(r, 100));
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  }, TIMEOUT);

  it(
    'initialises, serves queries and stops',
    async () => {
      expect(await embeddedStatus(dataDir)).toEqual({ initialised: false, running: false });

      const log = recordingLog();
      const t0 = performance.now();
      const db = await startEmbeddedPostgres(dataDir, log);
      open.push(db);
      console.log(`cold start (initdb + start): ${Math.round(performance.now() - t0)} ms`);

      expect(db.port).not.toBe(5432);
      expect(db.url).toMatch(new RegExp(`^postgres://postgres:[^@]+@127\\.0\\.0\\.1:${db.port}/atende$`));
      expect(await selectOne(db.url)).toBe(1);

      const settingsFile = path.join(dataDir, 'embedded-pg.json');
      const settings = JSON.parse(await fs.readFile(settingsFile, 'utf8'));
      expect(settings.port).toBe(db.port);
      expect(typeof settings.password).toBe('string');
      expect((await fs.stat(settingsFile)).mode & 0o777).toBe(0o600);

      const running = await embeddedStatus(dataDir);
      expect(running).toMatchObject({ initialised: true, running: true, port: db.port });
      expect(running.pid).toBeGreaterThan(0);

      await db.stop();
      await db.stop(); // idempotent
      expect(await embeddedStatus(dataDir)).toEqual({ initialised: true, running: false, port: db.port });
      expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'restarts quickly on an existing cluster and keeps its port',
    async () => {
      const before = JSON.parse(await fs.readFile(path.join(dataDir, 'embedded-pg.json'), 'utf8'));
      const t0 = performance.now();
      const db = await startEmbeddedPostgres(dataDir, recordingLog());
      open.push(db);
      console.log(`warm start: ${Math.round(performance.now() - t0)} ms`);
      expect(db.port).toBe(before.port);
      expect(await selectOne(db.url)).toBe(1);
      await db.stop();
    },
    TIMEOUT,
  );

  it(
    'moves to another port when the remembered one is taken',
    async () => {
      const settingsFile = path.join(dataDir, 'embedded-pg.json');
      const before = JSON.parse(await fs.readFile(settingsFile, 'utf8'));
      const net = await import('node:net');
      const squatter = net.createServer();
      await new Promise<void>((resolve) => squatter.listen(before.port, '127.0.0.1', resolve));
      try {
        const log = recordingLog();
        const db = await startEmbeddedPostgres(dataDir, log);
        open.push(db);
        expect(db.port).not.toBe(before.port);
        expect(db.port).not.toBe(5432);
        expect(JSON.parse(await fs.readFile(settingsFile, 'utf8')).port).toBe(db.port);
        expect(log.lines.some((l) => l.level === 'warn' && l.msg.includes(`port ${before.port} is taken`))).toBe(true);
        expect(await selectOne(db.url)).toBe(1);
        await db.stop();
      } finally {
        await new Promise((r) => squatter.close(r));
      }
    },
    TIMEOUT,
  );

  it(
    'stops a stale server left by a hard-killed parent',
    async () => {
      const { port } = await startInDoomedChild(dataDir);
      const stale = await embeddedStatus(dataDir);
      expect(stale.running).toBe(true);
      const stalePid = stale.pid!;
      expect(isAlive(stalePid)).toBe(true);

      const log = recordingLog();
      const t0 = performance.now();
      const db = await startEmbeddedPostgres(dataDir, log);
      open.push(db);
      console.log(`start after stopping a stale server: ${Math.round(performance.now() - t0)} ms`);

      expect(
        log.lines.some(
          (l) => l.level === 'warn' && l.msg === `stopped a stale embedded PostgreSQL (pid ${stalePid}) left by a previous run`,
        ),
      ).toBe(true);
      expect(isAlive(stalePid)).toBe(false);
      expect(db.port).toBe(port);
      expect(await selectOne(db.url)).toBe(1);

      const now = await embeddedStatus(dataDir);
      expect(now.pid).not.toBe(stalePid);
      await db.stop();
      expect((await embeddedStatus(dataDir)).running).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'refuses to start twice on the same data dir in one process',
    async () => {
      const db = await startEmbeddedPostgres(dataDir, recordingLog());
      open.push(db);
      await expect(startEmbeddedPostgres(dataDir, recordingLog())).rejects.toThrow(/already running in this process/);
      expect(await selectOne(db.url)).toBe(1);
      await db.stop();
    },
    TIMEOUT,
  );
});

describe.skipIf(process.getuid?.() !== 0)('embedded PostgreSQL as root, with a data dir the postgres user cannot reach', () => {
  const systemBase = '/var/lib/atende';
  const clustersBase = path.join(systemBase, 'clusters');
  let parent: string;
  let dataDir: string;
  let clusterDir: string;
  let createdSystemBase = false;
  let createdClustersBase = false;
  const open: EmbeddedDb[] = [];

  beforeAll(async () => {
    createdSystemBase = !(await fs.stat(systemBase).then(() => true, () => false));
    createdClustersBase = !(await fs.stat(clustersBase).then(() => true, () => false));
    // Like a checkout under /root: the parent is 0700, so `postgres` cannot walk into it.
    parent = await fs.mkdtemp(path.join(os.tmpdir(), 'atende-embedded-root-'));
    await fs.chmod(parent, 0o700);
    dataDir = path.join(parent, 'data');
    const id = createHash('sha256').update(await fs.realpath(parent).then((p) => path.join(p, 'data'))).digest('hex').slice(0, 16);
    clusterDir = path.join(clustersBase, id);
  });

  afterAll(async () => {
    for (const db of open) await db.stop().catch(() => undefined);
    const status = await embeddedStatus(dataDir).catch(() => undefined);
    if (status?.pid) {
      try {
        process.kill(status.pid, 'SIGINT');
      } catch {
        /* gone */
      }
      for (let i = 0; i < 50 && isAlive(status.pid); i++) await new Promise((r) => setTimeout(r, 100));
    }
    await fs.rm(parent, { recursive: true, force: true });
    await fs.rm(clusterDir, { recursive: true, force: true });
    if (createdClustersBase) await fs.rmdir(clustersBase).catch(() => undefined);
    if (createdSystemBase) await fs.rmdir(systemBase).catch(() => undefined);
  }, TIMEOUT);

  it(
    'keeps the cluster under /var/lib/atende/clusters, and starts, stops and restarts there',
    async () => {
      expect(await embeddedStatus(dataDir)).toEqual({ initialised: false, running: false });

      const log = recordingLog();
      const db = await startEmbeddedPostgres(dataDir, log);
      open.push(db);
      expect(await selectOne(db.url)).toBe(1);
      expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
      expect(log.lines.filter((l) => l.level === 'info' && l.msg.includes(`cluster lives in ${clusterDir}`))).toHaveLength(1);

      // The cluster is outside the data dir, owned by postgres and private to it.
      expect(await fs.stat(path.join(clusterDir, 'PG_VERSION')).then(() => true)).toBe(true);
      const st = await fs.stat(clusterDir);
      expect(st.uid).toBe(Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })));
      expect(st.mode & 0o777).toBe(0o700);
      expect((await fs.stat(clustersBase)).mode & 0o777).toBe(0o755);
      await expect(fs.stat(path.join(dataDir, 'pg'))).rejects.toMatchObject({ code: 'ENOENT' });
      // The data dir's ancestors were not loosened.
      expect((await fs.stat(parent)).mode & 0o777).toBe(0o700);

      const settingsFile = path.join(dataDir, 'embedded-pg.json');
      const settings = JSON.parse(await fs.readFile(settingsFile, 'utf8'));
      expect(settings).toMatchObject({ port: db.port, clusterDir });
      expect((await fs.stat(settingsFile)).mode & 0o777).toBe(0o600);

      const running = await embeddedStatus(dataDir);
      expect(running).toMatchObject({ initialised: true, running: true, port: db.port, clusterDir });
      expect(running.pid).toBeGreaterThan(0);

      await db.stop();
      expect(await embeddedStatus(dataDir)).toEqual({ initialised: true, running: false, port: db.port, clusterDir });

      // Warm restart: same cluster, same port, data kept.
      const again = await startEmbeddedPostgres(dataDir, recordingLog());
      open.push(again);
      expect(again.port).toBe(db.port);
      expect(await selectOne(again.url)).toBe(1);
      await again.stop();
      expect((await embeddedStatus(dataDir)).running).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'stops a stale server of the outside cluster left by a hard-killed parent',
    async () => {
      const { port } = await startInDoomedChild(dataDir);
      const stale = await embeddedStatus(dataDir);
      expect(stale).toMatchObject({ running: true, clusterDir });
      const stalePid = stale.pid!;

      const log = recordingLog();
      const db = await startEmbeddedPostgres(dataDir, log);
      open.push(db);
      expect(
        log.lines.some(
          (l) => l.level === 'warn' && l.msg === `stopped a stale embedded PostgreSQL (pid ${stalePid}) left by a previous run`,
        ),
      ).toBe(true);
      expect(isAlive(stalePid)).toBe(false);
      expect(db.port).toBe(port);
      expect(await selectOne(db.url)).toBe(1);
      await db.stop();
      expect((await embeddedStatus(dataDir)).running).toBe(false);
    },
    TIMEOUT,
  );
});
