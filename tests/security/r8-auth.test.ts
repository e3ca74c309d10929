/**
 * R8 authentication (docs/reliability.md): brute force per account and per IP, refresh
 * token reuse, logout and disable ending HTTP and socket sessions, and tokens
 * that must never be accepted (alg none, expired, another secret, tampered).
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../core/src/testing/index.ts';
import { LOGIN_LIMITS, PASSWORD_RESET_JOB, loginSlots, sourceOf } from '../../core/src/modules/identity/auth-routes.ts';
import { listOutbox } from '../../core/src/modules/mail/mailer.ts';

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
  it(`locks an account after ${LOGIN_LIMITS.perAccount} failures from one address, for a minute, even with the right password`, async () => {
    const u = await t.loginAs('user');
    const ip = '10.1.0.1';
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) expect((await login(u.email, 'Errada#1', ip)).statusCode).toBe(401);
    const locked = await login(u.email, u.password, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: 'ERR_LIMIT_MAX', message: 'Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another account from the same address is not affected.
    const v = await t.loginAs('user');
    expect((await login(v.email, v.password, ip)).statusCode).toBe(200);
    // After the minute the right password works again (the lock is moved into the past to avoid waiting).
    const [fromHere] = loginSlots(u.email, ip);
    const store = t.app.kernel.config.redisUrl ? 'redis' : 'pg';
    if (store === 'pg') await t.sql.query(`UPDATE auth_throttle SET locked_until = now() - interval '1 second' WHERE key = $1`, [fromHere.key]);
    else {
      const { Redis } = await import('ioredis');
      const r = new Redis(t.app.kernel.config.redisUrl!);
      await r.del(`${t.app.kernel.config.namespace}:throttle:lock:${fromHere.key}`);
      r.disconnect();
    }
    expect((await login(u.email, u.password, ip)).statusCode).toBe(200);
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
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) await login(u.email, 'Errada#1', '10.3.0.1');
    const { throttleOf } = await import('../../core/src/modules/identity/auth-routes.ts');
    expect(await throttleOf(t.app.kernel).lockedFor(loginSlots(u.email, '10.3.0.1')[0].key)).toBeGreaterThan(0);
  });

  it('X1-6: 40 concurrent guesses on one account are never all evaluated: at most the limit, the rest 429, and the account stays locked', async () => {
    const u = await t.loginAs('user');
    const ip = '10.6.0.1';
    const res = await Promise.all(Array.from({ length: 40 }, (_, i) => login(u.email, `Errada#${i}`, ip)));
    const codes = res.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(40 - LOGIN_LIMITS.perAccount);
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    // The right password, guessed after the limit, is refused too.
    expect((await login(u.email, u.password, ip)).statusCode).toBe(429);
  });

  it('X1-6: 40 concurrent guesses over many accounts from one address: at most the per-IP limit are evaluated', async () => {
    const ip = '10.6.1.1';
    const res = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`x16-${i}@teste.com.br`, 'Errada#1', ip)));
    expect(res.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perIp);
    expect(res.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(40 - LOGIN_LIMITS.perIp);
  });

  it('X1-12: concurrent reset requests for one address send no more mails than the limit', async () => {
    const u = await t.loginAs('user');
    const res = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: u.email }, remoteAddress: `10.12.0.${i}` })),
    );
    expect(res.every((r) => r.statusCode === 200 && r.json().ok === true)).toBe(true);
    // Every request has returned, so every mail it queued is in the queue: wait until the queue is empty.
    await vi.waitFor(async () => {
      const c = await t.app.kernel.jobs.counts(PASSWORD_RESET_JOB);
      expect((c.waiting ?? 0) + (c.active ?? 0) + (c.delayed ?? 0)).toBe(0);
    }, { timeout: 20_000, interval: 100 });
    const mails = (await listOutbox(t.app.kernel.db.pool)).filter((m) => m.to === u.email);
    expect(mails.length).toBe(3);
  });

  it('X1-14: guesses from elsewhere never lock the owner out, and a password reset lets the owner in while the account is locked', async () => {
    const u = await t.loginAs('user');
    // A stranger's guesses lock the stranger's address only.
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) expect((await login(u.email, 'Errada#1', '10.14.0.1')).statusCode).toBe(401);
    expect((await login(u.email, u.password, '10.14.0.1')).statusCode).toBe(429);
    expect((await login(u.email, u.password, '10.14.9.9')).statusCode).toBe(200);
    // Guesses spread over many addresses hit the account's ceiling (run concurrently: the ceiling holds there too).
    const spread = await Promise.all(
      Array.from({ length: LOGIN_LIMITS.perAccountAnySource + 10 }, (_, i) => login(u.email, 'Errada#1', `10.14.${1 + Math.floor(i / 4)}.${i % 4}`)),
    );
    expect(spread.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perAccountAnySource);
    expect((await login(u.email, u.password, '10.14.8.8')).statusCode).toBe(429);
    // The owner asks for a reset from a locked address and chooses a new password: they are in.
    await t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: u.email }, remoteAddress: '10.14.8.8' });
    const mail = await vi.waitFor(async () => {
      const m = (await listOutbox(t.app.kernel.db.pool)).find((x) => x.to === u.email);
      expect(m).toBeTruthy();
      return m!;
    }, { timeout: 20_000, interval: 100 });
    const token = /#\/reset\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const reset = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'Nova#Senha14' }, remoteAddress: '10.14.8.8' });
    expect(reset.statusCode).toBe(200);
    expect((await login(u.email, 'Nova#Senha14', '10.14.8.8')).statusCode).toBe(200);
  });

  it('X1-14: a source is an IPv4 address (mapped or not) or an IPv6 /64, so rotating addresses inside one /64 counts as one source', async () => {
    expect(sourceOf('::ffff:10.14.0.1')).toBe('10.14.0.1');
    expect(sourceOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(sourceOf('2001:0db8:0001:0002::1'));
    expect(sourceOf('2001:db8:1:2::1')).not.toBe(sourceOf('2001:db8:1:3::1'));
    const u = await t.loginAs('user');
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) expect((await login(u.email, 'Errada#1', `2001:db8:14:1::${i + 1}`)).statusCode).toBe(401);
    expect((await login(u.email, u.password, '2001:db8:14:1::ffff')).statusCode).toBe(429);
    expect((await login(u.email, u.password, '2001:db8:14:2::1')).statusCode).toBe(200);
  });

  it('X1-18: login and refresh answers tell browsers and proxies not to keep them', async () => {
    const u = await t.loginAs('user');
    const res = await login(u.email, u.password, '10.18.0.1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', payload: { refreshToken: res.json().refreshToken } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    const failed = await login(u.email, 'Errada#1', '10.18.0.2');
    expect(failed.headers['cache-control']).toBe('no-store');
    // Every other API answer too, unless the route set its own policy.
    expect((await me(res.json().token)).headers['cache-control']).toBe('no-store');
  });
});

describe('R8 own password', () => {
  it('X1-10: users change their own password only with the current one; guesses at it are throttled; an admin resets others without it', async () => {
    const admin = await t.loginAs('admin');
    const u = await t.loginAs('user', admin.tenantId);
    const put = (who: { headers: Record<string, string> }, id: number, payload: object, ip = '10.10.0.1') =>
      t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: who.headers, payload, remoteAddress: ip });
    const missing = await put(u, u.id, { password: 'Roubada#1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'ERR_CURRENT_PASSWORD', message: 'A senha atual está incorreta' });
    expect((await put(u, u.id, { password: 'Roubada#1', currentPassword: 'Errada#1' })).json().error).toBe('ERR_CURRENT_PASSWORD');
    // The old password still logs in: nothing changed.
    expect((await login(u.email, u.password, '10.10.0.9')).statusCode).toBe(200);
    // Concurrent guesses at the current password are held by the login throttle of the account and source.
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => put(u, u.id, { password: 'Roubada#1', currentPassword: `Chute#${i}` }, '10.10.0.2')));
    expect(guesses.filter((r) => r.statusCode === 400).length).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount);
    expect(guesses.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(12 - LOGIN_LIMITS.perAccount);
    const ok = await put(u, u.id, { password: 'Trocada#10', currentPassword: u.password }, '10.10.0.3');
    expect(ok.statusCode).toBe(200);
    expect((await login(u.email, 'Trocada#10', '10.10.0.9')).statusCode).toBe(200);
    // An admin setting another user's password needs no current password (theirs or the user's).
    expect((await put(admin, u.id, { password: 'Definida#10' })).statusCode).toBe(200);
    expect((await login(u.email, 'Definida#10', '10.10.0.9')).statusCode).toBe(200);
    // But an admin changing their own needs it too.
    expect((await put(admin, admin.id, { password: 'Minha#Nova10' })).json().error).toBe('ERR_CURRENT_PASSWORD');
  });
});

describe('R8 enumeration', () => {
  it('X1-13: signup with an address that has an account answers exactly like a new account, creates nothing, and tells the owner', async () => {
    const plan = await t.sql.query(`INSERT INTO plans (name, value, users, connections, trial, trial_days) VALUES ('X1-13', 50, 2, 1, false, 0) RETURNING id`);
    const planId = plan.rows[0].id;
    const owner = await t.loginAs('admin');
    const body = (email: string) => ({ name: 'Loja Curiosa', email, password: 'Senha#123', identity: '529.982.247-25', planId });
    const fresh = await t.app.inject({ method: 'POST', url: '/api/signup', payload: body(`nova.${Date.now()}@lojacuriosa.com.br`), remoteAddress: '10.13.0.1' });
    const taken = await t.app.inject({ method: 'POST', url: '/api/signup', payload: body(owner.email), remoteAddress: '10.13.0.2' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    expect(taken.json()).toEqual({ ...fresh.json(), email: owner.email });
    // Nothing was created: the address still logs into the owner's tenant only.
    const tenants = await t.sql.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = $1`, [owner.email]);
    expect(tenants.rows[0].n).toBe(1);
    const l = await login(owner.email, owner.password, '10.13.0.3');
    expect(l.json().tenantId).toBe(owner.tenantId);
    // The owner is told by mail.
    const notice = await vi.waitFor(async () => {
      const m = (await listOutbox(t.app.kernel.db.pool)).find((x) => x.to === owner.email && x.subject === 'Tentativa de cadastro com o seu e-mail');
      expect(m).toBeTruthy();
      return m!;
    }, { timeout: 20_000, interval: 100 });
    expect(notice.text).toContain('Nada foi criado');
  });
});

describe('R8 enumeration (user creation)', () => {
  it("X1-13: an admin adding a user whose address another tenant holds gets a new user's answer; each logs in with their own password; the owner is told", async () => {
    const owner = await t.loginAs('admin');
    const adminB = await t.loginAs('admin');
    const create = (email: string) => t.app.inject({ method: 'POST', url: '/api/users', headers: adminB.headers, payload: { name: 'Novo Agente', email, password: 'Agente#13', profile: 'user' } });
    const free = await create(`livre.${Date.now()}@teste.com.br`);
    const held = await create(owner.email.toUpperCase());
    expect(held.statusCode).toBe(free.statusCode);
    expect(Object.keys(held.json()).sort()).toEqual(Object.keys(free.json()).sort());
    expect(held.json()).toMatchObject({ email: owner.email, profile: 'user', active: true });
    // Tenant B's user logs into tenant B with B's password; the owner into their own tenant with theirs.
    const asB = await login(owner.email, 'Agente#13', '10.13.1.1');
    expect(asB.statusCode).toBe(200);
    expect(asB.json()).toMatchObject({ tenantId: adminB.tenantId, userId: held.json().id });
    const asOwner = await login(owner.email, owner.password, '10.13.1.2');
    expect(asOwner.json()).toMatchObject({ tenantId: owner.tenantId, userId: owner.id });
    // Editing another user's address onto the owner's answers the same as any other address.
    const adminC = await t.loginAs('admin');
    const other = await t.loginAs('user', adminC.tenantId);
    const moved = await t.app.inject({ method: 'PUT', url: `/api/users/${other.id}`, headers: adminC.headers, payload: { email: owner.email } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().email).toBe(owner.email);
    // An address already in the admin's own tenant is still refused: they see that user in their list.
    expect((await create(owner.email)).json().error).toBe('ERR_EMAIL_IN_USE');
    const notice = await vi.waitFor(async () => {
      const m = (await listOutbox(t.app.kernel.db.pool)).find((x) => x.to === owner.email && x.subject === 'Seu e-mail foi informado em outra empresa');
      expect(m).toBeTruthy();
      return m!;
    }, { timeout: 20_000, interval: 100 });
    expect(notice.tenantId).toBe(owner.tenantId);
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
