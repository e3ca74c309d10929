/**
 * Working from the conversation (issue U2): the agent edits the customer in the
 * contact panel (name, e-mail, CPF/CNPJ with its validation, tags, blocking)
 * and sees all of the customer's earlier tickets, the ones visibility keeps
 * from them locked and without content. Screenshots go to /tmp/shots/contact-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser, loggedInPage } from '../../core/src/testing/browser.ts';

const root = path.join(import.meta.dirname, '../..');
const built = fs.existsSync(path.join(root, 'ui-shell/dist/index.html'));
const run = chromiumAvailable() && built ? describe : describe.skip;

run('contact panel', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let ana: TestUser;
  let bruno: TestUser;
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
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/contact-failure-${i}.png` }).catch(() => undefined)));
    pages = [];
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('the agent edits name, e-mail, CPF, tags and blocks the contact from the panel; the earlier tickets are all listed, others\' locked', async () => {
    const atendimento = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Atendimento' } })).json().id;
    const financeiro = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Financeiro' } })).json().id;
    await t.sql.query('UPDATE users SET name = $2, queues = $3 WHERE id = $1', [ana.id, 'Ana', JSON.stringify([atendimento])]);
    await t.sql.query('UPDATE users SET name = $2, queues = $3 WHERE id = $1', [bruno.id, 'Bruno', JSON.stringify([financeiro])]);
    expect((await t.app.inject({ method: 'POST', url: '/api/tags', headers: admin.headers, payload: { name: 'VIP' } })).statusCode).toBe(201);
    const ch1 = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Loja' } })).json().id;
    const ch2 = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Cobrança' } })).json().id;
    const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Maria', number: '5511944443333' } })).json();
    const current = (await t.app.inject({ method: 'POST', url: '/api/tickets', headers: admin.headers, payload: { contactId: contact.id, channelId: ch1, status: 'open', userId: ana.id, queueId: atendimento } })).json().id;
    // Bruno's ticket with her in Financeiro, on the other channel: not Ana's to read.
    const brunos = (await t.sql.query<{ id: number }>(`INSERT INTO tickets (tenant_id, contact_id, channel_id, status, user_id, queue_id, last_message, protocol) VALUES ($1, $2, $3, 'open', $4, $5, 'segredo do financeiro', 'P-FIN-1') RETURNING id`, [admin.tenantId, contact.id, ch2, bruno.id, financeiro])).rows[0]!.id;
    expect((await t.app.inject({ method: 'GET', url: `/api/tickets/${brunos}`, headers: ana.headers })).statusCode).toBe(404);

    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ana.email, password: ana.password } });
    const { context, page } = await loggedInPage(browser, base, { session: res.json() });
    contexts.push(context);
    pages.push(page);
    page.on('pageerror', (e) => console.log(`[pageerror] ${e.stack}`));
    await page.goto(`${base}/#/atendimento/${current}`);
    const panel = page.getByTestId('contact-panel');
    await panel.waitFor({ timeout: 20_000 });

    // The history lists Bruno's ticket, locked, with no content.
    const locked = panel.locator('[data-testid="history-ticket"][data-can-open="false"]');
    await locked.waitFor();
    expect(await locked.textContent()).toContain('P-FIN-1');
    expect(await locked.textContent()).toContain('Bruno');
    expect(await locked.textContent()).not.toContain('segredo');

    await panel.getByTestId('contact-edit').click();
    const drawer = page.getByRole('dialog', { name: 'Editar contato' });
    await drawer.getByLabel(/^Nome/).fill('Maria Souza Lima');
    await drawer.getByLabel('E-mail').fill('maria@exemplo.com.br');
    await drawer.getByLabel('CPF/CNPJ').fill('111.111.111-11');
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await drawer.getByText('CPF ou CNPJ inválido').waitFor();
    expect((await t.sql.query('SELECT name FROM contacts WHERE id = $1', [contact.id])).rows[0].name).toBe('Maria');
    await drawer.getByLabel('CPF/CNPJ').fill('529.982.247-25');
    await drawer.getByLabel('Etiquetas').click();
    await page.getByRole('option', { name: 'VIP' }).click();
    await page.screenshot({ path: '/tmp/shots/contact-edit.png' });
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await drawer.waitFor({ state: 'hidden' });

    await expect.poll(() => panel.getByRole('heading').first().textContent(), { timeout: 15_000 }).toBe('Maria Souza Lima');
    await panel.getByText('maria@exemplo.com.br').waitFor();
    await panel.getByText('VIP').waitFor();
    await page.getByTestId('chat-name').getByText('Maria Souza Lima').waitFor();
    const row = (await t.sql.query('SELECT name, email, identity FROM contacts WHERE id = $1', [contact.id])).rows[0];
    expect(row).toMatchObject({ name: 'Maria Souza Lima', email: 'maria@exemplo.com.br' });
    expect(String(row.identity).replace(/\D/g, '')).toBe('52998224725');
    await page.screenshot({ path: '/tmp/shots/contact-panel.png' });

    // Blocking, from the same form.
    await panel.getByTestId('contact-edit').click();
    // (Mantine's switch input lies over its label.)
    await drawer.getByRole('switch', { name: 'Contato bloqueado' }).check({ force: true });
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await t.sql.query('SELECT blocked FROM contacts WHERE id = $1', [contact.id])).rows[0].blocked).toBe(true);
  }, 180_000);
});
