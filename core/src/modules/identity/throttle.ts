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
/** One counter an attempt is charged to: `limit` attempts per `windowMs`, then locked for `lockMs`. */
export interface ThrottleSlot {
  key: string;
  limit: number;
  windowMs: number;
  lockMs: number;
}

export interface ThrottlePort {
  /** Milliseconds the key stays locked (0 when not locked). */
  lockedFor(key: string): Promise<number>;
  /**
   * Reserves one attempt on every slot at once, before the attempt is evaluated, so concurrent
   * attempts cannot all pass a check made before any of them was counted. Atomic across nodes:
   * when a slot is locked, answers its remaining lock; when a slot already holds `limit` attempts,
   * locks it and answers `lockMs`; in both cases nothing is counted. Otherwise counts one attempt
   * on every slot and answers 0 (go ahead).
   */
  reserve(slots: ThrottleSlot[]): Promise<number>;
  /** The reserved attempt failed: locks, from now, every slot whose count reached its limit. */
  settle(slots: ThrottleSlot[]): Promise<void>;
  /** The reserved attempt succeeded: gives it back, so only failures use up the limit. */
  release(keys: string[]): Promise<void>;
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

  async reserve(slots: ThrottleSlot[]): Promise<number> {
    // Keys in one order everywhere, so two reservations sharing keys cannot deadlock.
    const sorted = [...slots].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const keys = sorted.map((s) => s.key);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO auth_throttle (key, failures, window_ends_at, locked_until) SELECT k, 0, now(), NULL FROM unnest($1::text[]) AS k ORDER BY k ON CONFLICT (key) DO NOTHING`,
        [keys],
      );
      // Row locks serialize every reservation of these keys until COMMIT, on any node.
      const rows = await client.query<{ key: string; failures: number; expired: boolean; lock_ms: number }>(
        `SELECT key, failures, window_ends_at <= now() AS expired,
                GREATEST(0, COALESCE(EXTRACT(EPOCH FROM (locked_until - now())) * 1000, 0))::float8 AS lock_ms
           FROM auth_throttle WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE`,
        [keys],
      );
      const byKey = new Map(rows.rows.map((r) => [r.key, r]));
      const locked = Math.max(0, ...rows.rows.map((r) => r.lock_ms));
      if (locked > 0) {
        await client.query('COMMIT');
        return Math.ceil(locked);
      }
      const full = sorted.find((s) => { const r = byKey.get(s.key)!; return !r.expired && r.failures >= s.limit; });
      if (full) {
        await client.query(
          `UPDATE auth_throttle SET failures = 0, window_ends_at = now(), locked_until = now() + $2::float8 * interval '1 millisecond' WHERE key = $1`,
          [full.key, full.lockMs],
        );
        await client.query('COMMIT');
        return full.lockMs;
      }
      for (const s of sorted) {
        await client.query(
          `UPDATE auth_throttle SET
             failures = CASE WHEN window_ends_at <= now() THEN 1 ELSE failures + 1 END,
             window_ends_at = CASE WHEN window_ends_at <= now() THEN now() + $2::float8 * interval '1 millisecond' ELSE window_ends_at END,
             locked_until = NULL
           WHERE key = $1`,
          [s.key, s.windowMs],
        );
      }
      await client.query('COMMIT');
      return 0;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async settle(slots: ThrottleSlot[]): Promise<void> {
    for (const s of slots) {
      await this.pool.query(
        `UPDATE auth_throttle SET locked_until = now() + $3::float8 * interval '1 millisecond', failures = 0, window_ends_at = now()
          WHERE key = $1 AND failures >= $2::int AND window_ends_at > now() AND (locked_until IS NULL OR locked_until <= now())`,
        [s.key, s.limit, s.lockMs],
      );
    }
  }

  async release(keys: string[]): Promise<void> {
    await this.pool.query(`UPDATE auth_throttle SET failures = GREATEST(0, failures - 1) WHERE key = ANY($1::text[]) AND window_ends_at > now()`, [keys]);
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

// KEYS: (counter, lock) per slot; ARGV: (limit, windowMs, lockMs) per slot. See ThrottlePort.reserve.
const RESERVE_SCRIPT = `
local m = #KEYS / 2
local locked = 0
for i = 1, m do
  local ttl = redis.call('PTTL', KEYS[2 * i])
  if ttl > locked then locked = ttl end
end
if locked > 0 then return locked end
for i = 1, m do
  local n = tonumber(redis.call('GET', KEYS[2 * i - 1]) or '0')
  if n >= tonumber(ARGV[3 * i - 2]) then
    redis.call('SET', KEYS[2 * i], '1', 'PX', ARGV[3 * i])
    redis.call('DEL', KEYS[2 * i - 1])
    return tonumber(ARGV[3 * i])
  end
end
for i = 1, m do
  if redis.call('INCR', KEYS[2 * i - 1]) == 1 then redis.call('PEXPIRE', KEYS[2 * i - 1], ARGV[3 * i - 1]) end
end
return 0`;

// Same layout as RESERVE_SCRIPT: locks every slot whose count reached its limit.
const SETTLE_SCRIPT = `
for i = 1, #KEYS / 2 do
  local n = tonumber(redis.call('GET', KEYS[2 * i - 1]) or '0')
  if n >= tonumber(ARGV[3 * i - 2]) and redis.call('PTTL', KEYS[2 * i]) <= 0 then
    redis.call('SET', KEYS[2 * i], '1', 'PX', ARGV[3 * i])
    redis.call('DEL', KEYS[2 * i - 1])
  end
end
return 0`;

// KEYS: counters. Takes one attempt back from each counter that still exists.
const RELEASE_SCRIPT = `
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 and redis.call('DECR', KEYS[i]) <= 0 then redis.call('DEL', KEYS[i]) end
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

  private slotArgs(slots: ThrottleSlot[]): [string[], number[]] {
    return [slots.flatMap((s) => this.k(s.key)), slots.flatMap((s) => [s.limit, s.windowMs, s.lockMs])];
  }

  async reserve(slots: ThrottleSlot[]): Promise<number> {
    const [keys, args] = this.slotArgs(slots);
    return Number(await this.redis.eval(RESERVE_SCRIPT, keys.length, ...keys, ...args));
  }

  async settle(slots: ThrottleSlot[]): Promise<void> {
    const [keys, args] = this.slotArgs(slots);
    await this.redis.eval(SETTLE_SCRIPT, keys.length, ...keys, ...args);
  }

  async release(keys: string[]): Promise<void> {
    if (keys.length) await this.redis.eval(RELEASE_SCRIPT, keys.length, ...keys.map((k) => this.k(k)[0]));
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(...this.k(key));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
