/**
 * Presence and transfer (issue U2 "what buyers check") in a real browser, three
 * people side by side: an agent pauses with a reason and comes back, the
 * supervisor's team drawer follows live with each one's load, the transfer
 * dialog offers the chosen queue's people with their status and open tickets,
 * and the receiver reads the transfer line and the sender's note.
 * Screenshots go to /tmp/shots/presence-*.png.
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

run('presence and transfer', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let ana: TestUser;
  let bruno: TestUser;
  let carla: TestUser;
  let atendimento: number;
  let financeiro: number;
  let channelId: number;
  const contexts: BrowserContext[] = [];
  let pages: Page[] = [];

  beforeAll(async () => {
    fs.mkdirSync('/tmp/shots', { recursive: true });
    t = await createTestApp();
    base = await t.baseUrl();
    browser = await launchBrowser();
    admin = await t.loginAs('admin');
    ana = await t.loginAs('user', admin.tenantId);
    bruno = await t.loginAs('user', admin.tenantId);
    carla = await t.loginAs('user', admin.tenantId);
    atendimento = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Atendimento' } })).json().id;
    financeiro = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Financeiro' } })).json().id;
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [admin.id, 'Carlos Supervisor']);
    for (const [u, name, queues] of [[ana, 'Ana', [atendimento]], [bruno, 'Bruno', [financeiro]], [carla, 'Carla', [financeiro]]] as const) {
      await t.sql.query('UPDATE users SET name = $2, queues = $3 WHERE id = $1', [u.id, name, JSON.stringify(queues)]);
    }
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
    channelId = ch.json().id;
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/presence-failure-${i}.png` }).catch(() => undefined)));
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
    await page.getByTestId('tab-open').waitFor({ timeout: 20_000 });
    return page;
  }

  it('an agent pauses with a reason; the supervisor sees it live; the transfer offers the queue\'s people with status and load; the receiver reads the note', async () => {
    const sup = await open(admin);
    await sup.getByTestId('team-presence').click();
    const member = (u: TestUser) => sup.locator(`[data-testid="team-member"][data-user-id="${u.id}"]`);
    await member(bruno).waitFor();
    expect(await member(bruno).getAttribute('data-status')).toBe('offline');

    // Bruno opens the app: online for the supervisor, live.
    const pb = await open(bruno);
    await expect.poll(() => member(bruno).getAttribute('data-status'), { timeout: 15_000 }).toBe('online');

    // He pauses: the reason is required.
    await pb.getByTestId('presence-indicator').click();
    await pb.getByTestId('presence-set-paused').click();
    await pb.getByTestId('pause-confirm').click();
    await pb.getByText('Informe o motivo da pausa').waitFor();
    // The usual reasons are one click away.
    await pb.getByTestId('pause-reason-lunch').click();
    expect(await pb.getByTestId('pause-reason').inputValue()).toBe('Almoço');
    await pb.screenshot({ path: '/tmp/shots/presence-pause.png' });
    await pb.getByTestId('pause-confirm').click();
    await expect.poll(() => pb.getByTestId('presence-indicator').getAttribute('data-status')).toBe('paused');
    expect((await t.sql.query('SELECT presence, pause_reason FROM users WHERE id = $1', [bruno.id])).rows[0]).toEqual({ presence: 'paused', pause_reason: 'Almoço' });
    await expect.poll(() => member(bruno).getAttribute('data-status'), { timeout: 15_000 }).toBe('paused');
    expect(await member(bruno).getByTestId('team-member-status').textContent()).toMatch(/^Em pausa: Almoço · desde /);
    await sup.screenshot({ path: '/tmp/shots/presence-team.png' });

    // Ana has a customer in Atendimento and transfers to Financeiro.
    const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Maria Cliente', number: '5511977776666' } })).json();
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/tickets', headers: admin.headers, payload: { contactId: contact.id, channelId, status: 'open', userId: ana.id, queueId: atendimento } })).json();
    const pa = await open(ana, `#/atendimento/${ticket.id}`);
    await pa.getByTestId('action-transfer').click();
    await pa.getByTestId('transfer-queue').click();
    await pa.getByRole('option', { name: 'Financeiro' }).click();
    await pa.getByTestId('transfer-user').click();
    const options = pa.getByTestId('transfer-user-option');
    // Financeiro's people and the admin (who has no queue but works every one, as the server accepts), the available
    // first; never Ana (Atendimento only). A colleague sees the pause, not its reason.
    await expect.poll(() => options.evaluateAll((els) => els.map((e) => `${e.textContent} [${e.getAttribute('data-status')}]`))).toEqual([
      'Carlos SupervisorOnline0 abertos [online]',
      'BrunoEm pausa0 abertos [paused]',
      'CarlaOffline0 abertos [offline]',
    ]);
    await pa.screenshot({ path: '/tmp/shots/presence-transfer.png' });
    // Bruno comes back from lunch: Ana's open list follows.
    await pb.getByTestId('presence-indicator').click();
    await pb.getByTestId('presence-set-online').click();
    const brunoOption = options.filter({ hasText: 'Bruno' });
    await expect.poll(() => brunoOption.getAttribute('data-status'), { timeout: 15_000 }).toBe('online');
    await expect.poll(() => member(bruno).getAttribute('data-status'), { timeout: 15_000 }).toBe('online');

    await brunoOption.click();
    await pa.getByTestId('transfer-note').fill('Cliente quer a 2ª via do boleto');
    await pa.getByTestId('transfer-submit').click();

    // Bruno gets it in Abertos, opens it, and reads who sent it, from where, and the note.
    const row = pb.locator(`[data-testid="ticket-row"][data-ticket-id="${ticket.id}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const line = pb.getByTestId('system-line');
    await expect.poll(() => line.getByTestId('system-line-text').textContent(), { timeout: 15_000 }).toBe('Transferido de Atendimento (Ana) para Financeiro (Bruno) por Ana');
    expect(await line.getByTestId('system-line-note').textContent()).toBe('Observação: Cliente quer a 2ª via do boleto');
    await pb.screenshot({ path: '/tmp/shots/presence-line.png' });
    // Nothing of it went to the customer.
    const sent = await until(async () => (await t.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND type = 'system' AND is_note`, [ticket.id])).rows[0]?.n || undefined, 10_000, 'the line');
    expect(sent).toBe(1);
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM message_sends WHERE tenant_id = $1`, [admin.tenantId])).rows[0].n).toBe(0);
    // The supervisor sees Bruno's load go up.
    await expect.poll(() => member(bruno).getByTestId('team-member-open').textContent(), { timeout: 15_000 }).toBe('1 aberto');
  }, 180_000);
});
