/**
 * The channel screens in a real browser (Debian Chromium through
 * playwright-core) against a real kernel serving ui-shell/dist and the
 * channel remotes. An admin creates a Telegram channel through the dialog
 * against the local fake Bot API and watches it connect live; the fake's
 * "customer" writes, an agent in another browser context answers, and the
 * fake Bot API receives the reply. Status changes pushed by the server move
 * the badge without a reload; an agent is refused /sessoes; the superadmin
 * sees every tenant's channels. Screenshots go to /tmp/shots/channels-*.png.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { CHROMIUM, launchBrowser } from '../../core/src/testing/browser.ts';
import { setChannelStatus } from '../../core/src/modules/conversations/channels.ts';
import { FakeBotApi } from '../../plugins/channel-telegram/src/fake-bot-api.ts';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const SHOTS = '/tmp/shots';

describe('channel screens in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let agent: TestUser;
  let fake: FakeBotApi;
  let telegramId: number;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    fake = await FakeBotApi.start();
    t = await createTestApp();
    base = await t.baseUrl();
    browser = await launchBrowser().catch(() => chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS }));
    admin = await t.loginAs('admin');
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [admin.id, 'Carla Admin']);
    await t.sql.query('UPDATE tenants SET name = $2 WHERE id = $1', [admin.tenantId, 'Loja Aurora']);
    const q = await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Vendas', color: '#2563eb' } });
    expect(q.statusCode, q.body).toBe(201);
    // The agent works the Vendas queue, the one the new channel routes its tickets to.
    agent = await t.loginAs('user', admin.tenantId, { queues: [q.json().id] });
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [agent.id, 'Davi Atendente']);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  /** A browser context logged in as `user` (the real login answer goes where the shell keeps it). */
  async function open(user: TestUser, hash: string, viewport = { width: 1366, height: 860 }): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode, res.body).toBe(200);
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport });
    contexts.push(context);
    // playwright-core waits forever by default: a missing element must fail the step, not the whole test's budget.
    context.setDefaultTimeout(30_000);
    await context.addInitScript((s) => window.localStorage.setItem('session', s), JSON.stringify(res.json()));
    const page = await context.newPage();
    await page.goto(`${base}/${hash}`);
    return page;
  }

  const card = (page: Page, name: string) => page.getByTestId('channel-card').filter({ hasText: name });

  it('an admin creates a Telegram channel in the dialog, sees it connect live, and an agent answers its customer', async () => {
    const page = await open(admin, '#/sessoes');
    await page.getByTestId('channels-page').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByText('Nenhum canal conectado ainda').count(), { timeout: 30_000 }).toBe(1);
    await page.screenshot({ path: `${SHOTS}/channels-empty.png` });

    // New channel: pick Telegram, name it, then the plugin's own fields in the Conexão tab.
    await page.getByTestId('channel-new').click();
    await page.getByTestId('channel-type-telegram').click();
    await page.getByTestId('channel-name').fill('Telegram Vendas');
    // Saving without a token: the server refuses with the spec's message, and the dialog shows the Conexão tab.
    await page.getByTestId('channel-save').click();
    await expect.poll(() => page.getByTestId('channel-form-error').textContent(), { timeout: 30_000 }).toContain('O canal Telegram precisa de um token');
    await page.getByTestId('telegram-token').waitFor({ timeout: 60_000 });
    await page.getByTestId('telegram-token').fill(fake.token);
    await page.getByTestId('telegram-mode-polling').click();
    await page.getByTestId('telegram-advanced').click();
    await page.getByTestId('telegram-api-root').fill(fake.url);
    await page.getByTestId('channel-tab-general').click();
    await page.getByTestId('channel-queue').click();
    await page.getByRole('option', { name: 'Vendas' }).click();
    await page.getByTestId('channel-tab-messages').click();
    await page.getByTestId('channel-farewell').fill('Obrigado por falar com a Loja Aurora!');
    await page.getByTestId('channel-closing-keyword').fill('encerrar');
    await page.getByTestId('channel-tab-connection').click();
    await page.screenshot({ path: `${SHOTS}/channels-dialog.png` });
    await page.getByTestId('channel-save').click();

    // The card appears and turns connected by itself (getMe answered; the bot's @username becomes the number).
    await card(page, 'Telegram Vendas').waitFor({ timeout: 15_000 });
    await expect.poll(() => card(page, 'Telegram Vendas').getAttribute('data-status'), { timeout: 20_000 }).toBe('connected');
    await expect.poll(() => card(page, 'Telegram Vendas').getByTestId('channel-number-label').textContent()).toBe('@atende_teste_bot');
    const row = (await t.sql.query<{ id: number; queue_id: number | null; farewell_message: string; closing_keyword: string; config: { apiRoot: string; mode: string } }>(
      `SELECT id, queue_id, farewell_message, closing_keyword, config FROM channels WHERE tenant_id = $1 AND name = 'Telegram Vendas'`, [admin.tenantId],
    )).rows[0]!;
    telegramId = row.id;
    expect(row).toMatchObject({ farewell_message: 'Obrigado por falar com a Loja Aurora!', closing_keyword: 'encerrar', config: { apiRoot: fake.url, mode: 'polling' } });
    expect(row.queue_id).not.toBeNull();
    // The token is write-only: it never reaches the browser again.
    const listed = await t.app.inject({ method: 'GET', url: '/api/channels', headers: admin.headers });
    expect(listed.body).not.toContain(fake.token);

    // The customer writes to the bot; an agent in another browser context sees it and answers.
    const agentPage = await open(agent, '#/atendimento');
    await agentPage.getByTestId('tab-pending').waitFor({ timeout: 60_000 });
    await agentPage.getByTestId('tab-pending').click();
    await fake.customerMessage('joana-1', { id: '777001', name: 'Joana Ribeiro' }, { text: 'Oi! Vocês entregam hoje no centro?' });
    // Polled from the fake by the channel's session, stored, routed to the channel's default queue.
    const ticket = await until(async () => (await t.sql.query<{ queue_id: number | null }>(
      `SELECT t.queue_id FROM tickets t JOIN messages m ON m.ticket_id = t.id WHERE t.tenant_id = $1 AND m.body = 'Oi! Vocês entregam hoje no centro?'`, [admin.tenantId],
    )).rows[0], 20_000, 'the inbound Telegram message stored');
    expect(ticket.queue_id).toBe(row.queue_id);
    const ticketRow = agentPage.getByTestId('ticket-row').filter({ hasText: 'Joana Ribeiro' });
    await ticketRow.waitFor({ timeout: 30_000 });
    await ticketRow.click();
    await agentPage.getByTestId('message').filter({ hasText: 'Vocês entregam hoje' }).waitFor();
    await agentPage.getByTestId('action-start').click();
    const composer = agentPage.getByTestId('composer');
    await composer.fill('Entregamos sim, Joana! Até as 18h no centro.');
    await composer.press('Enter');
    // Signed with the agent's name, the composer's default: on Telegram the name shows in bold, without asterisks.
    const sent = await until(async () => fake.sent.find((s) => s.text === 'Davi Atendente:\nEntregamos sim, Joana! Até as 18h no centro.'), 20_000, 'the reply at the fake Bot API');
    expect(sent.entities).toEqual([{ type: 'bold', offset: 0, length: 'Davi Atendente'.length }]);
    expect(sent.chatId).toBe('777001');
    expect(sent.method).toBe('sendMessage');
  }, 300_000);

  it('a status change pushed by the server moves the badge without a reload', async () => {
    const page = await open(admin, '#/sessoes');
    await page.getByTestId('channels-page').waitFor({ timeout: 60_000 });
    const c = card(page, 'Telegram Vendas');
    await expect.poll(() => c.getAttribute('data-status'), { timeout: 20_000 }).toBe('connected');
    // The Bot API becomes unreachable: the polling session reports the lost connection, then recovers by itself.
    fake.drop();
    await expect.poll(() => c.getAttribute('data-status'), { timeout: 20_000 }).toBe('pairingTimeout');
    await expect.poll(() => c.getByTestId('channel-status').textContent()).toBe('Conexão perdida');
    await page.screenshot({ path: `${SHOTS}/channels-lost.png` });
    fake.restore();
    await expect.poll(() => c.getAttribute('data-status'), { timeout: 40_000 }).toBe('connected');
    // Disconnect from the card: the server's answer arrives as channel.updated.
    await c.getByTestId('channel-disconnect').click();
    await expect.poll(() => c.getAttribute('data-status'), { timeout: 15_000 }).toBe('disconnected');
    await c.getByTestId('channel-connect').click();
    await expect.poll(() => c.getAttribute('data-status'), { timeout: 20_000 }).toBe('connected');
  }, 200_000);

  it('shows a QR code live, the sandbox connect panel, and refuses bad import limits', async () => {
    // A second bot, switched off, then a QR code pushed the way a QR channel's session pushes it.
    const second = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'telegram', name: 'Telegram Suporte', secrets: { token: fake.token }, config: { mode: 'polling', apiRoot: fake.url } } });
    expect(second.statusCode, second.body).toBe(201);
    const secondId = second.json().id as number;
    const sandbox = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox Demonstração', isDefault: true } });
    expect(sandbox.statusCode, sandbox.body).toBe(201);
    await t.app.inject({ method: 'POST', url: `/api/channels/${secondId}/disconnect`, headers: admin.headers });

    const page = await open(admin, '#/sessoes');
    await page.getByTestId('channels-page').waitFor({ timeout: 60_000 });
    const c = card(page, 'Telegram Suporte');
    await expect.poll(() => c.getAttribute('data-status'), { timeout: 20_000 }).toBe('disconnected');
    const kernel = (t.app as unknown as { kernel: Parameters<typeof setChannelStatus>[0] }).kernel;
    await setChannelStatus(kernel, admin.tenantId, secondId, 'qrcode', { qrcode: '2@Atende-demo-QR,7yW9x1pQ0kJ3mZ8r,ab12cd34ef56==', retries: 1 });
    await expect.poll(() => c.getAttribute('data-status'), { timeout: 15_000 }).toBe('qrcode');
    await c.getByTestId('channel-show-qr').click();
    await page.getByTestId('channel-qrcode').locator('svg').waitFor();
    await page.screenshot({ path: `${SHOTS}/channels-qr.png` });
    // A new code replaces the old one in the open panel.
    const before = await page.getByTestId('channel-qrcode').innerHTML();
    await setChannelStatus(kernel, admin.tenantId, secondId, 'qrcode', { qrcode: '2@Atende-demo-QR,second-code,zz99==', retries: 2 });
    await expect.poll(() => page.getByTestId('channel-qrcode').innerHTML()).not.toBe(before);
    await expect.poll(() => page.getByTestId('channel-retries').textContent()).toBe('Tentativas: 2');
    await page.keyboard.press('Escape');

    // The sandbox brings its own connect panel: the signed inbound URL and a customer to play.
    const sb = card(page, 'Sandbox Demonstração');
    await sb.getByTestId('channel-menu').click();
    await page.getByTestId('channel-action-pair').click();
    await page.getByTestId('sandbox-connect').waitFor();
    await expect.poll(() => page.getByTestId('sandbox-inbound-url').textContent()).toContain(`/api/plugins/channel-sandbox/webhook/${sandbox.json().id}`);
    await page.getByTestId('sandbox-simulate-text').fill('Bom dia, quero falar com vendas');
    await page.getByTestId('sandbox-simulate').click();
    await until(async () => (await t.sql.query(`SELECT 1 FROM messages WHERE tenant_id = $1 AND body = 'Bom dia, quero falar com vendas'`, [admin.tenantId])).rowCount, 10_000, 'the simulated message');
    await page.screenshot({ path: `${SHOTS}/channels-sandbox-panel.png` });
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${SHOTS}/channels-list.png` });

    // Moving tickets needs a target channel (administration.md §5).
    await card(page, 'Telegram Vendas').getByTestId('channel-menu').click();
    await page.getByTestId('channel-action-transfer').click();
    await page.getByTestId('transfer-submit').click();
    await expect.poll(() => page.getByTestId('transfer-dialog').textContent()).toContain('Escolha o novo canal para transferir');
    await page.keyboard.press('Escape');

    // Editing keeps the token: the dialog shows it as saved, never its value.
    await card(page, 'Telegram Vendas').getByTestId('channel-edit').click();
    await page.getByTestId('channel-tab-connection').click();
    await expect.poll(() => page.getByTestId('telegram-token').getAttribute('placeholder')).toContain('salvo');
    expect(await page.content()).not.toContain(fake.token);
    // The birthdays remote's section, in the Mensagens tab: the farewell typed at creation came back through the farewells remote's.
    await page.getByTestId('channel-tab-messages').click();
    await expect.poll(() => page.getByTestId('channel-farewell').inputValue()).toBe('Obrigado por falar com a Loja Aurora!');
    // A birthday message without its hour: the section refuses the save on its tab, and nothing is sent.
    await page.getByTestId('channel-birthday-message').fill('Parabéns, {{firstName}}! 🎉');
    await page.getByTestId('channel-save').click();
    await expect.poll(() => page.getByTestId('channel-section-error').textContent()).toContain('Escolha a hora');
    expect((await t.sql.query<{ birthday_message: string | null }>('SELECT birthday_message FROM channels WHERE id = $1', [telegramId])).rows[0]?.birthday_message).toBeNull();
    await page.getByTestId('channel-birthday-hour').click();
    await page.getByRole('option', { name: '09:00' }).click();
    await page.screenshot({ path: `${SHOTS}/channels-dialog-messages.png` });
    await page.getByTestId('channel-save').click();
    await until(async () => (await t.sql.query<{ birthday_hour: number }>('SELECT birthday_hour FROM channels WHERE id = $1', [telegramId])).rows[0]?.birthday_hour === 9, 10_000, 'the birthday hour saved');
    const saved = (await t.sql.query<{ birthday_message: string; farewell_message: string }>('SELECT birthday_message, farewell_message FROM channels WHERE id = $1', [telegramId])).rows[0]!;
    expect(saved).toEqual({ birthday_message: 'Parabéns, {{firstName}}! 🎉', farewell_message: 'Obrigado por falar com a Loja Aurora!' });
  }, 240_000);

  it('with the birthdays plugin switched off, the channel dialog has no birthday fields and saving keeps them', async () => {
    const owner = await t.loginAs('admin');
    const created = await t.app.inject({ method: 'POST', url: '/api/channels', headers: owner.headers, payload: { type: 'sandbox', name: 'Loja Centro', birthdayMessage: 'Feliz aniversário!', birthdayHour: 10 } });
    expect(created.statusCode, created.body).toBe(201);
    const off = await t.app.inject({ method: 'PUT', url: '/api/plugins/birthdays/enabled', headers: owner.headers, payload: { enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
    // Each node caches the choice for 2 s.
    const remotes = async () => ((await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: owner.headers })).json() as { id: string }[]).map((r) => r.id);
    await until(async () => !(await remotes()).includes('birthdays'), 10_000, 'the birthdays remote no longer offered');
    expect(await remotes()).toContain('farewells');

    const page = await open(owner, '#/sessoes');
    await card(page, 'Loja Centro').getByTestId('channel-edit').click({ timeout: 60_000 });
    await page.getByTestId('channel-tab-messages').click();
    // The farewells remote's section is there (so the remotes did load); the birthdays one is not.
    await page.getByTestId('channel-farewell').fill('Até logo!');
    expect(await page.getByTestId('channel-birthday-hour').count()).toBe(0);
    expect(await page.getByText('Mensagem de aniversário').count()).toBe(0);
    await page.getByTestId('channel-save').click();
    await until(async () => (await t.sql.query<{ farewell_message: string | null }>('SELECT farewell_message FROM channels WHERE id = $1', [created.json().id])).rows[0]?.farewell_message === 'Até logo!', 10_000, 'the farewell saved');
    // The dialog did not send the birthday fields it no longer shows: the saved ones stay.
    const row = (await t.sql.query('SELECT birthday_message, birthday_hour FROM channels WHERE id = $1', [created.json().id])).rows[0];
    expect(row).toEqual({ birthday_message: 'Feliz aniversário!', birthday_hour: 10 });
  }, 180_000);

  it('an agent (profile user) is refused /sessoes', async () => {
    const page = await open(agent, '#/contatos');
    await page.getByRole('heading', { name: 'Contatos', exact: true }).waitFor();
    // The guard says so and sends the agent on to /contatos; the channel screen never renders.
    // Watching starts before the navigation: on a loaded machine the toast's 1.5 s could pass before a new page load returns.
    const toast = page.getByText('Acesso negado', { exact: true }).waitFor({ timeout: 30_000 });
    await page.goto(`${base}/#/sessoes`);
    await toast;
    await page.waitForURL((u) => u.hash.startsWith('#/contatos'));
    expect(await page.getByTestId('channels-page').count()).toBe(0);
    // Nor does the menu offer it.
    expect(await page.getByRole('link', { name: 'Canais' }).count()).toBe(0);
    // The server agrees: the channel form is not the agent's to read.
    const r = await t.app.inject({ method: 'GET', url: `/api/channels/${telegramId}`, headers: agent.headers });
    expect(r.statusCode).toBe(403);
  }, 120_000);

  it('the superadmin sees every tenant\'s channels on /sessoestenants, filtered and searched', async () => {
    const otherAdmin = await t.loginAs('admin');
    await t.sql.query('UPDATE tenants SET name = $2 WHERE id = $1', [otherAdmin.tenantId, 'Padaria Sol']);
    const other = await t.app.inject({ method: 'POST', url: '/api/channels', headers: otherAdmin.headers, payload: { type: 'sandbox', name: 'Atendimento Padaria' } });
    expect(other.statusCode, other.body).toBe(201);
    const root = await t.loginAs('superadmin');
    const page = await open(root, '#/sessoestenants', { width: 1440, height: 860 });
    await page.getByTestId('tenant-channels-page').waitFor({ timeout: 60_000 });
    const table = page.getByTestId('tenant-channels-page');
    await expect.poll(() => table.textContent(), { timeout: 15_000 }).toContain('Atendimento Padaria');
    expect(await table.textContent()).toContain('Loja Aurora');
    await page.screenshot({ path: `${SHOTS}/channels-tenants.png` });
    // Search narrows to one tenant's channel.
    await page.getByRole('textbox', { name: 'Buscar empresa, canal ou número' }).fill('Padaria');
    await expect.poll(() => table.textContent(), { timeout: 10_000 }).not.toContain('Telegram Vendas');
    expect(await table.textContent()).toContain('Atendimento Padaria');
  }, 240_000);

  it('a channel type whose plugin the tenant switched off is neither offered nor creatable', async () => {
    const owner = await t.loginAs('admin');
    const offered = async () => ((await t.app.inject({ method: 'GET', url: '/api/channels/types', headers: owner.headers })).json() as { type: string }[]).map((x) => x.type);
    expect(await offered()).toContain('sandbox');
    const off = await t.app.inject({ method: 'PUT', url: '/api/plugins/channel-sandbox/enabled', headers: owner.headers, payload: { enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
    // Each node caches the choice for 2 s.
    await until(async () => !(await offered()).includes('sandbox'), 10_000, 'sandbox gone from the types');
    expect(await offered()).toContain('telegram');
    const refused = await t.app.inject({ method: 'POST', url: '/api/channels', headers: owner.headers, payload: { type: 'sandbox', name: 'Não pode' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('ERR_SAVING_CHANNEL');
    // Another tenant still has it.
    expect(((await t.app.inject({ method: 'GET', url: '/api/channels/types', headers: admin.headers })).json() as { type: string }[]).map((x) => x.type)).toContain('sandbox');
  }, 60_000);
});
