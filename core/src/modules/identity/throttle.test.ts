import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/index.ts';
import { PgThrottle, RedisThrottle, type ThrottlePort } from './throttle.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ redis: false });
});
afterAll(async () => {
  await t?.close();
});

const stores: [string, () => ThrottlePort][] = [['PostgreSQL', () => new PgThrottle(t.app.kernel.db.pool)]];
// One prefix for every store made in this file: two "nodes" must share the counters.
const redisPrefix = `atende-throttle-test-${process.pid}-${Date.now()}`;
if (process.env.REDIS_URL) stores.push(['Redis', () => new RedisThrottle(process.env.REDIS_URL!, redisPrefix)]);

describe.each(stores)('throttle on %s', (_name, make) => {
  it('locks a key on its Nth failure for the lock time, and reset clears it', async () => {
    const s = make();
    try {
      const key = `k:${Math.random()}`;
      for (let i = 1; i < 3; i++) {
        expect(await s.fail(key, 3, 60_000, 60_000)).toBe(0);
        expect(await s.lockedFor(key)).toBe(0);
      }
      const lock = await s.fail(key, 3, 60_000, 60_000);
      expect(lock).toBeGreaterThan(59_000);
      expect(await s.lockedFor(key)).toBeGreaterThan(59_000);
      expect(await s.lockedFor(`${key}:other`)).toBe(0);
      await s.reset(key);
      expect(await s.lockedFor(key)).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('starts a new window when the old one ended and lifts the lock when it expires', async () => {
    const s = make();
    try {
      const key = `w:${Math.random()}`;
      expect(await s.fail(key, 2, 150, 300)).toBe(0);
      await new Promise((r) => setTimeout(r, 250));
      expect(await s.fail(key, 2, 150, 300)).toBe(0);
      expect(await s.fail(key, 2, 150, 300)).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 400));
      expect(await s.lockedFor(key)).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('counts concurrent failures from several nodes exactly', async () => {
    const a = make();
    const b = make();
    try {
      const key = `c:${Math.random()}`;
      const locks = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).fail(key, 10, 60_000, 60_000)));
      expect(locks.filter((l) => l > 0).length).toBe(1);
      expect(await a.lockedFor(key)).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('X1-6: reserves attempts atomically across nodes: of 30 concurrent reservations exactly the limit pass, a release gives one back', async () => {
    const a = make();
    const b = make();
    try {
      const key = `r:${Math.random()}`;
      const other = `r2:${Math.random()}`;
      const slots = [{ key, limit: 5, windowMs: 60_000, lockMs: 60_000 }, { key: other, limit: 100, windowMs: 60_000, lockMs: 60_000 }];
      const got = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).reserve(slots)));
      expect(got.filter((ms) => ms === 0).length).toBe(5);
      expect(await a.lockedFor(key)).toBeGreaterThan(59_000);
      // Refused reservations were not charged to the other slot.
      await a.reset(key);
      await a.release([other]);
      const more = await Promise.all(Array.from({ length: 10 }, () => b.reserve([{ key: other, limit: 6, windowMs: 60_000, lockMs: 60_000 }])));
      expect(more.filter((ms) => ms === 0).length).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
