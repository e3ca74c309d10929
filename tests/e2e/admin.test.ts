/**
 * The shell's admin screens in a real browser (Debian Chromium through
 * playwright-core) against a real kernel serving ui-shell/dist: people click
 * through as they would. Screenshots go to /tmp/admin-*.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { CHROMIUM, chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const distReady = fs.existsSync(path.join(import.meta.dirname, '../../ui-shell/dist/index.html'));
const run = chromiumAvailable() && distReady ? describe : describe.skip;

run('admin screens in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.baseUrl();
    // launchBrowser() passes --user-data-dir, which playwright-core 1.5x refuses with chromium.launch(); fall back to the same flags without it.
    browser = await launchBrowser().catch(() =>
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Logs in through the login form (the captcha is off in tests) and waits for the main layout. */
  async function login(user: TestUser, locale = 'pt-BR'): Promise<Page> {
    const context = await browser.newContext({ baseURL: base, locale, viewport: { width: 1366, height: 820 } });
    const page = await context.newPage();
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 15_000 });
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/admin-${name}.png`, fullPage: false });

  it('creates a contact through the drawer and finds it by search', async () => {
    const admin = await t.loginAs('admin');
    await t.app.inject({ method: 'POST', url: '/api/tags', headers: admin.headers, payload: { name: 'VIP', color: '#9333ea' } });
    for (const [name, number] of [['Ana Souza', '5511987650001'], ['Bruno Lima', '5521987650002'], ['Carla Dias', '5531987650003']])
      await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name, number, email: `${name.split(' ')[0]!.toLowerCase()}@cliente.com.br` } });
    const page = await login(admin);
    await page.goto(`${base}/#/contatos`);
    await page.getByRole('button', { name: 'Novo contato' }).click();
    const form = page.getByRole('form', { name: 'Formulário do contato' });
    // Inline validation before anything is sent.
    await form.getByLabel('Número').fill('12345');
    await form.getByLabel('CPF/CNPJ').fill('111.111.111-11');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(() => form.getByText('O campo nome é obrigatório').count()).toBe(1);
    await expect.poll(() => form.getByText(/Número inválido: inclua o código do país/).count()).toBe(1);
    await expect.poll(() => form.getByText(/CPF ou CNPJ inválido/).count()).toBe(1);
    await form.getByRole('textbox', { name: /^Nome/ }).fill('Maria Oliveira');
    await form.getByLabel('Número').fill('5511912345678');
    await form.getByLabel('E-mail').fill('maria@exemplo.com.br');
    await form.getByLabel('CPF/CNPJ').fill('52998224725');
    expect(await form.getByLabel('CPF/CNPJ').inputValue()).toBe('529.982.247-25');
    await form.getByLabel('Aniversário').fill('15031990');
    await shot(page, 'contact-drawer');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Contato criado').waitFor({ timeout: 10_000 });
    await page.getByRole('textbox', { name: /Buscar por nome/ }).fill('Oliveira');
    await expect.poll(async () => page.getByRole('row').filter({ hasText: 'Maria Oliveira' }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Ana Souza' }).count()).toBe(0);
    const stored = await t.sql.query(`SELECT number, identity, birthday::text AS birthday FROM contacts WHERE tenant_id = $1 AND name = 'Maria Oliveira'`, [admin.tenantId]);
    expect(stored.rows[0]).toEqual({ number: '5511912345678', identity: '529.982.247-25', birthday: '1990-03-15' });
    await page.getByRole('textbox', { name: /Buscar por nome/ }).fill('');
    await expect.poll(() => page.getByRole('row').count(), { timeout: 10_000 }).toBe(5);
    await shot(page, 'contacts');
    await page.context().close();
  }, 60_000);

  it('imports a CSV with one bad row: the progress finishes and the rejected row says why', async () => {
    const admin = await t.loginAs('admin');
    const page = await login(admin);
    await page.goto(`${base}/#/contatos`);
    await page.getByRole('button', { name: 'Importar' }).click();
    const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'atende-import-')), 'contatos.csv');
    fs.writeFileSync(csv, 'Nome,Numero,Email\nJoão Pereira,5511955550001,joao@x.com.br\nSem Número,123,\nLuiza Costa,5511955550003,\n');
    await page.locator('input[type=file]').setInputFiles(csv);
    await page.getByRole('dialog').getByRole('button', { name: 'Importar' }).click();
    await page.getByTestId('import-status').filter({ hasText: 'Importação concluída' }).waitFor({ timeout: 20_000 });
    const table = page.getByRole('table', { name: 'Linhas rejeitadas' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).innerText()).toMatch(/3\s+número inválido \(inclua o código do país\)/);
    expect(await page.getByRole('progressbar', { name: 'Progresso da importação' }).getAttribute('aria-valuenow')).toBe('100');
    await shot(page, 'import');
    await page.getByRole('button', { name: 'Fechar' }).last().click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Luiza Costa' }).count(), { timeout: 10_000 }).toBe(1);
    await page.context().close();
  }, 60_000);

  it('a user denied a menu sees "Acesso negado" and lands on contatos', async () => {
    const admin = await t.loginAs('admin');
    const user = await t.loginAs('user', admin.tenantId, { menus: { kanban: false } });
    const page = await login(user);
    await page.goto(`${base}/#/kanban`);
    await page.getByText('Acesso negado').first().waitFor({ timeout: 10_000 });
    await page.waitForURL((u) => u.hash.startsWith('#/contatos'), { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Contatos', exact: true }).waitFor();
    await page.context().close();
  }, 60_000);

  it('switching the language to English in the user menu shows the contacts screen in English', async () => {
    const admin = await t.loginAs('admin');
    const page = await login(admin);
    await page.goto(`${base}/#/contatos`);
    await page.getByRole('heading', { name: 'Contatos', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Idioma' }).hover();
    await page.getByRole('menuitem', { name: 'English', exact: true }).click();
    await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'New contact' }).first().waitFor();
    await page.getByRole('textbox', { name: 'Search by name, number or email' }).waitFor();
    await shot(page, 'contacts-en');
    await page.context().close();
  }, 60_000);

  it('an admin disables the demands plugin in settings and the Motivos route disappears for that tenant', async () => {
    const admin = await t.loginAs('admin');
    await t.app.inject({ method: 'PUT', url: '/api/plugins/demands/enabled', headers: admin.headers, payload: { enabled: true } });
    const page = await login(admin);
    await page.goto(`${base}/#/configuracoes/geral`);
    // Settings tabs are grouped as the spec's groups; Motivos is a tab of CRM, declared by the demands remote.
    await page.getByRole('tab', { name: 'CRM', exact: true }).click();
    await page.getByRole('tab', { name: 'Motivos' }).click();
    await page.waitForURL((u) => u.hash === '#/configuracoes/motivos');
    await page.getByRole('tab', { name: 'Geral', exact: true }).first().click();
    await page.waitForURL((u) => u.hash === '#/configuracoes/geral');
    // The conflict rule is explained, and the second exclusive option is locked while the first is on.
    await page.getByRole('switch', { name: 'Ocultar atendimentos atribuídos a outros' }).click({ force: true });
    await page.getByText('Configuração salva').first().waitFor();
    expect(await page.getByRole('switch', { name: 'Ocultar atendimentos do chatbot' }).isDisabled()).toBe(true);
    await shot(page, 'settings');
    await page.getByRole('switch', { name: 'Ativar Motivos' }).click({ force: true });
    await page.getByText('Plugin desativado').first().waitFor();
    const state = await t.sql.query(`SELECT enabled FROM tenant_plugins WHERE tenant_id = $1 AND plugin_id = 'demands'`, [admin.tenantId]).catch(() => ({ rows: [] as { enabled: boolean }[] }));
    if (state.rows[0]) expect(state.rows[0].enabled).toBe(false);
    await page.getByRole('button', { name: 'Recarregar para aplicar' }).click();
    await page.getByRole('heading', { name: 'Configurações gerais' }).waitFor({ timeout: 15_000 });
    await page.getByRole('tab', { name: 'CRM', exact: true }).click();
    await page.getByRole('tab', { name: 'Lanes', exact: false }).first().waitFor();
    expect(await page.getByRole('tab', { name: 'Motivos' }).count()).toBe(0);
    await page.goto(`${base}/#/configuracoes/motivos`);
    await page.getByText(/não encontrada|Página não encontrada|404/i).first().waitFor({ timeout: 10_000 });
    await page.context().close();
  }, 60_000);

  it('X1-10: an admin changing their own password in the users drawer is asked for the current one', async () => {
    const admin = await t.loginAs('admin');
    const page = await login(admin);
    await page.goto(`${base}/#/usuarios`);
    const row = page.getByRole('row').filter({ hasText: admin.email });
    await row.getByRole('button', { name: 'Editar' }).click();
    const form = page.getByRole('form', { name: 'Formulário do usuário' });
    expect(await form.getByLabel('Senha atual').count()).toBe(0);
    await form.getByLabel('Senha', { exact: true }).fill('Nova#Senha10');
    await form.getByLabel('Senha atual').fill('Errada#10');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await form.getByText('A senha atual está incorreta').waitFor();
    await form.getByLabel('Senha atual').fill(admin.password);
    await form.getByRole('button', { name: 'Salvar' }).click();
    await form.waitFor({ state: 'detached' });
    const relog = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: 'Nova#Senha10' }, remoteAddress: '10.10.9.9' });
    expect(relog.statusCode).toBe(200);
    await page.context().close();
  });

  it('screens of the other admin areas render with data (screenshots)', async () => {
    const admin = await t.loginAs('admin');
    const h = admin.headers;
    const q = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: h, payload: { name: 'Suporte', color: '#0891b2' } })).json();
    await t.app.inject({ method: 'POST', url: '/api/queues', headers: h, payload: { name: 'Vendas', color: '#ea580c', greetingMessage: 'Olá! Em que podemos ajudar?' } });
    await t.app.inject({ method: 'POST', url: '/api/tags', headers: h, payload: { name: 'Cliente novo', color: '#059669' } });
    await t.app.inject({ method: 'POST', url: '/api/quick-messages', headers: h, payload: { key: 'ola', message: 'Olá! Obrigado pelo contato. Como posso ajudar?' } });
    await t.app.inject({ method: 'POST', url: '/api/users', headers: h, payload: { name: 'Paula Agente', email: `paula.${Date.now()}@empresa.com.br`, password: 'Senha#123', profile: 'user', queues: [q.id], menus: { kanban: false, campaigns: false } } });
    const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: h, payload: { type: 'sandbox', name: 'Sandbox' } })).json();
    for (const [i, name] of ['Rafael', 'Juliana', 'Pedro'].entries())
      await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${ch.id}/simulate`, headers: h, payload: { from: { id: `55119888800${i}`, name }, body: `Olá, sou ${name}` } });
    const page = await login(admin);
    for (const [route, heading, name] of [['/usuarios', 'Usuários', 'users'], ['/filas', 'Filas', 'queues'], ['/etiquetas', 'Etiquetas', 'tags'], ['/mensagens-rapidas', 'Mensagens rápidas', 'quick-messages'], ['/painel-atendimentos', 'Painel de atendimentos', 'panel'], ['/home', 'Dashboard', 'dashboard']] as const) {
      await page.goto(`${base}/#${route}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor({ timeout: 10_000 });
      await page.waitForTimeout(600);
      await shot(page, name);
    }
    // Bulk transfer needs both a user and a queue.
    await page.goto(`${base}/#/painel-atendimentos`);
    await expect.poll(() => page.getByRole('checkbox', { name: /Selecionar atendimento/ }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: 'Selecionar a página' }).check();
    await page.getByRole('button', { name: 'Transferir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Transferir' }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('O campo usuário é obrigatório').count()).toBe(1);
    await expect.poll(() => page.getByRole('dialog').getByText('O campo fila é obrigatório').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resolver' }).click();
    await page.getByText(/atendimentos resolvidos/).first().waitFor({ timeout: 15_000 });
    await page.context().close();
  }, 60_000);
});
