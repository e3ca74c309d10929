/**
 * The ticket screen's tenant rules and bulk actions in a real browser (Debian
 * Chromium through playwright-core) against a real kernel serving ui-shell/dist:
 * the "Assinar" switch and ForceSignature, the admin's force close,
 * ForceAdminPendingAssignment and "mark all as read". The customer is the
 * sandbox channel (simulate + outbox). Screenshots go to /tmp/tickets-rules-*.png.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { launchBrowser, loggedInPage } from '../../core/src/testing/browser.ts';

describe('ticket screen rules in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let agent: TestUser;
  let channelId: number;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.baseUrl();
    browser = await launchBrowser();
    admin = await t.loginAs('admin');
    agent = await t.loginAs('user', admin.tenantId);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [agent.id, 'Ana Atendente']);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [admin.id, 'Carlos Gestor']);
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox', farewellMessage: 'Obrigado pelo contato!' } });
    expect(ch.statusCode).toBe(201);
    channelId = ch.json().id;
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** A browser context logged in as `user` (the real login answer where the shell keeps it), on the ticket screen. */
  async function open(user: TestUser, hash = '#/atendimento'): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(200);
    const { context, page } = await loggedInPage(browser, base, { session: res.json() });
    contexts.push(context);
    await page.goto(`${base}/${hash}`);
    await page.getByTestId('tab-pending').waitFor({ timeout: 20_000 });
    return page;
  }

  const setting = async (key: string, value: 'enabled' | 'disabled') => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { [key]: value } });
    expect(res.statusCode, res.body).toBe(200);
  };
  const simulate = async (fromId: string, name: string, body: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: fromId, name }, body } });
    expect(res.statusCode).toBe(200);
  };
  const outbox = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: admin.headers })).json() as { to: string; body: string }[];
  const row = (page: Page, name: string) => page.getByTestId('ticket-row').filter({ hasText: name });
  const openPending = async (page: Page, name: string) => {
    await page.getByTestId('tab-pending').click();
    await row(page, name).click();
    await page.getByTestId('conversation').waitFor();
    await expect.poll(() => page.getByTestId('chat-name').textContent()).toBe(name);
  };
  const sendText = async (page: Page, text: string) => {
    const composer = page.getByTestId('composer');
    await composer.fill(text);
    await composer.press('Enter');
    await page.getByTestId('message').filter({ hasText: text }).waitFor();
  };

  it('signature switch: on signs, off does not, the choice survives a reload, ForceSignature locks it on', async () => {
    await simulate('5511977770001', 'Rita Souza', 'Oi, quero trocar um produto');
    const page = await open(agent);
    await openPending(page, 'Rita Souza');
    await page.getByTestId('action-start').first().click();
    await expect.poll(() => page.getByTestId('chat-status').textContent()).toBe('Aberto');

    // On by default: the customer gets the agent's name in bold on its own line.
    const sign = page.getByTestId('sign-switch');
    await expect.poll(() => sign.isChecked()).toBe(true);
    await sendText(page, 'Claro, pode trazer na loja.');
    await until(async () => (await outbox()).find((m) => m.to === '5511977770001' && m.body === '*Ana Atendente*:\nClaro, pode trazer na loja.'), 15_000, 'the signed reply in the outbox');
    await expect.poll(() => page.getByTestId('message').filter({ hasText: 'Claro, pode trazer' }).getByTestId('message-signature').textContent()).toBe('Ana Atendente:');

    // Off: the next reply goes as typed.
    await sign.click({ force: true });
    await expect.poll(() => sign.isChecked()).toBe(false);
    await sendText(page, 'Sem assinatura desta vez.');
    await until(async () => (await outbox()).find((m) => m.to === '5511977770001' && m.body === 'Sem assinatura desta vez.'), 15_000, 'the unsigned reply in the outbox');
    // One bubble, not the sending copy beside the saved one.
    await expect.poll(() => page.getByTestId('message').filter({ hasText: 'Sem assinatura desta vez.' }).count()).toBe(1);

    // The choice is the agent's: still off after a reload.
    await page.reload();
    await page.getByTestId('composer').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('sign-switch').isChecked()).toBe(false);

    // An internal note is never signed: the switch is not offered while writing one.
    await page.getByTestId('note-switch').check({ force: true });
    await expect.poll(() => page.getByTestId('sign-switch').count()).toBe(0);
    await page.getByTestId('note-switch').uncheck({ force: true });

    // The admin requires signatures: without a reload, the switch turns on and locked, and replies are signed.
    await setting('ForceSignature', 'enabled');
    const forced = page.getByTestId('sign-switch');
    await expect.poll(() => forced.isDisabled(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => forced.isChecked()).toBe(true);
    await page.getByTestId('sign-forced').hover();
    await page.getByText('O administrador exige que todas as mensagens sejam assinadas').waitFor();
    await page.screenshot({ path: '/tmp/tickets-rules-signature.png' });
    await sendText(page, 'Assinada por exigência.');
    await until(async () => (await outbox()).find((m) => m.to === '5511977770001' && m.body === '*Ana Atendente*:\nAssinada por exigência.'), 15_000, 'the forced signed reply in the outbox');
    await setting('ForceSignature', 'disabled');
  }, 90_000);

  it('an admin force-closes from the header menu: Resolvido, no farewell; agents are not offered it', async () => {
    await simulate('5511977770002', 'Otávio Lima', 'Mensagem por engano');
    const agentPage = await open(agent);
    await openPending(agentPage, 'Otávio Lima');
    await agentPage.getByTestId('action-more').click();
    await agentPage.getByTestId('action-logs').waitFor();
    expect(await agentPage.getByTestId('action-force-close').count()).toBe(0);

    const page = await open(admin);
    await openPending(page, 'Otávio Lima');
    await page.getByTestId('action-more').click();
    await page.getByTestId('action-force-close').click();
    await page.getByText('sem mensagem de despedida e sem pedido de avaliação').waitFor();
    await page.getByRole('button', { name: 'Encerrar agora' }).click();
    await expect.poll(() => page.getByTestId('chat-status').textContent(), { timeout: 10_000 }).toBe('Resolvido');
    await page.getByText('Atendimento encerrado').first().waitFor();
    // No farewell (the channel has one configured) nor rating request reached the customer.
    expect((await outbox()).filter((m) => m.to === '5511977770002')).toEqual([]);
    // The agent who had it open, and may not see resolved tickets of others, is told at once: no stale 'Pendente'.
    await agentPage.keyboard.press('Escape');
    // (It says the ticket left their list and goes back to it: issue U2 #5.)
    await agentPage.getByText('Este atendimento saiu da sua lista').first().waitFor({ timeout: 10_000 });
    await agentPage.waitForURL((u) => u.hash === '#/atendimento');
    expect(await agentPage.getByTestId('ticket-row').filter({ hasText: 'Otávio Lima' }).count()).toBe(0);
    // A resolved ticket is not offered for force close again.
    await page.getByTestId('action-more').click();
    await page.getByTestId('action-logs').waitFor();
    expect(await page.getByTestId('action-force-close').count()).toBe(0);
  }, 60_000);

  it('ForceAdminPendingAssignment: the agent is told only an admin may assign and can leave notes; the admin starts it', async () => {
    await setting('ForceAdminPendingAssignment', 'enabled');
    try {
      await simulate('5511977770003', 'Sandra Reis', 'Preciso falar com alguém');
      const page = await open(agent);
      await openPending(page, 'Sandra Reis');
      await page.getByTestId('pending-locked').getByText('Somente um administrador pode atribuir este atendimento').waitFor();
      expect(await page.getByTestId('action-start').count()).toBe(0);
      // Only notes: the note switch is on and locked, and a note goes in.
      await expect.poll(() => page.getByTestId('note-switch').isChecked()).toBe(true);
      await expect.poll(() => page.getByTestId('note-switch').isDisabled()).toBe(true);
      const composer = page.getByTestId('composer');
      await composer.fill('Cliente pediu retorno urgente.');
      await composer.press('Enter');
      await page.locator('[data-note]').filter({ hasText: 'Cliente pediu retorno urgente.' }).waitFor();
      await page.screenshot({ path: '/tmp/tickets-rules-pending-locked.png' });
      expect((await outbox()).filter((m) => m.to === '5511977770003')).toEqual([]);
      await expect.poll(() => page.getByTestId('chat-status').textContent()).toBe('Pendente');
      // The transfer offers queues only, and says why; nor is a message offered for scheduling.
      await page.getByTestId('action-more').click();
      await page.getByTestId('action-transfer-menu').click();
      await page.getByTestId('transfer-queue-only').getByText('você pode movê-lo para outra fila').waitFor();
      expect(await page.getByTestId('transfer-user').count()).toBe(0);
      await page.keyboard.press('Escape');
      await page.getByTestId('transfer-queue-only').waitFor({ state: 'hidden' });
      await page.getByTestId('action-more').click();
      await page.getByTestId('action-transfer-menu').waitFor();
      expect(await page.getByRole('menuitem', { name: 'Agendar mensagem' }).count()).toBe(0);
      await page.keyboard.press('Escape');

      const adminPage = await open(admin);
      await openPending(adminPage, 'Sandra Reis');
      expect(await adminPage.getByTestId('pending-locked').count()).toBe(0);
      await adminPage.getByTestId('action-start').first().click();
      await expect.poll(() => adminPage.getByTestId('chat-status').textContent()).toBe('Aberto');

      // A pending ticket an admin already gave to the agent: the agent starts it as usual.
      await simulate('5511977770006', 'Tiago Melo', 'Vocês abrem amanhã?');
      const ticketId = await until(async () => (await t.sql.query<{ id: number }>(`SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.tenant_id = $1 AND c.name = 'Tiago Melo'`, [admin.tenantId])).rows[0]?.id, 10_000, 'the new ticket');
      const given = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: admin.headers, payload: { status: 'pending', userId: agent.id } });
      expect(given.statusCode, given.body).toBe(200);
      await openPending(page, 'Tiago Melo');
      expect(await page.getByTestId('pending-locked').count()).toBe(0);
      await page.getByTestId('action-start').first().click();
      await expect.poll(() => page.getByTestId('chat-status').textContent()).toBe('Aberto');
    } finally {
      await setting('ForceAdminPendingAssignment', 'disabled');
    }
  }, 60_000);

  it('mark all as read clears the unread badges', async () => {
    await simulate('5511977770004', 'Vera Nunes', 'Primeira mensagem');
    await simulate('5511977770004', 'Vera Nunes', 'Segunda mensagem');
    await simulate('5511977770005', 'Igor Prado', 'Alô?');
    const page = await open(agent);
    await page.getByTestId('tab-pending').click();
    await expect.poll(() => row(page, 'Vera Nunes').getByTestId('unread-badge').textContent(), { timeout: 10_000 }).toBe('2');
    await expect.poll(() => row(page, 'Igor Prado').getByTestId('unread-badge').textContent()).toBe('1');
    await page.getByTestId('mark-all-read').click();
    // Asked first (issue U2 #10).
    await page.getByRole('dialog', { name: 'Marcar todos como lidos' }).getByRole('button', { name: 'Marcar como lidos' }).click();
    await page.getByText(/Atendimentos marcados como lidos: \d+/).first().waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('ticket-list').getByTestId('unread-badge').count(), { timeout: 10_000 }).toBe(0);
    await page.screenshot({ path: '/tmp/tickets-rules-read.png' });
    // Read for good: a fresh load shows none either.
    await page.reload();
    await page.getByTestId('tab-pending').click();
    await row(page, 'Vera Nunes').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('ticket-list').getByTestId('unread-badge').count()).toBe(0);
  }, 60_000);
});
