import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { formatError, localeOf } from '../errors.ts';
import type { Kernel } from '../kernel.ts';

/**
 * The general API rate limit (docs/configuration.md): per tenant and client
 * address for logged-in calls, per address for the public ones (login,
 * signup, password reset…), counted in one-minute windows shared by every
 * node — in Redis when the install has one, otherwise in PostgreSQL.
 * Beyond the limit: 429 ERR_LIMIT_MAX with `Retry-After`. Provider webhooks
 * (they authenticate and dedupe themselves, and a refused one is redelivered),
 * the health check, the socket upgrade and the docs are not counted.
 * Login attempts keep their own, stricter throttle (identity/throttle.ts).
 */
export const RATE_LIMIT_WINDOW_MS = 60_000;

export const rateLimitMigrations = [
  {
    name: '0001_api_rate_limits',
    // UNLOGGED: counters are worth nothing after a crash, and skipping the WAL keeps the per-request write cheap.
    up: [`CREATE UNLOGGED TABLE api_rate_limits (key text PRIMARY KEY, window_start timestamptz NOT NULL, hits integer NOT NULL)`],
  },
];

type Cb = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** @fastify/rate-limit's store contract, on PostgreSQL: one upsert per counted request. */
function pgStore(pool: pg.Pool) {
  function PgStore(this: { pool: pg.Pool }) {
    this.pool = pool;
  }
  PgStore.prototype.incr = function (this: { pool: pg.Pool }, key: string, cb: Cb, timeWindow: number) {
    this.pool
      .query<{ hits: number; ttl: number }>(
        `INSERT INTO api_rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN r.window_start + $2::float8 * interval '1 millisecond' <= now() THEN 1 ELSE r.hits + 1 END,
           window_start = CASE WHEN r.window_start + $2::float8 * interval '1 millisecond' <= now() THEN now() ELSE r.window_start END
         RETURNING hits, GREATEST(0, EXTRACT(EPOCH FROM (window_start + $2::float8 * interval '1 millisecond' - now())) * 1000)::int AS ttl`,
        [key, timeWindow],
      )
      .then((r) => {
        // Old windows are swept now and then, so the table holds only recent callers.
        if (Math.random() < 0.001) void this.pool.query(`DELETE FROM api_rate_limits WHERE window_start < now() - interval '10 minutes'`).catch(() => undefined);
        cb(null, { current: r.rows[0]!.hits, ttl: r.rows[0]!.ttl });
      })
      .catch((err: Error) => cb(err));
  };
  PgStore.prototype.child = function () {
    return this;
  };
  return PgStore as unknown as new () => object;
}

/** Routes never counted. */
function exempt(req: FastifyRequest): boolean {
  const url = req.url;
  if (!url.startsWith('/api/')) return true;
  if (req.routeOptions.config?.webhook) return true;
  return url === '/api/health' || url.startsWith('/api/ws') || url.startsWith('/api/docs') || url.startsWith('/api/metrics');
}

export async function installRateLimit(app: FastifyInstance, kernel: Kernel, redis?: Redis): Promise<void> {
  const { rateLimitTenant, rateLimitIp } = kernel.config;
  if (!rateLimitTenant && !rateLimitIp) return;
  await app.register(rateLimit, {
    global: true,
    // After authentication (onRequest), so the tenant is known.
    hook: 'preHandler',
    timeWindow: RATE_LIMIT_WINDOW_MS,
    max: (req) => (req.principal ? rateLimitTenant : rateLimitIp) || Number.MAX_SAFE_INTEGER,
    keyGenerator: (req) => (req.principal ? `t${req.principal.tenantId}:${req.ip}` : `ip:${req.ip}`),
    allowList: (req) => exempt(req) || (req.principal ? !rateLimitTenant : !rateLimitIp),
    // A store that cannot answer must not take the API down with it.
    skipOnError: true,
    nameSpace: `${kernel.config.namespace}:rl:`,
    ...(redis ? { redis } : { store: pgStore(kernel.db.pool) as never }),
    errorResponseBuilder: (req, ctx) => {
      const lang = localeOf(req.headers['accept-language']);
      const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000));
      // Thrown by the plugin and answered by the error handler as it is (http/errors.ts).
      return { statusCode: 429, error: 'ERR_LIMIT_MAX', message: formatError('ERR_API_LIMIT', lang, { seconds }) };
    },
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
}
