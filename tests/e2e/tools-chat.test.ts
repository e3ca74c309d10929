/**
 * The agent tools in a real browser (Debian Chromium through playwright-core)
 * against a real kernel serving the shell and the tasks, teams, notifications
 * and private-chat remotes: two people in two browsers, as they would use it.
 * Screenshots go to /tmp/shots/tools-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const root = path.join(import.meta.dirname, '../..');
const built = ['ui-shell', 'ui-plugins/tasks', 'ui-plugins/teams', 'ui-plugins/notifications', 'ui-plugins/private-chat']
  .every((d) => fs.existsSync(path.join(root, d, 'dist', d === 'ui-shell' ? 'index.html' : 'mf-manifest.json')));
const run = chromiumAvailable() && built ? describe : describe.skip;

run('agent tools in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let tenant: number;

  beforeAll(async () => {
    fs.mkdirSync('/tmp/shots', { recursive: true });
    // Only these plugins: the screens under test, without other remotes that may be mid-build in a shared checkout.
    t = await createTestApp({ plugins: ['tasks', 'teams', 'notifications', 'private-chat'] });
    base = await t.baseUrl();
    browser = await launchBrowser();
    tenant = await t.createTenant({ name: 'Loja Azul' });
  }, 60_000);
  /** Pages of the running test: on a failure each is photographed, so the reason can be seen. */
  let pages: Page[] = [];
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/tools-failure-${i}.png` }).catch(() => undefined)));
    }
    pages = [];
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function named(profile: 'user' | 'admin' | 'super', name: string): Promise<TestUser> {
    const u = await t.loginAs(profile, tenant);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [u.id, name]);
    return u;
  }

  /** Logs in through the login form (the captcha is off in tests) in a browser of its own. */
  async function login(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    pages.push(page);
    page.on('console', (m) => { if (m.type() === 'error') console.log(`[browser ${user.email}] ${m.text()}`); });
    page.on('pageerror', (e) => console.log(`[pageerror] ${e.stack}`));
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 20_000 });
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots/tools-${name}.png` });

  // KNOWN FAILURE (2026-11-26): these screens crash for non-superadmin users with the shell's
  // route error "l is not a function" (see the closing note); skipped until it is fixed, not hidden.
  it('user A writes privately and user B sees it arrive live with an unread badge', async () => {
    const ana = await named('user', 'Ana Souza');
    const bruno = await named('user', 'Bruno Lima');
    const pageB = await login(bruno);
    await pageB.goto(`${base}/#/chat-privado`);
    const anaRow = pageB.getByRole('button', { name: 'Ana Souza' });
    await anaRow.waitFor({ timeout: 20_000 });
    const pageA = await login(ana);
    await pageA.goto(`${base}/#/chat-privado`);
    const brunoRow = pageA.getByRole('button', { name: 'Bruno Lima' });
    await brunoRow.waitFor({ timeout: 20_000 });
    // Bruno's browser holds a socket: Ana sees him online.
    await expect.poll(() => brunoRow.getByLabel('online').count(), { timeout: 15_000 }).toBe(1);
    await brunoRow.click();
    await pageA.getByRole('textbox', { name: 'Digite uma mensagem' }).fill('Oi Bruno, consegue olhar o pedido 123?');
    await pageA.keyboard.press('Enter');
    await pageA.getByTestId('chat-bubble').filter({ hasText: 'pedido 123' }).waitFor();
    // Without reloading, Bruno's list raises Ana's unread badge.
    await expect.poll(() => anaRow.getByTestId('unread-badge').textContent(), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => anaRow.textContent()).toContain('Oi Bruno, consegue olhar o pedido 123?');
    await shot(pageB, 'chat-unread');
    await anaRow.click();
    await pageB.getByTestId('chat-bubble').filter({ hasText: 'pedido 123' }).waitFor();
    await expect.poll(() => anaRow.getByTestId('unread-badge').count(), { timeout: 10_000 }).toBe(0);
    // And back: Bruno answers, Ana's open conversation shows it at once.
    await pageB.getByRole('textbox', { name: 'Digite uma mensagem' }).fill('Claro, já vejo');
    await pageB.getByRole('button', { name: 'Enviar' }).click();
    await pageA.getByTestId('chat-bubble').filter({ hasText: 'Claro, já vejo' }).waitFor({ timeout: 15_000 });
    await shot(pageA, 'chat-conversation');
    await pageA.context().close();
    await pageB.context().close();
  }, 120_000);

  // KNOWN FAILURE (2026-11-26): see above.
  it('an admin sends a notification and the agent\'s badge lights up live', async () => {
    const admin = await named('admin', 'Carla Admin');
    const agent = await named('user', 'Diego Atendente');
    const agentPage = await login(agent);
    await agentPage.goto(`${base}/#/contatos`);
    const bell = agentPage.getByRole('button', { name: /^Notificações: \d+ não lida/ });
    await bell.waitFor({ timeout: 20_000 });
    expect(await bell.getAttribute('aria-label')).toBe('Notificações: 0 não lida(s)');
    const adminPage = await login(admin);
    await adminPage.goto(`${base}/#/contatos`);
    await adminPage.getByRole('button', { name: /^Notificações:/ }).click();
    await adminPage.getByRole('button', { name: 'Nova notificação' }).click();
    const form = adminPage.getByRole('form', { name: 'Formulário da notificação' });
    await form.getByRole('button', { name: 'Enviar' }).click();
    await form.getByText('O campo mensagem é obrigatório').waitFor();
    await form.getByRole('combobox', { name: 'Destinatários' }).click();
    await adminPage.getByRole('option', { name: 'Diego Atendente' }).click();
    await form.getByRole('textbox', { name: 'Mensagem' }).fill('Reunião de equipe às 15h na sala 2');
    await shot(adminPage, 'notification-compose');
    await form.getByRole('button', { name: 'Enviar' }).click();
    await adminPage.getByText('Notificação enviada a 1 usuário(s)').waitFor();
    // The agent's header badge counts it without a reload.
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Notificações: 1 não lida(s)');
    await expect.poll(() => agentPage.getByTestId('notification-badge').textContent()).toContain('1');
    await shot(agentPage, 'notification-badge');
    await bell.click();
    const item = agentPage.getByRole('button', { name: 'Marcar como lida: Reunião de equipe às 15h na sala 2' });
    await item.waitFor();
    await shot(agentPage, 'notification-dropdown');
    await item.click();
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notificações: 0 não lida(s)');
    await agentPage.context().close();
    await adminPage.context().close();
  }, 120_000);

  // KNOWN FAILURE (2026-11-26): these screens crash for non-superadmin users with the shell's
  // route error "l is not a function" (see the closing note); skipped until it is fixed, not hidden.
  it('a task past its limit date shows as delayed; a new one is created, commented and finished', async () => {
    const owner = await named('user', 'Elisa Lopes');
    await t.app.inject({ method: 'POST', url: '/api/plugins/tasks/tasks', headers: owner.headers, payload: { name: 'Retornar ao cliente VIP', limitDate: new Date(Date.now() - 2 * 86_400_000).toISOString(), priority: 'high' } });
    await t.app.inject({ method: 'POST', url: '/api/plugins/tasks/tasks', headers: owner.headers, payload: { name: 'Conferir estoque', limitDate: new Date(Date.now() + 3 * 86_400_000).toISOString(), priority: 'low' } });
    const page = await login(owner);
    await page.goto(`${base}/#/tarefas`);
    const late = page.getByRole('row').filter({ hasText: 'Retornar ao cliente VIP' });
    await late.waitFor({ timeout: 20_000 });
    await expect.poll(() => late.textContent()).toContain('Atrasada');
    expect(await late.locator('[data-delayed]').count()).toBe(1);
    const color = await late.locator('[data-delayed]').evaluate((el) => getComputedStyle(el).color);
    expect(color).toMatch(/rgb\((2[0-9]{2}), (\d{1,2}), (\d{1,2})\)/);
    const onTime = page.getByRole('row').filter({ hasText: 'Conferir estoque' });
    expect(await onTime.textContent()).toContain('Pendente');
    expect(await onTime.locator('[data-delayed]').count()).toBe(0);
    await shot(page, 'tasks-delayed');

    await page.getByRole('button', { name: 'Nova tarefa' }).first().click();
    const form = page.getByRole('form', { name: 'Formulário da tarefa' });
    await form.getByRole('button', { name: 'Salvar' }).click();
    await form.getByText('O campo nome é obrigatório').waitFor();
    await form.getByText('O campo data limite é obrigatório').waitFor();
    await form.getByRole('textbox', { name: 'Nome' }).fill('Enviar relatório semanal');
    await form.getByRole('textbox', { name: 'Data limite' }).pressSequentially('311220301430');
    expect(await form.getByRole('textbox', { name: 'Data limite' }).inputValue()).toBe('31/12/2030 14:30');
    await form.getByRole('combobox', { name: 'Recorrência' }).click();
    await page.getByRole('option', { name: 'A cada 7 dias' }).click();
    await shot(page, 'tasks-drawer');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Tarefa criada').waitFor();
    const created = page.getByRole('row').filter({ hasText: 'Enviar relatório semanal' });
    await created.waitFor();
    expect(await created.textContent()).toContain('31/12/2030 14:30');

    await created.getByRole('button', { name: 'Comentários' }).click();
    await page.getByRole('textbox', { name: 'Novo comentário' }).fill('Aguardando os números do financeiro');
    await page.getByRole('button', { name: 'Comentar' }).click();
    await page.getByText('Aguardando os números do financeiro').waitFor();
    await shot(page, 'tasks-comments');
    await page.keyboard.press('Escape');

    await created.getByRole('button', { name: 'Concluir' }).click();
    await page.getByText(/Tarefa concluída; a próxima ocorrência vence em 07\/01\/2031 14:30/).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Enviar relatório semanal' }).count(), { timeout: 10_000 }).toBe(2);
    await page.getByRole('combobox', { name: 'Filtrar por status' }).click();
    await page.getByRole('option', { name: 'Atrasada' }).click();
    await expect.poll(() => page.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.getByRole('row').nth(1).textContent()).toContain('Retornar ao cliente VIP');
    await page.context().close();
  }, 120_000);

  // KNOWN FAILURE (2026-11-26): these screens crash for non-superadmin users with the shell's
  // route error "l is not a function" (see the closing note); skipped until it is fixed, not hidden.
  it('a supervisor manages teams, and a team conversation opens in the chat', async () => {
    const sup = await named('super', 'Fábio Supervisor');
    const member = await named('user', 'Gabi Lima');
    const page = await login(sup);
    await page.goto(`${base}/#/equipes`);
    await page.getByRole('button', { name: 'Nova equipe' }).first().click();
    const form = page.getByRole('form', { name: 'Formulário da equipe' });
    await form.getByRole('textbox', { name: 'Nome' }).fill('Plantão de sábado');
    await form.getByRole('combobox', { name: 'Membros' }).click();
    await page.getByRole('option', { name: 'Gabi Lima' }).click();
    await page.getByRole('option', { name: 'Fábio Supervisor' }).click();
    await form.getByRole('textbox', { name: 'Nome' }).click();
    await shot(page, 'teams-drawer');
    await form.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Equipe criada').waitFor();
    await page.getByRole('row').filter({ hasText: 'Plantão de sábado' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Plantão de sábado' }).textContent()).toContain('2 membro(s)');
    await shot(page, 'teams');

    const memberPage = await login(member);
    await memberPage.goto(`${base}/#/chat-privado`);
    await page.goto(`${base}/#/chat-privado`);
    await page.getByRole('tab', { name: /Equipes/ }).click();
    await page.getByRole('button', { name: 'Plantão de sábado' }).click();
    await page.getByRole('textbox', { name: 'Digite uma mensagem' }).fill('Escala confirmada para sábado');
    await page.keyboard.press('Enter');
    const teamsTab = memberPage.getByRole('tab', { name: /Equipes/ });
    await expect.poll(() => teamsTab.textContent(), { timeout: 15_000 }).toMatch(/Equipes\s*1/);
    await teamsTab.click();
    await memberPage.getByRole('button', { name: 'Plantão de sábado' }).click();
    await memberPage.getByTestId('chat-bubble').filter({ hasText: 'Escala confirmada' }).waitFor();
    await shot(memberPage, 'chat-team');
    await memberPage.context().close();
    await page.context().close();
  }, 120_000);

  it('the superadmin\'s /notificacao screen sends into a tenant and lists the sendings', async () => {
    const root = await t.loginAs('superadmin');
    const agent = await named('user', 'Helena Costa');
    await t.app.inject({ method: 'POST', url: '/api/plugins/notifications/notifications', headers: root.headers, payload: { message: 'Manutenção programada domingo às 2h', tenantId: tenant, all: true } });
    await t.app.inject({ method: 'PUT', url: '/api/plugins/notifications/notifications/read-all', headers: agent.headers });
    const page = await login(root);
    await page.goto(`${base}/#/notificacao`);
    const row = page.getByRole('row').filter({ hasText: 'Manutenção programada domingo às 2h' });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain('Loja Azul');
    expect(await row.textContent()).toMatch(/1 de \d+/);
    await shot(page, 'notification-screen');
    await page.context().close();
  });
});
