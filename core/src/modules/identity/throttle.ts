import type pg from 'pg';
import { Redis } from 'ioredis';

/**
 * Failure counters shared by every node (login throttle, reset-mail and signup
 * limits). One port, two implementations, chosen by configuration like the
 * event bus: Redis when REDIS_URL is set, PostgreSQL otherwise.
 *
 * A key collects failures in a fixed window; when it reaches its limit it is
 * locked for `lockMs` from that moment, whatever the window had left.
 */
export interface ThrottlePort {
  /** Milliseconds the key stays locked (0 when not locked). */
  lockedFor(key: string): Promise<number>;
  /** Counts one failure; returns the lock time now in force (0 if none). */
  fail(key: string, limit: number, windowMs: number, lockMs: number): Promise<number>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class PgThrottle implements ThrottlePort {
  constructor(private readonly pool: pg.Pool) {}

  async lockedFor(key: string): Promise<number> {
    const r = await this.pool.query<{ ms: number }>(
      `SELECT GREATEST(0, EXTRACT(EPOCH FROM (locked_until - now())) * 1000)::float8 AS ms FROM auth_throttle WHERE key = $1 AND locked_until > now()`,
      [key],
    );
    return Math.ceil(r.rows[0]?.ms ?? 0);
  }

  async fail(key: string, limit: number, windowMs: number, lockMs: number): Promise<number> {
    // One statement: start a new window when the old one ended, otherwise count; lock on reaching the limit.
    const r = await this.pool.query<{ ms: number }>(
      `INSERT INTO auth_throttle AS a (key, failures, window_ends_at, locked_until)
       VALUES ($1, 1, now() + $2::float8 * interval '1 millisecond', CASE WHEN 1 >= $3::int THEN now() + $4::float8 * interval '1 millisecond' END)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN a.window_ends_at <= now() THEN 1 ELSE a.failures + 1 END,
         window_ends_at = CASE WHEN a.window_ends_at <= now() THEN now() + $2::float8 * interval '1 millisecond' ELSE a.window_ends_at END,
         locked_until = CASE
           WHEN a.locked_until > now() THEN a.locked_until
           WHEN (CASE WHEN a.window_ends_at <= now() THEN 1 ELSE a.failures + 1 END) >= $3::int THEN now() + $4::float8 * interval '1 millisecond'
           ELSE NULL END
       RETURNING GREATEST(0, COALESCE(EXTRACT(EPOCH FROM (locked_until - now())) * 1000, 0))::float8 AS ms`,
      [key, windowMs, limit, lockMs],
    );
    // Expired rows are dropped now and then so the table stays as small as the set of recent offenders.
    if (Math.random() < 0.01) void this.pool.query(`DELETE FROM auth_throttle WHERE window_ends_at < now() AND (locked_until IS NULL OR locked_until < now())`).catch(() => undefined);
    return Math.ceil(r.rows[0].ms);
  }

  async reset(key: string): Promise<void> {
    await this.pool.query('DELETE FROM auth_throttle WHERE key = $1', [key]);
  }

  async close(): Promise<void> {}
}

// KEYS[1] counter, KEYS[2] lock; ARGV limit, windowMs, lockMs. Returns the lock's remaining ms.
const FAIL_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then return ttl end
if n >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  redis.call('DEL', KEYS[1])
  return tonumber(ARGV[3])
end
return 0`;

export class RedisThrottle implements ThrottlePort {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
    this.redis.on('error', () => undefined);
  }

  private k(key: string) {
    return [`${this.prefix}:throttle:n:${key}`, `${this.prefix}:throttle:lock:${key}`];
  }

  async lockedFor(key: string): Promise<number> {
    const ttl = await this.redis.pttl(this.k(key)[1]);
    return ttl > 0 ? ttl : 0;
  }

  async fail(key: string, limit: number, windowMs: number, lockMs: number): Promise<number> {
    const [n, lock] = this.k(key);
    return Number(await this.redis.eval(FAIL_SCRIPT, 2, n, lock, limit, windowMs, lockMs));
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(...this.k(key));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
