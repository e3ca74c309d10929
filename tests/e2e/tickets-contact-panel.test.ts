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

  it('the kanban lane is chosen by name (or none) and hidden without the kanban plugin; the panel blocks and unblocks with a confirmation', async () => {
    const lane = async (name: string) => (await t.app.inject({ method: 'POST', url: '/api/plugins/kanban/lanes', headers: admin.headers, payload: { name } })).json().id as number;
    await lane('Novo lead');
    const negociacao = await lane('Negociação');
    const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Vendas' } })).json().id;
    const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Rita Lima', number: '5511922223333' } })).json();
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/tickets', headers: admin.headers, payload: { contactId: contact.id, channelId: ch, status: 'open', userId: ana.id } })).json().id;
    const laneOf = async () => (await t.sql.query('SELECT lane_id FROM kanban_contact_lanes WHERE contact_id = $1', [contact.id])).rows[0]?.lane_id ?? null;

    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ana.email, password: ana.password } });
    const { context, page } = await loggedInPage(browser, base, { session: res.json() });
    contexts.push(context);
    pages.push(page);
    page.on('pageerror', (e) => console.log(`[pageerror] ${e.stack}`));
    await page.goto(`${base}/#/atendimento/${ticket}`);
    const panel = page.getByTestId('contact-panel');
    await panel.waitFor({ timeout: 20_000 });

    // The lane: a list of the tenant's lanes by name, "Nenhuma" at first.
    await panel.getByTestId('contact-edit').click();
    const drawer = page.getByRole('dialog', { name: 'Editar contato' });
    const laneField = drawer.getByTestId('contact-lane');
    await expect.poll(() => laneField.inputValue(), { timeout: 15_000 }).toBe('Nenhuma');
    await laneField.click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Nenhuma', 'Novo lead', 'Negociação']);
    await page.getByRole('option', { name: 'Negociação' }).click();
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(laneOf).toBe(negociacao);
    await panel.getByText('Negociação').waitFor({ timeout: 15_000 });
    // And back to none.
    await panel.getByTestId('contact-edit').click();
    await expect.poll(() => laneField.inputValue(), { timeout: 15_000 }).toBe('Negociação');
    await laneField.click();
    await page.getByRole('option', { name: 'Nenhuma' }).click();
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(laneOf).toBe(null);

    // Blocking from the panel: asked first; cancelling changes nothing.
    const block = panel.getByTestId('contact-block');
    await expect.poll(() => block.textContent(), { timeout: 15_000 }).toBe('Bloquear contato');
    await block.click();
    const ask = page.getByRole('dialog', { name: 'Bloquear contato' });
    await ask.getByText('Bloquear Rita Lima? As mensagens deste contato passam a ser ignoradas até que seja desbloqueado.').waitFor();
    await ask.getByRole('button', { name: 'Cancelar' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect((await t.sql.query('SELECT blocked FROM contacts WHERE id = $1', [contact.id])).rows[0].blocked).toBe(false);
    await block.click();
    await ask.getByRole('button', { name: 'Bloquear contato' }).click();
    await page.getByText('Contato bloqueado', { exact: true }).waitFor();
    await panel.getByTestId('contact-blocked-badge').waitFor();
    expect((await t.sql.query('SELECT blocked FROM contacts WHERE id = $1', [contact.id])).rows[0].blocked).toBe(true);
    await page.screenshot({ path: '/tmp/shots/contact-blocked.png' });
    // Unblocking, the same way.
    await expect.poll(() => block.textContent()).toBe('Desbloquear contato');
    await block.click();
    const askUnblock = page.getByRole('dialog', { name: 'Desbloquear contato' });
    await askUnblock.getByRole('button', { name: 'Desbloquear contato' }).click();
    await page.getByText('Contato desbloqueado', { exact: true }).waitFor();
    await panel.getByTestId('contact-blocked-badge').waitFor({ state: 'hidden' });
    expect((await t.sql.query('SELECT blocked FROM contacts WHERE id = $1', [contact.id])).rows[0].blocked).toBe(false);

    // A tenant with the kanban plugin off: no lane field, and saving the contact still works.
    const other = await t.loginAs('admin');
    await t.sql.query(`INSERT INTO tenant_plugins (tenant_id, plugin_id, enabled) VALUES ($1, 'kanban', false)`, [other.tenantId]);
    const och = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: other.headers, payload: { type: 'sandbox', name: 'Loja' } })).json().id;
    const oc = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: other.headers, payload: { name: 'Sem Kanban', number: '5511933334444' } })).json();
    const ot = (await t.app.inject({ method: 'POST', url: '/api/tickets', headers: other.headers, payload: { contactId: oc.id, channelId: och, status: 'open', userId: other.id } })).json().id;
    const r2 = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: other.email, password: other.password } });
    const second = await loggedInPage(browser, base, { session: r2.json() });
    contexts.push(second.context);
    pages.push(second.page);
    await second.page.goto(`${base}/#/atendimento/${ot}`);
    const panel2 = second.page.getByTestId('contact-panel');
    await panel2.waitFor({ timeout: 20_000 });
    // The form asks the kanban plugin for lanes when it opens: once refused, there is no lane to show.
    const lanesAnswer = second.page.waitForResponse((r) => r.url().includes('/plugins/kanban/lanes'));
    await panel2.getByTestId('contact-edit').click();
    expect((await lanesAnswer).status()).toBe(404);
    const drawer2 = second.page.getByRole('dialog', { name: 'Editar contato' });
    await drawer2.getByLabel(/^Nome/).fill('Sem Kanban Editado');
    // The form is complete (the wallets field, below where the lane was, is there) and has no lane.
    await drawer2.getByLabel('Carteiras').waitFor();
    expect(await drawer2.getByText('Etapa do kanban').count()).toBe(0);
    await drawer2.getByRole('button', { name: 'Salvar' }).click();
    await drawer2.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await t.sql.query('SELECT name FROM contacts WHERE id = $1', [oc.id])).rows[0].name).toBe('Sem Kanban Editado');
  }, 180_000);
});
