/**
 * `@atende/core/testing` — the test kit for the kernel and for plugins.
 *
 * `createTestApp()` builds the real app (real PostgreSQL, real Redis when
 * REDIS_URL is set, real jobs and sockets) on a fresh database cloned from a
 * migrated template, so each test file starts clean in ~100 ms.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import WebSocket from 'ws';
import { buildApp, migrationPlan } from '../app.ts';
import { loadConfig, ROOT_DIR, type AtendeConfig } from '../config.ts';
import { runMigrations } from '../db/migrate.ts';
import { discoverPlugins } from '../plugins/discover.ts';
import { hashPassword } from '../modules/identity/passwords.ts';
import { openSession } from '../modules/identity/sessions.ts';
import { ensurePlatformTenant } from '../modules/identity/bootstrap.ts';
import type { Profile } from '../sdk/types.ts';
import { dispatchScheduled } from '../modules/conversations/scheduled.ts';

export interface TestAppOptions {
  /** Plugin ids to load (default: every plugin in plugins/). */
  plugins?: string[];
  /** Use Redis for events and jobs when REDIS_URL is set (default true). */
  redis?: boolean;
  config?: Partial<AtendeConfig>;
  /** Start job workers (default true). */
  workers?: boolean;
  /** Start with the install's terms of use accepted by the superadmin (default true; only terms tests need false). */
  termsAccepted?: boolean;
  /**
   * Starts from an older install instead of the migrated template, to test an upgrade: every migration but
   * `pending` (`core:<module>/<name>` or `plugin:<id>/<name>`) is applied to an empty database, `seed` fills it
   * as that install would be, and the app applies the pending ones when it starts, as an upgrade does.
   */
  upgrade?: { pending: string[]; seed(sql: pg.Pool): Promise<void> };
}

export interface TestUser {
  id: number;
  tenantId: number;
  email: string;
  password: string;
  profile: Profile;
  token: string;
  refreshToken: string;
  headers: { authorization: string };
}

export interface TestApp {
  app: FastifyInstance;
  databaseUrl: string;
  /** A raw pool on the test database, for assertions. */
  sql: pg.Pool;
  createTenant(fields?: { name?: string; status?: 'active' | 'inactive'; maxUsers?: number; maxConnections?: number; menus?: Record<string, boolean> }): Promise<number>;
  /** Creates a user of that profile in the tenant and logs it in. */
  loginAs(profile: Profile, tenantId?: number, fields?: { queues?: number[]; menus?: Record<string, boolean>; email?: string; password?: string }): Promise<TestUser>;
  /** Opens a real WebSocket to `/api/ws` (the app listens on a random port on first use). */
  openSocket(token: string, resume?: { epoch?: string; since?: number }): Promise<TestSocket>;
  /** Base URL once listening (listens on first call). */
  baseUrl(): Promise<string>;
  /**
   * Runs the scheduled-message dispatcher once as if the clock read `now` (default: the real now), instead
   * of waiting for its 30-second tick: messages due at `now` are claimed and handed to the send job.
   */
  dispatchScheduled(now?: Date): Promise<{ dispatched: number }>;
  close(): Promise<void>;
}

export interface Frame {
  seq?: number;
  epoch?: string;
  event: string;
  data?: any;
  [k: string]: unknown;
}

