import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@atende/core/testing';
import { verifyPassword } from '../../core/src/modules/identity/passwords.ts';
import { runCaptured } from './capture.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './seed.ts';

let t: TestApp;
let env: Record<string, string>;
const cli = (...argv: string[]) => runCaptured(argv, env);

beforeAll(async () => {
  t = await createTestApp({ workers: false });
  env = { DATABASE_URL: t.databaseUrl };
});
afterAll(async () => {
  await t?.close();
});

describe('tenant', () => {
  it('creates, lists, disables and enables a tenant', async () => {
    const created = await cli('tenant', 'create', '--name', 'Loja Azul', '--max-users', '3', '--max-connections', '2');
    expect(created.code).toBe(0);
    const id = Number(/^Tenant (\d+) criado: Loja Azul \(até 3 usuários e 2 conexões\)\.$/.exec(created.out[0]!)?.[1]);
    expect(id).toBeGreaterThan(1);

    const list = await cli('tenant', 'list');
    expect(list.code).toBe(0);
    expect(list.out[0]).toMatch(/^ID\s+NOME\s+ESTADO\s+USUÁRIOS\s+CONEXÕES\s+CRIADO$/);
    expect(list.out.find((l) => l.startsWith(`${id} `))).toMatch(/Loja Azul\s+ativo\s+0\/3\s+2\s/);

    const off = await cli('tenant', 'disable', String(id));
    expect(off.code).toBe(0);
    expect((await t.sql.query('SELECT status FROM tenants WHERE id = $1', [id])).rows[0].status).toBe('inactive');
    expect((await cli('tenant', 'disable', String(id))).out[0]).toMatch(/já estava desativado/);
    expect((await cli('tenant', 'enable', String(id))).code).toBe(0);
    expect((await t.sql.query('SELECT status FROM tenants WHERE id = $1', [id])).rows[0].status).toBe('active');
  });

  it('refuses to disable tenant 1 and names an unknown tenant', async () => {
    const one = await cli('tenant', 'disable', '1');
    expect(one.code).toBe(1);
    expect(one.err).toEqual(['Erro: O tenant 1 (plataforma) não pode ser desativado nem excluído']);
    expect((await t.sql.query('SELECT status FROM tenants WHERE id = 1')).rows[0].status).toBe('active');
    const missing = await cli('tenant', 'disable', '999999');
    expect(missing.code).toBe(1);
    expect(missing.err).toEqual(['Erro: Nenhuma empresa encontrada com este ID: 999999.']);
  });

  it('a disabled tenant locks its users out at once', async () => {
    const admin = await t.loginAs('admin');
    const before = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: admin.headers });
    expect(before.statusCode).toBe(200);
    expect((await cli('tenant', 'disable', String(admin.tenantId))).code).toBe(0);
    const after = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: admin.headers });
    expect(after.json().error).toBe('ERR_TENANT_INACTIVE');
  });
});

describe('user create', () => {
  it('creates a user whose password verifies, and refuses the same e-mail again', async () => {
    const tenantId = await t.createTenant({ name: 'Clínica', maxUsers: 5 });
    const r = await cli('user', 'create', '--email', 'Ana.Souza@clinica.com.br', '--password', 'Boa#senha1', '--profile', 'admin', '--tenant', String(tenantId));
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(new RegExp(`^Usuário \\d+ criado: Ana.Souza@clinica.com.br \\(admin\\) no tenant ${tenantId} \\(Clínica\\)\\.$`));
    const row = (await t.sql.query('SELECT name, profile, tenant_id, password_hash FROM users WHERE email = $1', ['Ana.Souza@clinica.com.br'])).rows[0];
    expect(row).toMatchObject({ name: 'Ana Souza', profile: 'admin', tenant_id: tenantId });
    expect(await verifyPassword(row.password_hash, 'Boa#senha1')).toBe(true);

    const again = await cli('user', 'create', '--email', 'ana.souza@CLINICA.com.br', '--password', 'Boa#senha1', '--profile', 'user', '--tenant', String(tenantId));
    expect(again.code).toBe(1);
    expect(again.err).toEqual(['Erro: Já existe um usuário com este e-mail']);
  });

  it('puts a superadmin in tenant 1 by default', async () => {
    const r = await cli('user', 'create', '--email', 'plataforma@atende.dev', '--password', 'Raiz#2025', '--profile', 'superadmin', '--name', 'Equipe Plataforma');
    expect(r.code).toBe(0);
    const row = (await t.sql.query('SELECT tenant_id, name FROM users WHERE email = $1', ['plataforma@atende.dev'])).rows[0];
    expect(row).toEqual({ tenant_id: 1, name: 'Equipe Plataforma' });
  });

  it('respects the tenant user limit and refuses a bad e-mail', async () => {
    const tenantId = await t.createTenant({ maxUsers: 1 });
    expect((await cli('user', 'create', '--email', 'um@limite.com', '--password', 'Senha#123', '--profile', 'admin', '--tenant', String(tenantId))).code).toBe(0);
    const second = await cli('user', 'create', '--email', 'dois@limite.com', '--password', 'Senha#123', '--profile', 'user', '--tenant', String(tenantId));
    expect(second.code).toBe(1);
    expect(second.err[0]).toMatch(/^Erro: Limite de usuários atingido: o tenant \d+ \(.+\) já tem 1 de 1 usuários\.$/);
    const bad = await cli('user', 'create', '--email', 'não-é-email', '--password', 'Senha#123', '--profile', 'user', '--tenant', String(tenantId));
    expect(bad.err).toEqual(['Erro: E-mail inválido: "não-é-email".']);
  });
});

