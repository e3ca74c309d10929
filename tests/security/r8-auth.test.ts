/**
 * R8 authentication (docs/reliability.md): brute force per account and per IP, refresh
 * token reuse, logout and disable ending HTTP and socket sessions, and tokens
 * that must never be accepted (alg none, expired, another secret, tampered).
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../core/src/testing/index.ts';
import { LOGIN_LIMITS } from '../../core/src/modules/identity/auth-routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string, ip: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/me/access', headers: { authorization: `Bearer ${token}` } });
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('R8 brute force', () => {
  it(`locks an account after ${LOGIN_LIMITS.perAccount} failures, whatever the IP, for a minute, even with the right password`, async () => {
    const u = await t.loginAs('user');
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) expect((await login(u.email, 'Errada#1', `10.1.0.${i}`)).statusCode).toBe(401);
    const locked = await login(u.email, u.password, '10.1.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: 'ERR_LIMIT_MAX', message: 'Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another account from the same IPs is not affected.
    const v = await t.loginAs('user');
    expect((await login(v.email, v.password, '10.1.0.1')).statusCode).toBe(200);
    // After the minute the right password works again (the lock is moved into the past to avoid waiting).
    const store = t.app.kernel.config.redisUrl ? 'redis' : 'pg';
    if (store === 'pg') await t.sql.query(`UPDATE auth_throttle SET locked_until = now() - interval '1 second' WHERE key = $1`, [`login:acct:${u.email}`]);
    else {
      const { Redis } = await import('ioredis');
      const r = new Redis(t.app.kernel.config.redisUrl!);
      await r.del(`${t.app.kernel.config.namespace}:throttle:lock:login:acct:${u.email}`);
      r.disconnect();
    }
    expect((await login(u.email, u.password, '10.1.1.2')).statusCode).toBe(200);
  });

  it(`locks an IP after ${LOGIN_LIMITS.perIp} failures across accounts`, async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) expect((await login(`alvo${i}@teste.com.br`, 'Errada#1', ip)).statusCode).toBe(401);
    const u = await t.loginAs('user');
    const locked = await login(u.email, u.password, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('ERR_LIMIT_MAX');
    expect((await login(u.email, u.password, '10.2.0.2')).statusCode).toBe(200);
  });

  it('the lock is shared by every node of the install (same store)', async () => {
    const u = await t.loginAs('user');
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) await login(u.email, 'Errada#1', `10.3.0.${i}`);
    const { throttleOf } = await import('../../core/src/modules/identity/auth-routes.ts');
    expect(await throttleOf(t.app.kernel).lockedFor(`login:acct:${u.email}`)).toBeGreaterThan(0);
  });
});

describe('R8 refresh tokens', () => {
  it('rotate on every use; a reused one revokes the whole session and closes its sockets', async () => {
    const u = await t.loginAs('admin');
    const r1 = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: u.refreshToken } });
    expect(r1.statusCode).toBe(200);
    const s1 = r1.json();
    expect(s1).toMatchObject({ userId: u.id, tenantId: u.tenantId, profile: 'admin' });
    expect(s1.refreshToken).not.toBe(u.refreshToken);
    const r2 = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: s1.refreshToken } });
    const s2 = r2.json();
    expect(r2.statusCode).toBe(200);
    const sock = await t.openSocket(s2.token);
    await sock.next((f) => f.event === 'hello');

    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: u.refreshToken } });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().error).toBe('ERR_SESSION_EXPIRED');
    expect((await sock.closed).code).toBe(4001);
    expect((await me(s2.token)).statusCode).toBe(401);
    const latest = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: s2.refreshToken } });
    expect(latest.statusCode).toBe(401);
    const row = await t.sql.query('SELECT revoked_reason FROM auth_sessions WHERE user_id = $1', [u.id]);
    expect(row.rows[0].revoked_reason).toBe('refresh_reuse');
  });

  it('an unknown refresh token is refused', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: 'x'.repeat(43) } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('ERR_INVALID_TOKEN');
  });

  it('an expired refresh token is refused', async () => {
    const u = await t.loginAs('user');
    await t.sql.query(`UPDATE auth_refresh_tokens SET expires_at = now() - interval '1 second' WHERE session_id IN (SELECT id FROM auth_sessions WHERE user_id = $1)`, [u.id]);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: u.refreshToken } });
    expect(res.json().error).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('R8 session end', () => {
  it('logout refuses the access token at once and closes the session socket, not the other sessions', async () => {
    const u = await t.loginAs('user');
    const other = await login(u.email, u.password, '10.4.0.1');
    const otherToken = other.json().token as string;
    const s = await t.openSocket(u.token);
    const s2 = await t.openSocket(otherToken);
    await s.next((f) => f.event === 'hello');
    await s2.next((f) => f.event === 'hello');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout/', headers: u.headers });
    expect(out.statusCode).toBe(204);
    await s.next((f) => f.event === 'session.ended');
    expect((await s.closed).code).toBe(4001);
    expect((await me(u.token)).json().error).toBe('ERR_SESSION_EXPIRED');
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: u.refreshToken } });
    expect(refresh.statusCode).toBe(401);
    expect((await me(otherToken)).statusCode).toBe(200);
    expect(s2.ws.readyState).toBe(s2.ws.OPEN);
    await expect(t.openSocket(u.token)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('a disabled user loses HTTP and socket access and cannot log in', async () => {
    const admin = await t.loginAs('admin');
    const u = await t.loginAs('user', admin.tenantId);
    const s = await t.openSocket(u.token);
    await s.next((f) => f.event === 'hello');
    await t.app.inject({ method: 'PUT', url: `/api/users/${u.id}`, headers: admin.headers, payload: { active: false } });
    expect((await s.closed).code).toBe(4001);
    expect((await me(u.token)).statusCode).toBe(401);
    expect((await login(u.email, u.password, '10.5.0.1')).json().error).toBe('ERR_INVALID_CREDENTIALS');
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: u.refreshToken } });
    expect(refresh.statusCode).toBe(401);
  });
});

describe('R8 bad tokens', () => {
  it('refuses alg none, an expired token, another secret, a tampered payload and a token with a wrong version', async () => {
    const u = await t.loginAs('admin');
    const [h, p] = u.token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, prf: 'superadmin' })}.`;
    expect((await me(none)).json().error).toBe('ERR_INVALID_TOKEN');

    const sign = (payload: object, secret: string, header = { alg: 'HS256', typ: 'JWT' }) => {
      const body = `${b64(header)}.${b64(payload)}`;
      return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
    };
    const secret = t.app.kernel.jwtSecret;
    const expired = sign({ ...claims, iat: Math.floor(Date.now() / 1000) - 3600, exp: Math.floor(Date.now() / 1000) - 60 }, secret);
    const expiredRes = await me(expired);
    expect(expiredRes.statusCode).toBe(401);
    expect(expiredRes.json().error).toBe('ERR_SESSION_EXPIRED');

    expect((await me(sign(claims, 'outro-segredo-qualquer'))).json().error).toBe('ERR_INVALID_TOKEN');
    expect((await me(sign(claims, secret, { alg: 'HS512', typ: 'JWT' }))).json().error).toBe('ERR_INVALID_TOKEN');
    const tampered = `${h}.${b64({ ...claims, tid: claims.tid + 1 })}.${u.token.split('.')[2]}`;
    expect((await me(tampered)).json().error).toBe('ERR_INVALID_TOKEN');
    // Correctly signed but naming another tenant than the user's: refused.
    expect((await me(sign({ ...claims, tid: 1 }, secret))).json().error).toBe('ERR_INVALID_TOKEN');
    // Signed with an old token version (before a disable/re-enable): refused.
    expect((await me(sign({ ...claims, tv: claims.tv - 1 }, secret))).json().error).toBe('ERR_SESSION_EXPIRED');
    expect((await me('lixo')).json().error).toBe('ERR_INVALID_TOKEN');
    expect((await me(u.token)).statusCode).toBe(200);
  });

  it('the JWT secret is generated per install, never a default', async () => {
    const other = await createTestApp({ workers: false });
    try {
      expect(other.app.kernel.jwtSecret.length).toBeGreaterThanOrEqual(48);
      expect(other.app.kernel.jwtSecret).not.toBe(t.app.kernel.jwtSecret);
      const u = await t.loginAs('admin');
      const res = await other.app.inject({ method: 'GET', url: '/api/me/access', headers: u.headers });
      expect(res.json().error).toBe('ERR_INVALID_TOKEN');
    } finally {
      await other.close();
    }
  });
});
