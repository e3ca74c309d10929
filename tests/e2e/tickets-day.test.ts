/**
 * Issue U2 "the agent's day": the defects seen when agents, a supervisor and an admin used the
 * ticket screen side by side, each in a real browser (Debian Chromium) against a real kernel.
 * Agents sit in two queues (Atendimento, Financeiro); the customer is the sandbox channel.
 * Screenshots go to /tmp/shots/day-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser, loggedInPage } from '../../core/src/testing/browser.ts';

const root = path.join(import.meta.dirname, '../..');
const built = fs.existsSync(path.join(root, 'ui-shell/dist/index.html'));
const run = chromiumAvailable() && built ? describe : describe.skip;

run("the agent's day in the browser", () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let ana: TestUser;
  let bruno: TestUser;
  let channelId: number;
  let atendimento: number;
  let financeiro: number;
  const contexts: BrowserContext[] = [];
  let pages: Page[] = [];

  beforeAll(async () => {
    fs.mkdirSync('/tmp/shots', { recursive: true });
    t = await createTestApp();
    base = await t.baseUrl();
    browser = await launchBrowser();
    admin = await t.loginAs('admin');
    const q1 = await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Atendimento' } });
    const q2 = await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Financeiro' } });
    atendimento = q1.json().id;
    financeiro = q2.json().id;
    ana = await t.loginAs('user', admin.tenantId, { queues: [atendimento] });
    bruno = await t.loginAs('user', admin.tenantId, { queues: [financeiro] });
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [ana.id, 'Ana Atendente']);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [bruno.id, 'Bruno Financeiro']);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [admin.id, 'Carla Gestora']);
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox', farewellMessage: 'Obrigado pelo contato!' } });
    expect(ch.statusCode).toBe(201);
    channelId = ch.json().id;
    const qm = await t.app.inject({ method: 'POST', url: '/api/quick-messages', headers: admin.headers, payload: { key: 'ola', message: 'Olá {nome}! Seu protocolo é {{protocolo}}.' } });
    expect(qm.statusCode).toBe(201);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/day-failure-${i}.png` }).catch(() => undefined)));
    pages = [];
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function open(user: TestUser, hash = '#/atendimento'): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(200);
    const { context, page } = await loggedInPage(browser, base, { session: res.json() });
    contexts.push(context);
    pages.push(page);
    page.on('pageerror', (e) => console.log(`[pageerror] ${e.stack}`));
    await page.goto(`${base}/${hash}`);
    // Other screens: each test waits for what it uses.
    if (hash.startsWith('#/atendimento')) await page.getByTestId('tab-pending').waitFor({ timeout: 20_000 });
    return page;
  }
  const simulate = async (fromId: string, name: string, body: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: fromId, name }, body } });
    expect(res.statusCode).toBe(200);
  };
  const outbox = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: admin.headers })).json() as { to: string; body: string }[];
  const row = (page: Page, name: string) => page.getByTestId('ticket-row').filter({ hasText: name });
  /** A customer writes and the ticket is given to `user` in `queueId`, open. */
  async function ticketFor(user: TestUser, queueId: number, fromId: string, name: string): Promise<number> {
    await simulate(fromId, name, 'Olá, preciso de ajuda');
    const id = await until(async () => (await t.sql.query<{ id: number }>(`SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE c.name = $1 AND t.status <> 'closed'`, [name])).rows[0]?.id, 10_000, 'the ticket');
    const r = await t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: admin.headers, payload: { userId: user.id, queueId } });
    expect(r.json()).toMatchObject({ status: 'open', userId: user.id });
    return id;
  }
  const unreadOf = async (id: number) => (await t.sql.query<{ n: number }>('SELECT unread_messages AS n FROM tickets WHERE id = $1', [id])).rows[0]!.n;
  it('1. the ticket own agent reopens a resolved ticket from the conversation', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550001', 'Rita Reaberta');
    expect((await t.app.inject({ method: 'PUT', url: `/api/tickets/${id}`, headers: ana.headers, payload: { status: 'closed' } })).json().status).toBe('closed');
    const page = await open(ana, `#/atendimento/${id}`);
    await expect.poll(() => page.getByTestId('chat-status').textContent(), { timeout: 15_000 }).toBe('Resolvido');
    await page.getByTestId('action-reopen').first().click();
    await expect.poll(() => page.getByTestId('chat-status').textContent(), { timeout: 10_000 }).toBe('Aberto');
    await expect(page.getByText('Ticket já pertence ao usuário selecionado').count()).resolves.toBe(0);
    expect((await t.sql.query('SELECT status, user_id FROM tickets WHERE id = $1', [id])).rows[0]).toEqual({ status: 'open', user_id: ana.id });
    await row(page, 'Rita Reaberta').waitFor();
  }, 60_000);

  it('4. messages arriving in the ticket the agent has open are read, in the list and on the server', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550002', 'Lia Leitura');
    const [page, watcher] = await Promise.all([open(ana, `#/atendimento/${id}`), open(admin)]);
    await page.getByTestId('composer').waitFor();
    await simulate('5511955550002', 'Lia Leitura', 'Chegou agora, com a conversa aberta');
    await page.getByTestId('message').filter({ hasText: 'Chegou agora, com a conversa aberta' }).waitFor({ timeout: 10_000 });
    await expect.poll(() => unreadOf(id), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => row(page, 'Lia Leitura').getByTestId('unread-badge').count()).toBe(0);
    // Another screen (the supervisor's list) follows: no badge there either.
    await expect.poll(() => row(watcher, 'Lia Leitura').textContent(), { timeout: 10_000 }).toContain('Chegou agora');
    await expect.poll(() => row(watcher, 'Lia Leitura').getByTestId('unread-badge').count()).toBe(0);
    // A message arriving while the agent is in another ticket is still counted.
    await page.evaluate(() => { window.location.hash = '#/atendimento'; });
    await page.getByTestId('composer').waitFor({ state: 'detached' });
    await simulate('5511955550002', 'Lia Leitura', 'E esta chegou com a conversa fechada');
    await expect.poll(() => unreadOf(id), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => row(page, 'Lia Leitura').getByTestId('unread-badge').textContent()).toBe('1');
  }, 60_000);

  it('3. resolving with a farewell and a rating: the question first, the farewell as thanks after the score', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550003', 'Vera Voto');
    const page = await open(ana, `#/atendimento/${id}`);
    await page.getByTestId('action-resolve').click();
    await page.getByTestId('resolve-farewell-text').fill('Obrigada pela conversa, Vera!');
    await page.getByTestId('resolve-rating').check({ force: true });
    await page.getByTestId('resolve-submit').click();
    await until(async () => (await outbox()).find((m) => m.body.includes('Como você avalia')), 15_000, 'the rating request');
    expect((await outbox()).some((m) => m.body === 'Obrigada pela conversa, Vera!')).toBe(false);
    await simulate('5511955550003', 'Vera Voto', '5');
    await until(async () => (await outbox()).find((m) => m.body === 'Obrigada pela conversa, Vera!'), 15_000, 'the farewell after the score');
    await page.getByTestId('message').filter({ hasText: 'Obrigada pela conversa, Vera!' }).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('chat-status').textContent(), { timeout: 10_000 }).toBe('Resolvido');
  }, 60_000);

  it('5. a transfer to someone in another queue leaves the sender list live, and their other tab goes back to the list', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550004', 'Túlio Transferido');
    const [tab1, tab2, receiver] = await Promise.all([open(ana, `#/atendimento/${id}`), open(ana, `#/atendimento/${id}`), open(bruno)]);
    await receiver.getByTestId('tab-open').click();
    await row(tab1, 'Túlio Transferido').waitFor();
    await row(tab2, 'Túlio Transferido').waitFor();
    await tab1.getByTestId('action-transfer').click();
    await tab1.getByTestId('transfer-queue').click();
    await tab1.getByRole('option', { name: 'Financeiro' }).click();
    await tab1.getByTestId('transfer-user').click();
    await tab1.getByTestId('transfer-user').fill('Bruno');
    await tab1.getByRole('option', { name: 'Bruno Financeiro' }).click();
    await tab1.getByTestId('transfer-submit').click();
    await row(receiver, 'Túlio Transferido').waitFor({ timeout: 10_000 });
    await expect.poll(() => row(tab1, 'Túlio Transferido').count(), { timeout: 10_000 }).toBe(0);
    // The other tab had the conversation open: it says where the ticket went and returns to the list.
    await tab2.getByText('Este atendimento saiu da sua lista').first().waitFor({ timeout: 10_000 });
    await tab2.waitForURL((u) => u.hash === '#/atendimento');
    await expect.poll(() => row(tab2, 'Túlio Transferido').count()).toBe(0);
    expect(await tab2.getByText('Atendimento não encontrado').count()).toBe(0);
    await tab2.screenshot({ path: '/tmp/shots/day-transferred.png' });
  }, 60_000);

  it('6. quick messages and queues an admin adds reach an open agent screen without a reload', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550005', 'Nina Novidade');
    const page = await open(ana, `#/atendimento/${id}`);
    const composer = page.getByTestId('composer');
    await composer.fill('/');
    await page.getByTestId('quick-message-option').filter({ hasText: '/ola' }).waitFor();
    expect(await page.getByTestId('quick-message-option').filter({ hasText: '/pix' }).count()).toBe(0);
    expect((await t.app.inject({ method: 'POST', url: '/api/quick-messages', headers: admin.headers, payload: { key: 'pix', message: 'Nossa chave Pix é o CNPJ.' } })).statusCode).toBe(201);
    await page.getByTestId('quick-message-option').filter({ hasText: '/pix' }).waitFor({ timeout: 10_000 });
    await composer.fill('');

    await page.getByTestId('action-transfer').click();
    await page.getByTestId('transfer-queue').click();
    await page.getByRole('option', { name: 'Financeiro' }).waitFor();
    expect(await page.getByRole('option', { name: 'Cobrança' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect((await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Cobrança' } })).statusCode).toBe(201);
    await page.getByTestId('transfer-queue').click();
    await page.getByRole('option', { name: 'Cobrança' }).waitFor({ timeout: 10_000 });
  }, 60_000);

  it('2. a quick message written with {nome} and {{protocolo}} reaches the customer filled; the form names {{name}}', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550006', 'Paula Protocolo');
    const protocol = (await t.sql.query<{ protocol: string }>('SELECT protocol FROM tickets WHERE id = $1', [id])).rows[0]!.protocol;
    const page = await open(ana, `#/atendimento/${id}`);
    const composer = page.getByTestId('composer');
    await composer.fill('/ol');
    await page.getByTestId('quick-message-option').filter({ hasText: '/ola' }).click();
    await composer.press('Enter');
    const sent = await until(async () => (await outbox()).find((m) => m.to === '5511955550006' && m.body.includes('Olá')), 15_000, 'the quick reply');
    expect(sent.body).toContain(`Olá Paula Protocolo! Seu protocolo é ${protocol}.`);
    expect(sent.body).not.toContain('{');

    const form = await open(admin, '#/mensagens-rapidas');
    await form.getByRole('button', { name: 'Nova mensagem rápida' }).first().click();
    const hint = form.getByText('são preenchidas ao enviar');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('{{name}}');
    expect(await hint.textContent()).not.toMatch(/(^|[^{])\{nome\}/);
  }, 60_000);
  it('8. editing a signed message in the conversation keeps the signature on what the customer has', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550008', 'Edu Edição');
    const sent = await t.app.inject({ method: 'POST', url: `/api/messages/${id}`, headers: ana.headers, payload: { body: 'Entrega prevista para hoje', signMessage: true } });
    expect(sent.statusCode).toBe(201);
    const mid = sent.json().id as string;
    const customerCopy = async () => (await t.sql.query<{ body: string }>(`SELECT o.body FROM channel_sandbox_outbox o JOIN messages m ON m.provider_id = o.provider_id WHERE m.id = $1`, [mid])).rows[0]?.body;
    await expect.poll(customerCopy, { timeout: 15_000 }).toBe('*Ana Atendente*:\nEntrega prevista para hoje');
    const page = await open(ana, `#/atendimento/${id}`);
    const bubble = page.getByTestId('message').filter({ hasText: 'Entrega prevista para hoje' });
    await bubble.hover();
    await bubble.getByRole('button', { name: 'Ações da mensagem' }).click();
    await page.getByRole('menuitem', { name: 'Editar' }).click();
    const composer = page.getByTestId('composer');
    // The agent edits the text only; the signature is not in the box to be deleted.
    await expect.poll(() => composer.inputValue()).toBe('Entrega prevista para hoje');
    await composer.fill('Entrega prevista para amanhã');
    await composer.press('Enter');
    await expect.poll(customerCopy, { timeout: 15_000 }).toBe('*Ana Atendente*:\nEntrega prevista para amanhã');
    await page.getByTestId('message').filter({ hasText: 'Entrega prevista para amanhã' }).getByTestId('message-signature').waitFor();
    // 13. The list previews a signed reply as "Ana Atendente: …", never with WhatsApp's `*Name*:` markers.
    await expect.poll(() => row(page, 'Edu Edição').textContent()).toContain('Ana Atendente: Entrega prevista');
    expect(await row(page, 'Edu Edição').textContent()).not.toContain('*');
  }, 60_000);

  it('9. scheduling empties the composer, the bar opens to list it on the company clock, and search does not show it as sent', async () => {
    await t.sql.query(`UPDATE tenants SET timezone = 'Asia/Tokyo' WHERE id = $1`, [admin.tenantId]);
    const id = await ticketFor(ana, atendimento, '5511955550009', 'Gabi Agenda');
    const page = await open(ana, `#/atendimento/${id}`);
    const composer = page.getByTestId('composer');
    await composer.fill('Lembrete: vencimento do boleto');
    await page.getByRole('button', { name: 'Agendar mensagem' }).first().click();
    await page.getByText('Horário da empresa: Asia/Tokyo').first().waitFor();
    await page.getByTestId('schedule-tomorrow').click();
    await page.getByTestId('schedule-submit').click();
    const row1 = await until(async () => (await t.sql.query<{ schedule_date: Date }>(`SELECT schedule_date FROM messages WHERE ticket_id = $1 AND schedule_date IS NOT NULL`, [id])).rows[0], 10_000, 'the scheduled message');
    // "Amanhã" is 09:00 of the company's tomorrow: 00:00 UTC in Tokyo.
    expect(row1.schedule_date.toISOString()).toMatch(/T00:00:00\.000Z$/);
    await expect.poll(() => composer.inputValue()).toBe('');
    await page.getByTestId('scheduled-toggle').click();
    const item = page.getByTestId('scheduled-item');
    await expect.poll(() => item.textContent()).toContain('09:00');
    expect(await item.textContent()).toContain('Lembrete: vencimento do boleto');
    await page.screenshot({ path: '/tmp/shots/day-scheduled.png' });
    // The search finds nothing sent.
    await page.getByTestId('action-more').click();
    await page.getByRole('menuitem', { name: 'Buscar na conversa' }).click();
    await page.getByPlaceholder('Digite ao menos 2 caracteres').fill('boleto');
    await page.getByText('Nenhuma mensagem encontrada').waitFor({ timeout: 10_000 });
    await t.sql.query(`UPDATE tenants SET timezone = 'America/Sao_Paulo' WHERE id = $1`, [admin.tenantId]);
  }, 60_000);

  it('12. the ticket history names every entry and says from whom to whom a transfer went', async () => {
    const id = await ticketFor(ana, atendimento, '5511955550012', 'Hugo Histórico');
    const page = await open(admin, `#/atendimento/${id}`);
    await page.getByTestId('action-more').click();
    await page.getByTestId('action-logs').click();
    const entries = page.getByTestId('log-entry');
    await entries.first().waitFor();
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain('Atendimento criado');
    const text = (await page.getByRole('dialog').textContent()) ?? '';
    expect(text).not.toMatch(/\bcreated\b/);
    expect(text).toContain('De sem atendente nem fila para Ana Atendente · Atendimento');
    await page.screenshot({ path: '/tmp/shots/day-history.png' });
  }, 60_000);
  it('10. merging duplicates and marking all read ask first and say what they did', async () => {
    for (const [name, number] of [['Duda Dupla', '5511944440001'], ['Duda D.', '5511944440002']]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name, number, email: 'duda@exemplo.com.br' } });
      expect(r.statusCode, r.body).toBe(201);
    }
    const page = await open(admin, '#/contatos');
    await page.getByRole('button', { name: 'Ferramentas' }).click({ timeout: 60_000 });
    await page.getByRole('menuitem', { name: 'Contatos duplicados' }).click();
    await page.getByTestId('duplicates-merge').click();
    // Nothing merged until confirmed.
    const dialog = page.getByRole('dialog', { name: 'Mesclar contatos' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('1 contato será mesclado em “Duda Dupla”');
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM contacts WHERE email = 'duda@exemplo.com.br'`)).rows[0].n).toBe(2);
    await dialog.getByRole('button', { name: 'Mesclar' }).click();
    await page.getByTestId('merge-result').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('merge-result').textContent()).toContain('Mesclado em “Duda Dupla”: 1 contato removido, nenhum atendimento movido.');
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM contacts WHERE email = 'duda@exemplo.com.br'`)).rows[0].n).toBe(1);

    // Marcar todos como lidos: asked, with the count.
    await simulate('5511944440010', 'Ugo Unread', 'oi, alguém?');
    const list = await open(admin);
    await list.getByTestId('tab-pending').click();
    await row(list, 'Ugo Unread').getByTestId('unread-badge').waitFor({ timeout: 10_000 });
    await list.getByTestId('mark-all-read').click();
    const ask = list.getByRole('dialog', { name: 'Marcar todos como lidos' });
    await ask.waitFor();
    expect(await ask.textContent()).toMatch(/\d+ atendimentos? não lidos?/);
    await ask.getByRole('button', { name: 'Marcar como lidos' }).click();
    await expect.poll(() => row(list, 'Ugo Unread').getByTestId('unread-badge').count(), { timeout: 10_000 }).toBe(0);
  }, 60_000);
  it('11. a long contact name is cut, not the status badge nor the ticket panel table', async () => {
    const long = 'Maria Aparecida dos Santos Oliveira Pereira da Silva Comércio de Materiais de Construção e Acabamentos Ltda';
    const id = await ticketFor(ana, atendimento, '5511955550011', long);
    const page = await open(admin, `#/atendimento/${id}`);
    const badge = page.getByTestId('chat-status');
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe('Aberto');
    // The badge shows its whole word: nothing clipped.
    expect(await badge.evaluate((el) => [...el.querySelectorAll('*'), el].every((e) => e.scrollWidth <= e.clientWidth + 1))).toBe(true);
    await page.screenshot({ path: '/tmp/shots/day-long-name-chat.png' });

    await page.evaluate(() => { window.location.hash = '#/painel-atendimentos'; });
    const cell = page.getByTestId('panel-contact').filter({ hasText: 'Maria Aparecida' }).first();
    await cell.waitFor({ timeout: 15_000 });
    // The table fits its page: no sideways scroll pushed by the name, and the status column shows whole words.
    const fits = await page.evaluate(() => {
      const table = document.querySelector('table');
      const holder = table?.parentElement;
      return !!table && !!holder && table.scrollWidth <= holder.clientWidth + 1;
    });
    expect(fits).toBe(true);
    expect((await cell.boundingBox())!.width).toBeLessThanOrEqual(361);
    await page.screenshot({ path: '/tmp/shots/day-long-name-panel.png' });
  }, 60_000);
  it('7. the WABA form says which field the server refused and why', async () => {
    const page = await open(admin, '#/sessoes');
    await page.getByTestId('channels-page').waitFor({ timeout: 60_000 });
    await page.getByTestId('channel-new').click();
    await page.getByTestId('channel-type-waba').click();
    await page.getByTestId('channel-name').fill('WhatsApp Oficial');
    await page.getByTestId('channel-tab-connection').click();
    await page.getByTestId('waba-form').waitFor({ timeout: 60_000 });
    await page.getByTestId('waba-phone-number-id').fill('109876543210987');
    // Digits, but the server's rule wants 5 to 30 of them: only the server refuses this one.
    await page.getByTestId('waba-business-account-id').fill('12ab');
    await page.getByTestId('waba-access-token').fill('EAAG-token');
    await page.getByTestId('waba-app-secret').fill('segredo-do-app');
    await page.getByTestId('channel-save').click();
    const alert = page.getByTestId('channel-form-error');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toBe('Dados WABA incorretos: informe o ID da conta do WhatsApp Business (somente dígitos)');
    await page.screenshot({ path: '/tmp/shots/day-waba-field.png' });
  }, 90_000);
});