describe('plugins', () => {
  it('disable then list shows it disabled for that tenant only, and its routes answer 404 there', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');

    const before = await cli('plugins', 'list', '--tenant', String(a.tenantId));
    expect(before.code).toBe(0);
    expect(before.out.find((l) => l.startsWith('demands '))).toMatch(/ativado \(padrão\)/);

    const off = await cli('plugins', 'disable', 'demands', '--tenant', String(a.tenantId));
    expect(off.code).toBe(0);
    expect(off.out[0]).toMatch(new RegExp(`^Plugin demands desativado para o tenant ${a.tenantId} `));

    const after = await cli('plugins', 'list', '--tenant', String(a.tenantId));
    expect(after.out.find((l) => l.startsWith('demands '))).toMatch(/\sdesativado\s/);
    const other = await cli('plugins', 'list', '--tenant', String(b.tenantId));
    expect(other.out.find((l) => l.startsWith('demands '))).toMatch(/\sativado \(padrão\)/);

    const resA = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: a.headers });
    expect(resA.statusCode).toBe(404);
    const resB = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: b.headers });
    expect(resB.statusCode).toBe(200);

    expect((await cli('plugins', 'enable', 'demands', '--tenant', String(a.tenantId))).code).toBe(0);
    expect((await cli('plugins', 'list', '--tenant', String(a.tenantId))).out.find((l) => l.startsWith('demands '))).toMatch(/\sativado\s/);
  });

  it('lists installed plugins without a tenant', async () => {
    const r = await cli('plugins', 'list');
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^PLUGIN\s+TIPO\s+NOME\s+PADRÃO\s+INTERFACE$/);
    expect(r.out.find((l) => l.startsWith('demands '))).toMatch(/feature\s+Motivos\s+ativado\s+sim/);
  });

  it('names an unknown plugin or tenant in one line', async () => {
    const plugin = await cli('plugins', 'enable', 'nao-existe', '--tenant', '1');
    expect(plugin.code).toBe(1);
    expect(plugin.err).toHaveLength(1);
    expect(plugin.err[0]).toMatch(/^Erro: Plugin desconhecido: "nao-existe" \(instalados: .*demands.*\)\.$/);
    const tenant = await cli('plugins', 'disable', 'demands', '--tenant', '999999');
    expect(tenant.code).toBe(1);
    expect(tenant.err).toEqual(['Erro: Nenhuma empresa encontrada com este ID: 999999.']);
  });
});

describe('seed --demo', () => {
  it('creates the demo tenant and one user of each profile, and a second run changes nothing', async () => {
    const first = await cli('seed', '--demo');
    expect(first.code).toBe(0);
    for (const u of DEMO_USERS) expect(first.out.some((l) => l.includes(u.email) && l.endsWith(`senha: ${DEMO_PASSWORD}`))).toBe(true);

    const second = await cli('seed', '--demo');
    expect(second.code).toBe(0);
    expect(second.out.join('\n')).toMatch(/já existia/);

    const tenants = await t.sql.query(`SELECT id FROM tenants WHERE name = 'Demo'`);
    expect(tenants.rowCount).toBe(1);
    const users = await t.sql.query('SELECT email, profile FROM users WHERE tenant_id = $1 ORDER BY email', [tenants.rows[0].id]);
    expect(users.rows).toEqual(
      DEMO_USERS.map((u) => ({ email: u.email, profile: u.profile })).sort((x, y) => x.email.localeCompare(y.email)),
    );
    const hash = (await t.sql.query('SELECT password_hash FROM users WHERE email = $1', ['agente@demo.atende'])).rows[0].password_hash;
    expect(await verifyPassword(hash, DEMO_PASSWORD)).toBe(true);

    // The sandbox channel is created when the plugin and the conversation tables exist, and only once.
    const line = second.out.find((l) => l.startsWith('Canal sandbox'));
    expect(line).toBeDefined();
    const channels = await t.sql.query(`SELECT to_regclass('channels')::text AS t`);
    if (channels.rows[0].t && t.app.kernel.plugins.some((p) => p.id === 'channel-sandbox')) {
      const rows = await t.sql.query(`SELECT id FROM channels WHERE tenant_id = $1 AND type = 'sandbox'`, [tenants.rows[0].id]);
      expect(rows.rowCount).toBe(1);
      expect(line).toMatch(/já existiam/);
    } else {
      expect(line).toMatch(/não criado/);
    }
  });

  it('asks which data set when --demo is missing', async () => {
    const r = await cli('seed');
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['Erro: Escolha o que semear: npx atende seed --demo']);
  });
});

describe('mail list', () => {
  it('says the outbox is empty', async () => {
    const r = await cli('mail', 'list');
    expect(r.code).toBe(0);
    const table = await t.sql.query(`SELECT to_regclass('mail_outbox')::text AS t`);
    if (!table.rows[0].t) expect(r.out).toEqual(['Nenhum e-mail na caixa de saída']);
  });
});

describe('migrate', () => {
  it('has nothing to do on an up-to-date database', async () => {
    const r = await cli('migrate');
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    expect(r.out[0]).toMatch(/^Nenhuma migração pendente \(\d+ aplicadas\)\.$/);
  });
});
