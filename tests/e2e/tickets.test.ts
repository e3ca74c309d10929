/**
 * The ticket screen in a real browser (Debian Chromium through playwright-core)
 * against a real kernel serving ui-shell/dist. Two agents in two browser
 * contexts; the customer is the sandbox channel (simulate + outbox).
 * Screenshots go to /tmp/tickets-*.png.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { CHROMIUM, launchBrowser } from '../../core/src/testing/browser.ts';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

describe('ticket screen in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let agent1: TestUser;
  let agent2: TestUser;
  let channelId: number;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.baseUrl();
    // launchBrowser() passes --user-data-dir, which playwright-core refuses with chromium.launch(); fall back to the same flags without it.
    browser = await launchBrowser().catch(() => chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS }));
    admin = await t.loginAs('admin');
    agent1 = await t.loginAs('user', admin.tenantId);
    agent2 = await t.loginAs('user', admin.tenantId);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [agent1.id, 'Ana Atendente']);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [agent2.id, 'Bruno Suporte']);
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox', farewellMessage: 'Obrigado pelo contato!' } });
    expect(ch.statusCode).toBe(201);
    channelId = ch.json().id;
    const qm = await t.app.inject({ method: 'POST', url: '/api/quick-messages', headers: admin.headers, payload: { key: 'ola', message: 'Olá! Sou da equipe Atende, como posso ajudar?' } });
    expect(qm.statusCode).toBe(201);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** A browser context logged in as `user`: the real login answer goes where the shell keeps it (localStorage `session`). */
  async function open(user: TestUser, viewport = { width: 1366, height: 800 }, hash = '#/atendimento'): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(200);
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport });
    contexts.push(context);
    await context.addInitScript((s) => window.localStorage.setItem('session', s), JSON.stringify(res.json()));
    const page = await context.newPage();
    await page.goto(`${base}/${hash}`);
    await page.getByTestId('tab-pending').waitFor({ timeout: 20_000 });
    return page;
  }

  const simulate = (fromId: string, name: string, body: string) =>
    t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: fromId, name }, body } });
  const outbox = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: admin.headers })).json() as { to: string; body: string }[];
  const row = (page: Page, name: string) => page.getByTestId('ticket-row').filter({ hasText: name });

  it('two agents: live inbound, quick reply, transfer and resolve with a farewell', async () => {
    const [p1, p2] = await Promise.all([open(agent1), open(agent2)]);
    await p1.getByTestId('tab-pending').click();
    await p2.getByTestId('tab-pending').click();
    await expect.poll(() => p1.getByTestId('ticket-scroll').textContent()).toContain('Nenhum atendimento pendente');

    // A customer writes: the ticket appears live in both lists, with its unread badge.
    expect((await simulate('5511999990001', 'Maria Cliente', 'Olá, meu pedido não chegou')).statusCode).toBe(200);
    await row(p1, 'Maria Cliente').waitFor({ timeout: 10_000 });
    await row(p2, 'Maria Cliente').waitFor({ timeout: 10_000 });
    await expect.poll(() => row(p2, 'Maria Cliente').textContent()).toContain('Olá, meu pedido não chegou');
    await expect.poll(() => p2.getByTestId('count-pending').textContent()).toBe('1');

    // Agent 1 opens it and starts attending; agent 2 sees it leave Pendentes.
    await row(p1, 'Maria Cliente').click();
    await p1.getByTestId('message').filter({ hasText: 'meu pedido não chegou' }).waitFor();
    await p1.getByTestId('action-start').click();
    await expect.poll(() => p1.getByTestId('chat-status').textContent()).toBe('Aberto');
    await expect.poll(() => row(p2, 'Maria Cliente').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => p2.getByTestId('count-pending').textContent()).toBe('0');

    // '/' opens the quick messages; picking one inserts its text; Enter sends.
    const composer = p1.getByTestId('composer');
    await composer.click();
    await composer.fill('/ol');
    await p1.getByTestId('quick-message-option').filter({ hasText: '/ola' }).click();
    await expect.poll(() => composer.inputValue()).toBe('Olá! Sou da equipe Atende, como posso ajudar?');
    await composer.press('Enter');
    await p1.getByTestId('message').filter({ hasText: 'Sou da equipe Atende' }).waitFor();
    const sent = await until(async () => (await outbox()).find((m) => m.body === '*Ana Atendente*:\nOlá! Sou da equipe Atende, como posso ajudar?'), 15_000, 'the quick reply in the outbox');
    expect(sent.to).toBe('5511999990001');
    // The optimistic clock becomes a tick once the server stored it.
    await expect.poll(() => p1.locator('[data-ack]').last().getAttribute('data-ack'), { timeout: 10_000 }).not.toBe('pending');
    await p1.screenshot({ path: '/tmp/tickets-desktop.png' });

    // Agent 1 transfers to agent 2, who watches Abertos: it appears there live.
    await p2.getByTestId('tab-open').click();
    await p1.getByTestId('action-transfer').click();
    const userSelect = p1.getByTestId('transfer-user');
    await userSelect.click();
    await userSelect.fill('Bruno');
    await p1.getByRole('option', { name: 'Bruno Suporte' }).click();
    await p1.getByTestId('transfer-submit').click();
    await row(p2, 'Maria Cliente').waitFor({ timeout: 10_000 });
    // The ticket's history (its logs) records a transfer from agent 1 to agent 2, not a new start.
    // Polled: agents see colleagues' open tickets by default (NotViewAssignedTickets off), so the row can be there before the transfer commits.
    const moved = await until(async () => (await t.sql.query(`SELECT data FROM ticket_logs WHERE type = 'transferred' AND tenant_id = $1 ORDER BY id DESC LIMIT 1`, [agent1.tenantId])).rows[0], 10_000, 'the transfer in the ticket log');
    expect(moved.data).toMatchObject({ from: { userId: agent1.id }, to: { userId: agent2.id } });

    // Agent 2 resolves with an edited farewell: it reaches the customer and the ticket shows under Resolvidos.
    await row(p2, 'Maria Cliente').click();
    await p2.getByTestId('action-resolve').click();
    await p2.getByTestId('resolve-farewell-text').fill('Pedido localizado, chega amanhã. Até logo!');
    await p2.getByTestId('resolve-submit').click();
    await until(async () => (await outbox()).find((m) => m.body === 'Pedido localizado, chega amanhã. Até logo!'), 20_000, 'the farewell in the outbox');
    await p2.getByTestId('tab-closed').click();
    await row(p2, 'Maria Cliente').waitFor({ timeout: 30_000 });
    await expect.poll(() => p2.getByTestId('chat-status').textContent(), { timeout: 30_000 }).toBe('Resolvido');
    await p2.screenshot({ path: '/tmp/tickets-resolved.png' });

    // The menus stay one click away from the ticket screen: the rail leads to the contacts screen.
    await p2.getByTestId('standalone-rail').getByRole('link', { name: 'Contatos' }).click();
    await p2.waitForURL((u) => u.hash.startsWith('#/contatos'));
    await p2.getByRole('heading', { name: 'Contatos' }).waitFor();
  }, 90_000);

  it('phone width shows one pane at a time; notes, reply and failure states render', async () => {
    for (let i = 0; i < 4; i++) expect((await simulate(`55119888800${i}`, ['João Pereira', 'Carla Dias', 'Pedro Alves', 'Luiza Rocha'][i]!, ['Bom dia! Qual o horário de funcionamento?', 'Preciso da segunda via do boleto', 'Vocês entregam no sábado?', 'Obrigada pelo retorno 🙏'][i]!)).statusCode).toBe(200);
    const page = await open(agent1, { width: 390, height: 844 });
    await page.getByTestId('tab-pending').click();
    await row(page, 'João Pereira').waitFor();
    await page.screenshot({ path: '/tmp/tickets-phone-list.png' });
    await row(page, 'João Pereira').click();
    await page.getByTestId('conversation').waitFor();
    expect(await page.getByTestId('ticket-list').count()).toBe(0);
    await page.getByTestId('action-start').first().click();
    const composer = page.getByTestId('composer');
    await composer.fill('Bom dia, João! Funcionamos das 8h às 18h.');
    await composer.press('Enter');
    await page.getByTestId('message').filter({ hasText: 'Funcionamos das 8h' }).waitFor();
    // Shift+Enter breaks the line instead of sending.
    await composer.fill('Linha 1');
    await composer.press('Shift+Enter');
    await composer.pressSequentially('Linha 2');
    expect(await composer.inputValue()).toBe('Linha 1\nLinha 2');
    await composer.fill('');
    await expect.poll(() => page.locator('[data-ack]').last().getAttribute('data-ack'), { timeout: 10_000 }).not.toBe('pending');
    await page.screenshot({ path: '/tmp/tickets-phone-chat.png' });

    // Desktop with the contact panel and an internal note.
    const desk = await open(agent1, { width: 1366, height: 800 }, '#/atendimento');
    await desk.getByTestId('ticket-row').filter({ hasText: 'João Pereira' }).click();
    await desk.getByTestId('conversation').waitFor();
    await desk.getByLabel('Nota interna').first().check({ force: true });
    const c2 = desk.getByTestId('composer');
    await c2.fill('Cliente VIP, priorizar.');
    await c2.press('Enter');
    await desk.locator('[data-note]').filter({ hasText: 'Cliente VIP' }).waitFor();
    if (!(await desk.getByTestId('contact-panel').count())) await desk.getByTestId('chat-name').click();
    await desk.getByTestId('contact-panel').waitFor();
    await desk.screenshot({ path: '/tmp/tickets-desktop-panel.png' });
  }, 60_000);
});
