import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/index.ts';
import { startFakeSmtp } from '../mail/fake-smtp.ts';
import { listOutbox } from '../mail/mailer.ts';
import { Captcha, CAPTCHA_TTL_MS } from './captcha.ts';
import { installSecret } from './tokens.ts';
import { isValidCpfCnpj } from './validation.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

beforeAll(async () => {
  t = await createTestApp();
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const login = (email: string, password: string, extra: Record<string, unknown> = {}, app = t) =>
  app.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password, ...extra }, remoteAddress: nextIp() });

async function waitFor<T>(fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('login', () => {
  it('answers the session record of the spec and opens a working session', async () => {
    const u = await t.loginAs('admin');
    const res = await login(`  ${u.email.toUpperCase()} `, u.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['blockWavoip', 'configs', 'email', 'expiresIn', 'profile', 'queues', 'refreshToken', 'tenantId', 'token', 'userId', 'username', 'whatsappAllowed'].sort(),
    );
    expect(body).toMatchObject({ userId: u.id, tenantId: u.tenantId, profile: 'admin', email: u.email, queues: [], blockWavoip: false, whatsappAllowed: [], configs: {} });
    const me = await t.app.inject({ method: 'GET', url: '/api/me/access', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(u.id);
    const online = await t.sql.query('SELECT is_online FROM users WHERE id = $1', [u.id]);
    expect(online.rows[0].is_online).toBe(true);
  });

  it('refuses a wrong password and an unknown account alike', async () => {
    const u = await t.loginAs('user');
    const wrong = await login(u.email, 'Errada#123');
    const unknown = await login('ninguem@teste.com.br', 'Errada#123');
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS', message: 'Informe usuário e senha corretamente' });
    }
  });

  it('refuses a disabled user as bad credentials and an inactive tenant with ERR_TENANT_INACTIVE', async () => {
    const u = await t.loginAs('user');
    await t.sql.query('UPDATE users SET active = false WHERE id = $1', [u.id]);
    expect((await login(u.email, u.password)).json().error).toBe('ERR_INVALID_CREDENTIALS');
    const v = await t.loginAs('user');
    await t.sql.query(`UPDATE tenants SET status = 'inactive' WHERE id = $1`, [v.tenantId]);
    const res = await login(v.email, v.password);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_TENANT_INACTIVE', message: 'Sua empresa está inativa' });
  });

  it('validates the body by schema: extra fields and wrong types are 400 ERR_VALIDATION', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 1, password: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
  });

  it('answers the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/check-version/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: '0.1.0' });
  });

  it('with the captcha off, the challenge says so', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/captcha' });
    expect(res.json()).toMatchObject({ enabled: false, width: 300, height: 150 });
  });
});

