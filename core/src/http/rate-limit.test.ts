import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/index.ts';

/** The general API limit, on both stores: PostgreSQL (no Redis) and Redis. */
describe.each([
  { store: 'PostgreSQL', redis: false },
  { store: 'Redis', redis: true },
])('general API rate limit ($store)', ({ redis }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ plugins: [], redis, config: { rateLimitTenant: 5, rateLimitIp: 3 } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the calls of a tenant and address past the limit with ERR_LIMIT_MAX and Retry-After; another tenant is not affected', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const get = (headers: Record<string, string>, ip = '10.9.0.1') => t.app.inject({ method: 'GET', url: '/api/queues', headers, remoteAddress: ip });
    for (let i = 0; i < 5; i++) expect((await get(a.headers)).statusCode).toBe(200);
    const refused = await get(a.headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'ERR_LIMIT_MAX', message: expect.stringMatching(/^Muitas requisições em pouco tempo\. Tente novamente em \d+ s$/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same tenant from another address, and another tenant from the same address, still get through.
    expect((await get(a.headers, '10.9.0.2')).statusCode).toBe(200);
    expect((await get(b.headers)).statusCode).toBe(200);
  });

  it('limits calls without a session per address, and never counts the health check', async () => {
    const ping = () => t.app.inject({ method: 'GET', url: '/api/publicSystemColors', remoteAddress: '10.9.1.1' });
    for (let i = 0; i < 3; i++) expect((await ping()).statusCode).toBe(200);
    expect((await ping()).statusCode).toBe(429);
    for (let i = 0; i < 5; i++) expect((await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.9.1.1' })).statusCode).toBe(200);
  });
});