export interface TestSocket {
  ws: WebSocket;
  frames: Frame[];
  /** Resolves with the first frame (already received or future) matching the predicate. */
  next(match: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  send(obj: unknown): void;
  close(): Promise<void>;
  closed: Promise<{ code: number }>;
}

const env = process.env;

/** Admin URL of the server that holds test databases. */
function adminUrl(): string {
  const base = env.ATENDE_TEST_DATABASE_URL ?? env.DATABASE_URL;
  if (!base) throw new Error('tests need DATABASE_URL (the vitest global setup starts an embedded PostgreSQL when none is set)');
  const u = new URL(base);
  u.pathname = '/postgres';
  return u.toString();
}

function dbUrl(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

let templateReady: Promise<string> | undefined;

/** Creates (once per server and migration set) a migrated template database, under an advisory lock so parallel workers agree. */
async function ensureTemplate(): Promise<string> {
  const plugins = await discoverPlugins(ROOT_DIR);
  const plan = migrationPlan(plugins);
  const signature = plan.map((m) => `${m.module}:${m.migrations.map((x) => x.name + x.up.join(';').length).join(',')}`).join('|');
  const { createHash } = await import('node:crypto');
  const name = `atende_tpl_${createHash('sha1').update(signature).digest('hex').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(7345112002)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) {
      await admin.query(`CREATE DATABASE "${name}_tmp"`).catch(async () => {
        await admin.query(`DROP DATABASE IF EXISTS "${name}_tmp"`);
        await admin.query(`CREATE DATABASE "${name}_tmp"`);
      });
      const pool = new pg.Pool({ connectionString: dbUrl(`${name}_tmp`), max: 2 });
      try {
        await runMigrations(pool, plan);
      } finally {
        await pool.end();
      }
      await admin.query(`ALTER DATABASE "${name}_tmp" RENAME TO "${name}"`);
      await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(7345112002)').catch(() => undefined);
    await admin.end();
  }
  return name;
}

async function cloneDatabase(): Promise<string> {
  templateReady ??= ensureTemplate();
  const template = await templateReady;
  // `<run>` is the vitest process (see global-setup.ts), so a run never drops another live run's databases.
  const name = `atende_t_${process.env.ATENDE_TEST_RUN ?? '0'}_${process.pid}_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    // CREATE DATABASE ... TEMPLATE fails if another session is connected to the template; retry briefly.
    for (let i = 0; ; i++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        break;
      } catch (err) {
        if (i >= 20) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  return name;
}

/** A database at an older schema (see `TestAppOptions.upgrade`), named like the cloned ones so the teardown drops it. */
async function olderDatabase(upgrade: NonNullable<TestAppOptions['upgrade']>): Promise<string> {
  const plan = migrationPlan(await discoverPlugins(ROOT_DIR));
  const known = new Set(plan.flatMap((m) => m.migrations.map((x) => `${m.module}/${x.name}`)));
  const unknown = upgrade.pending.filter((k) => !known.has(k));
  if (unknown.length) throw new Error(`upgrade: no migration ${unknown.join(', ')}`);
  const older = plan.map((m) => ({ ...m, migrations: m.migrations.filter((x) => !upgrade.pending.includes(`${m.module}/${x.name}`)) }));
  const name = `atende_t_${process.env.ATENDE_TEST_RUN ?? '0'}_${process.pid}_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: dbUrl(name), max: 2 });
  try {
    await runMigrations(pool, older);
    await upgrade.seed(pool);
  } finally {
    await pool.end();
  }
  return name;
}

let userSeq = 0;

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dbName = opts.upgrade ? await olderDatabase(opts.upgrade) : await cloneDatabase();
  const databaseUrl = dbUrl(dbName);
  const useRedis = opts.redis !== false && !!env.REDIS_URL;
  const config: AtendeConfig = {
    ...loadConfig({ ATENDE_LOG_LEVEL: env.ATENDE_TEST_LOG_LEVEL ?? 'silent', ATENDE_CAPTCHA: 'off' }),
    databaseUrl,
    redisUrl: useRedis ? env.REDIS_URL : undefined,
    namespace: `atende-t-${dbName}`,
    strictResponses: true,
    // Suites fire thousands of requests from one address; the limit has its own test (rate-limit.test.ts).
    rateLimitTenant: 0,
    rateLimitIp: 0,
    dataDir: path.join(ROOT_DIR, '.atende-test', dbName),
    plugins: opts.plugins,
    shutdownTimeoutMs: 2000,
    // The local fake providers listen on 127.0.0.1: the kit allows that host explicitly, as a superadmin would
    // allow an on-premise provider; the guard stays on (R9 passes its own list).
    outboundAllow: ['127.0.0.1'],
    ...opts.config,
  };
  const app = await buildApp(config, { logger: pino({ level: config.logLevel }), workers: opts.workers });
  await ensurePlatformTenant(app.kernel);
  // Until the superadmin accepts the terms of use, other users are refused (ERR_TERMS_NOT_ACCEPTED); most tests are about something else.
  if (opts.termsAccepted !== false) await app.kernel.db.pool.query('UPDATE tenants SET terms_accepted_at = now() WHERE id = 1 AND terms_accepted_at IS NULL');
  const sql = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  sql.on('error', () => undefined);
  let listening: Promise<string> | undefined;
  const sockets = new Set<TestSocket>();

  const baseUrl = () =>
    (listening ??= app.listen({ port: 0, host: '127.0.0.1' }).then(() => {
      const a = app.server.address();
      return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    }));

  const t: TestApp = {
    app,
    databaseUrl,
    sql,
    baseUrl,
    dispatchScheduled: (now) => dispatchScheduled(app.kernel, now),
    async createTenant(fields = {}) {
      const r = await sql.query<{ id: number }>(
        `INSERT INTO tenants (name, status, max_users, max_connections, menus) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [fields.name ?? `Empresa ${++userSeq}`, fields.status ?? 'active', fields.maxUsers ?? 50, fields.maxConnections ?? 10, JSON.stringify(fields.menus ?? {})],
      );
      // The sandbox channel is off for new companies (only the demo has it); the suites use it as their channel.
      await sql.query(`INSERT INTO tenant_plugins (tenant_id, plugin_id, enabled) VALUES ($1, 'channel-sandbox', true)`, [r.rows[0].id]);
      return r.rows[0].id;
    },
    async loginAs(profile, tenantId, fields = {}) {
      const tid = tenantId ?? (profile === 'superadmin' ? 1 : await t.createTenant());
      const email = fields.email ?? `${profile}.${++userSeq}.${process.pid}@teste.com.br`;
      const password = fields.password ?? 'Senha#123';
      const r = await sql.query<{ id: number }>(
        `INSERT INTO users (tenant_id, name, email, password_hash, profile, queues, menus) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [tid, `${profile} ${userSeq}`, email, await hashPassword(password), profile, JSON.stringify(fields.queues ?? []), JSON.stringify(fields.menus ?? {})],
      );
      const id = r.rows[0].id;
      const tokens = await openSession(app, { id, tenantId: tid, profile, tokenVersion: 0 });
      return { id, tenantId: tid, email, password, profile, token: tokens.token, refreshToken: tokens.refreshToken, headers: { authorization: `Bearer ${tokens.token}` } };
    },
    async openSocket(token, resume = {}) {
      const base = (await baseUrl()).replace('http', 'ws');
      const qs = new URLSearchParams({ token });
      if (resume.epoch) qs.set('epoch', resume.epoch);
      if (resume.since !== undefined) qs.set('since', String(resume.since));
      const ws = new WebSocket(`${base}/api/ws?${qs}`);
      const frames: Frame[] = [];
      const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
      ws.on('message', (raw) => {
        const f = JSON.parse(raw.toString()) as Frame;
        frames.push(f);
        for (const w of [...waiters]) if (w.match(f)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(f);
        }
      });
      const closed = new Promise<{ code: number }>((resolve) => ws.on('close', (code) => resolve({ code })));
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`socket refused: ${res.statusCode}`), { statusCode: res.statusCode })));
        ws.once('error', reject);
      });
      const s: TestSocket = {
        ws,
        frames,
        closed,
        send: (obj) => ws.send(JSON.stringify(obj)),
        next: (match, timeoutMs = 5000) => {
          const hit = frames.find(match);
          if (hit) return Promise.resolve(hit);
          return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.event))}`)), timeoutMs);
            waiters.push({ match, resolve: (f) => (clearTimeout(timer), resolve(f)) });
          });
        },
        close: async () => {
          if (ws.readyState !== ws.CLOSED) {
            ws.close();
            await closed;
          }
        },
      };
      sockets.add(s);
      return s;
    },
    async close() {
      for (const s of sockets) await s.close().catch(() => undefined);
      await app.close();
      await sql.end();
      // The database itself is dropped by the global teardown, after every worker has exited.
      await fs.promises.rm(config.dataDir, { recursive: true, force: true });
      if (useRedis) {
        const { Redis } = await import('ioredis');
        const redis = new Redis(env.REDIS_URL!);
        const keys = await redis.keys(`${config.namespace}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
    },
  };
  return t;
}
export { runChannelConformance, type ChannelConformanceOptions, type ConformanceContext, type FakeInbound, type FakeProvider, type FakeSentMessage } from './channel-kit.ts';
/** Browser tests for plugins' screens: Debian's Chromium through playwright-core. */
export { launchBrowser, loggedInPage, chromiumAvailable } from './browser.ts';

/**
 * Polls `fn` until it returns something truthy (which it returns) or `ms` pass (then
 * throws, naming `what`): tests wait for what a user would see, never for a fixed time.
 */
export async function until<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 15_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