/** Finds the hole in the background picture the way a person does: the outline drawn around it. */
function solveCaptcha(background: string): number {
  const svg = Buffer.from(background.split(',')[1], 'base64').toString('utf8');
  const png = Buffer.from(/base64,([^"]+)"/.exec(svg)![1], 'base64');
  let off = 8;
  let w = 0;
  const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('ascii', off + 4, off + 8);
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') w = data.readUInt32BE(0);
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = w * 4 + 1;
  const h = raw.length / stride;
  for (let x = 0; x < w; x++) {
    let n = 0;
    for (let y = 0; y < h; y++) {
      const o = y * stride + 1 + x * 4;
      if (raw[o] === 240 && raw[o + 1] === 240 && raw[o + 2] === 240) n++;
    }
    if (n >= 20) return x;
  }
  throw new Error('hole not found');
}

describe('slider captcha (ATENDE_CAPTCHA on) and install SMTP', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp({ config: { captcha: true, smtpUrl: `smtp://127.0.0.1:${smtp.port}`, smtpFrom: 'atende@instalacao.test' } });
  });
  afterAll(async () => {
    await c?.close();
  });

  it('issues a drawn, signed challenge and login needs it solved, once', async () => {
    const u = await c.loginAs('user');
    const no = await login(u.email, u.password, {}, c);
    expect(no.statusCode).toBe(400);
    expect(no.json()).toEqual({ error: 'ERR_CAPTCHA', message: 'Por favor, valide o CAPTCHA antes de continuar' });

    const ch = (await c.app.inject({ method: 'GET', url: '/api/auth/captcha' })).json();
    expect(ch).toMatchObject({ enabled: true, width: 300, height: 150 });
    expect(ch.background).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(ch.piece).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(typeof ch.pieceY).toBe('number');
    const x = solveCaptcha(ch.background);
    // The target is not readable from the token.
    expect(Buffer.from(ch.token.split('.')[0], 'base64url').toString('latin1')).not.toContain(`"x":${x}`);

    const far = (await c.app.inject({ method: 'GET', url: '/api/auth/captcha' })).json();
    expect((await login(u.email, u.password, { captchaToken: far.token, captchaX: solveCaptcha(far.background) + 30 }, c)).json().error).toBe('ERR_CAPTCHA');

    const tampered = `${ch.token.slice(0, -2)}AA`;
    expect((await login(u.email, u.password, { captchaToken: tampered, captchaX: x }, c)).json().error).toBe('ERR_CAPTCHA');

    const ok = await login(u.email, u.password, { captchaToken: ch.token, captchaX: x + 3 }, c);
    expect(ok.statusCode).toBe(200);
    const again = await login(u.email, u.password, { captchaToken: ch.token, captchaX: x }, c);
    expect(again.json().error).toBe('ERR_CAPTCHA');
  });

  it('refuses an expired challenge', async () => {
    const cap = new Captcha(await installSecret(c.app.kernel.db.pool, 'captcha'), c.app.kernel.db.pool);
    const ch = cap.issue(Date.now() - CAPTCHA_TTL_MS - 1000);
    expect(await cap.verify(ch.token, solveCaptcha(ch.background))).toBe(false);
    const fresh = cap.issue();
    expect(await cap.verify(fresh.token, solveCaptcha(fresh.background))).toBe(true);
  });

  it('sends the reset mail through the install SMTP when neither tenant has SMTP', async () => {
    const u = await c.loginAs('user');
    const before = smtp.messages.length;
    const res = await c.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: u.email }, remoteAddress: nextIp() });
    expect(res.json()).toEqual({ ok: true });
    const mail = await waitFor(async () => smtp.messages.slice(before).find((m) => m.to.includes(u.email)));
    expect(mail.from).toBe('atende@instalacao.test');
    expect(mail.data).toContain('Redefini');
    expect(mail.data).toMatch(/#\/reset\/[A-Za-z0-9_-]{20,}/);
  });
});

describe('password recovery', () => {
  const resetToken = (text: string) => /#\/reset\/([A-Za-z0-9_-]+)/.exec(text)![1];

  it('with no SMTP keeps the mail in the outbox that only the superadmin reads, and the link resets the password once', async () => {
    const u = await t.loginAs('admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: u.email }, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    const entry = await waitFor(async () => (await listOutbox(t.app.kernel.db.pool)).find((m) => m.to === u.email));
    expect(entry).toMatchObject({ tenantId: u.tenantId, status: 'no_smtp', subject: 'Redefinição de senha' });

    const sa = await t.loginAs('superadmin');
    const outbox = await t.app.inject({ method: 'GET', url: '/api/mail/outbox', headers: sa.headers });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json().messages.some((m: { to: string }) => m.to === u.email)).toBe(true);
    const denied = await t.app.inject({ method: 'GET', url: '/api/mail/outbox', headers: u.headers });
    expect(denied.statusCode).toBe(403);

    const token = resetToken(entry.text);
    const weak = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'abcdefgh' } });
    expect(weak.json().error).toBe('ERR_WEAK_PASSWORD');
    const mismatch = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'Nova#Senha1', confirmPassword: 'Outra#Senha1' } });
    expect(mismatch.json()).toEqual({ error: 'ERR_PASSWORDS_MISMATCH', message: 'As senhas não coincidem' });
    const ok = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'Nova#Senha1', confirmPassword: 'Nova#Senha1' } });
    expect(ok.statusCode).toBe(200);
    // The old session ends; the new password logs in; the link works once.
    expect((await t.app.inject({ method: 'GET', url: '/api/me/access', headers: u.headers })).statusCode).toBe(401);
    expect((await login(u.email, 'Nova#Senha1')).statusCode).toBe(200);
    expect((await login(u.email, u.password)).statusCode).toBe(401);
    const reuse = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'Outra#Senha2' } });
    expect(reuse.json()).toEqual({ error: 'ERR_RESET_PASSWORD', message: 'Erro ao redefinir a senha.' });
  });

  it('answers an unknown address exactly like a known one and sends nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: 'nao.existe@teste.com.br' }, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    await new Promise((r) => setTimeout(r, 500));
    expect((await listOutbox(t.app.kernel.db.pool)).some((m) => m.to === 'nao.existe@teste.com.br')).toBe(false);
  });

  it('refuses an expired reset token', async () => {
    const u = await t.loginAs('user');
    await t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: u.email }, remoteAddress: nextIp() });
    const entry = await waitFor(async () => (await listOutbox(t.app.kernel.db.pool)).find((m) => m.to === u.email));
    await t.sql.query(`UPDATE auth_password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [u.id]);
    const res = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token: resetToken(entry.text), password: 'Nova#Senha1' } });
    expect(res.json().error).toBe('ERR_RESET_PASSWORD');
  });

  it("sends through the tenant's own SMTP settings, whose password is never returned", async () => {
    const admin = await t.loginAs('admin');
    const put = await t.app.inject({ method: 'PUT', url: '/api/tenants/smtp', headers: admin.headers, payload: { host: '127.0.0.1', port: smtp.port, user: null, password: 'segredo-smtp', secure: false, from: 'suporte@empresa.test' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ configured: true, host: '127.0.0.1', port: smtp.port, user: null, secure: false, from: 'suporte@empresa.test', hasPassword: true });
    expect(JSON.stringify((await t.app.inject({ method: 'GET', url: '/api/tenants/smtp', headers: admin.headers })).json())).not.toContain('segredo');
    const stored = await t.sql.query('SELECT password_enc FROM mail_smtp_settings WHERE tenant_id = $1', [admin.tenantId]);
    expect(stored.rows[0].password_enc).not.toContain('segredo');
    // Without a user name nodemailer sends no AUTH, so the fake server accepts the stored password unused.
    const test = await t.app.inject({ method: 'POST', url: '/api/tenants/smtp/test', headers: admin.headers, payload: { to: 'destino@teste.com.br' } });
    expect(test.json().sent).toBe(true);
    const agent = await t.loginAs('user', admin.tenantId);
    const before = smtp.messages.length;
    await t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: agent.email }, remoteAddress: nextIp() });
    const mail = await waitFor(async () => smtp.messages.slice(before).find((m) => m.to.includes(agent.email)));
    expect(mail.from).toBe('suporte@empresa.test');
    expect((await t.app.inject({ method: 'GET', url: '/api/tenants/smtp', headers: agent.headers })).statusCode).toBe(403);
    const other = await t.loginAs('admin');
    expect((await t.app.inject({ method: 'GET', url: '/api/tenants/smtp', headers: other.headers })).json()).toEqual({ configured: false });
  });

  it('keeps a mail whose SMTP server refuses it in the outbox with the reason', async () => {
    const bad = await startFakeSmtp({ rejectRcpt: true });
    try {
      const admin = await t.loginAs('admin');
      await t.app.inject({ method: 'PUT', url: '/api/tenants/smtp', headers: admin.headers, payload: { host: '127.0.0.1', port: bad.port, secure: false } });
      await t.app.inject({ method: 'POST', url: '/api/password-reset', payload: { email: admin.email }, remoteAddress: nextIp() });
      const entry = await waitFor(async () => (await listOutbox(t.app.kernel.db.pool)).find((m) => m.to === admin.email));
      expect(entry.status).toBe('send_failed');
      expect(entry.error).toMatch(/550/);
    } finally {
      await bad.close();
    }
  });
});

describe('signup', () => {
  const cpf = '529.982.247-25';
  const cnpj = '11.222.333/0001-81';
  let planId: number;

  beforeAll(async () => {
    const r = await t.sql.query(`INSERT INTO plans (name, value, users, connections, trial, trial_days) VALUES ('Básico', 99.9, 3, 2, true, 7) RETURNING id`);
    planId = r.rows[0].id;
    await t.sql.query(`INSERT INTO plans (name, value, users, connections, active) VALUES ('Antigo', 10, 1, 1, false)`);
  });

  const signup = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/signup', payload: body, remoteAddress: nextIp() });

  it('validates CPF and CNPJ check digits', () => {
    expect(isValidCpfCnpj(cpf)).toBe(true);
    expect(isValidCpfCnpj('52998224725')).toBe(true);
    expect(isValidCpfCnpj('529.982.247-26')).toBe(false);
    expect(isValidCpfCnpj('111.111.111-11')).toBe(false);
    expect(isValidCpfCnpj(cnpj)).toBe(true);
    expect(isValidCpfCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCpfCnpj('123')).toBe(false);
  });

  it('lists the active plans publicly with the signup fields only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/plans/public' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ id: planId, name: 'Básico', value: 99.9, users: 3, connections: 2, trial: true, trialDays: 7 }]);
  });

  it('refuses with the spec messages', async () => {
    const base = { name: 'Loja Azul', email: 'dono@lojaazul.com.br', password: 'Senha#123', identity: cpf, planId };
    expect((await signup({ ...base, name: ' ' })).json()).toEqual({ error: 'ERR_SIGNUP_FIELDS', message: 'Preencha todos os campos!' });
    expect((await signup({ ...base, planId: undefined })).json().error).toBe('ERR_SIGNUP_FIELDS');
    expect((await signup({ ...base, identity: '123.456.789-00' })).json()).toEqual({ error: 'ERR_INVALID_CPF_CNPJ', message: 'CPF ou CNPJ inválido' });
    expect((await signup({ ...base, email: 'dono@' })).json()).toEqual({ error: 'ERR_INVALID_EMAIL', message: 'E-mail inválido' });
    for (const password of ['Se#1', 'senhasenha#', 'Senha1234', 'Senha#abc']) expect((await signup({ ...base, password })).json().error).toBe('ERR_WEAK_PASSWORD');
    const inactivePlan = await t.sql.query(`SELECT id FROM plans WHERE name = 'Antigo'`);
    expect((await signup({ ...base, planId: inactivePlan.rows[0].id })).json()).toEqual({ error: 'ERR_CREATING_CLIENT', message: 'Erro ao criar cliente' });
  });

  it('creates the tenant from the plan with its admin, who can log in', async () => {
    const res = await signup({ name: 'Loja Verde', email: 'Dona@LojaVerde.com.br', password: 'Senha#123', identity: cnpj, planId, userName: 'Maria' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ email: 'dona@lojaverde.com.br', planId, trial: true });
    expect(body).not.toHaveProperty('tenantId');
    const tenant = await t.sql.query('SELECT t.id, t.name, t.max_users, t.max_connections, t.trial, t.trial_ends_at, t.plan_id FROM tenants t JOIN users u ON u.tenant_id = t.id WHERE u.email = $1', ['dona@lojaverde.com.br']);
    expect(tenant.rows[0]).toMatchObject({ name: 'Loja Verde', max_users: 3, max_connections: 2, trial: true, plan_id: planId });
    const days = (new Date(tenant.rows[0].trial_ends_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    const l = await login('dona@lojaverde.com.br', 'Senha#123');
    expect(l.json()).toMatchObject({ profile: 'admin', tenantId: tenant.rows[0].id, username: 'Maria' });
  });

  it('is refused when the platform disabled user creation', async () => {
    await t.sql.query(`INSERT INTO settings (tenant_id, key, value) VALUES (1, 'userCreation', 'disabled')`);
    try {
      const res = await signup({ name: 'Fechada', email: 'x@fechada.com.br', password: 'Senha#123', identity: cpf, planId });
      expect(res.json().error).toBe('ERR_USER_CREATION_DISABLED');
    } finally {
      await t.sql.query(`DELETE FROM settings WHERE tenant_id = 1 AND key = 'userCreation'`);
    }
  });
});
