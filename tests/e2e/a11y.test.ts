/**
 * Accessibility of the screens buyers try first (issue U2), in a real browser
 * (Debian Chromium through playwright-core) against a real kernel serving
 * ui-shell/dist: axe-core (npm `axe-core`, injected into the page) finds no
 * serious or critical WCAG 2.1 A/AA violation on the login page, the ticket
 * screen with an open conversation and the contacts screen; the ticket screen
 * has its landmarks and headings, announces new messages, follows the chosen
 * language in `lang` and opens with the composer focused.
 * Screenshots go to /tmp/shots/a11y-*.png.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser, loggedInPage } from '../../core/src/testing/browser.ts';

const built = fs.existsSync(path.join(import.meta.dirname, '../../ui-shell/dist/index.html'));
const run = chromiumAvailable() && built ? describe : describe.skip;
// Evaluated through the DevTools protocol: the app's Content-Security-Policy (script-src 'self') refuses an injected <script>.
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string; failureSummary?: string }[] }

/** axe-core over the whole page: the serious and critical WCAG 2.0/2.1 A and AA violations, in a readable form. */
async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: Violation[] }> } };
    const result = await w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.slice(0, 6).map((n) => `    ${n.html.slice(0, 160)} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 220)}`).join('\n')}`);
}

run('accessibility of the first screens', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let agent: TestUser;
  let channelId: number;
  const contexts: BrowserContext[] = [];
  let pages: Page[] = [];

  beforeAll(async () => {
    fs.mkdirSync('/tmp/shots', { recursive: true });
    t = await createTestApp();
    base = await t.baseUrl();
    browser = await launchBrowser();
    admin = await t.loginAs('admin');
    agent = await t.loginAs('user', admin.tenantId);
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [agent.id, 'Ana Atendente']);
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
    expect(ch.statusCode).toBe(201);
    channelId = ch.json().id;
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/a11y-failure-${i}.png` }).catch(() => undefined)));
    pages = [];
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  const simulate = async (fromId: string, name: string, body: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: fromId, name, number: fromId }, body } });
    expect(res.statusCode, res.body).toBe(200);
  };
  async function open(user: TestUser, hash: string, storage: Record<string, unknown> = {}): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    const { context, page } = await loggedInPage(browser, base, { session: res.json(), ...storage });
    contexts.push(context);
    pages.push(page);
    await page.goto(`${base}/${hash}`);
    return page;
  }

  it('the login page has no serious or critical violation', async () => {
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    pages.push(page);
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    await page.screenshot({ path: '/tmp/shots/a11y-login.png' });
    expect(await axe(page)).toEqual([]);
  }, 90_000);

  it('the ticket screen: landmarks, headings, the composer focused, new messages announced, no serious or critical violation', async () => {
    await simulate('5511977770301', 'Helena Dias', 'Bom dia! Meu pedido 4521 ainda não chegou.');
    const ticketId = await until(async () => (await t.sql.query<{ id: number }>(`SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.tenant_id = $1 AND c.name = 'Helena Dias'`, [admin.tenantId])).rows[0]?.id, 10_000, 'the ticket');
    expect((await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open', userId: agent.id } })).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: agent.headers, payload: { body: 'Bom dia, Helena! Vou verificar agora.' } });
    await simulate('5511977770302', 'Igor Mendes', 'Olá, vocês entregam em Campinas?');
    const page = await open(agent, `#/atendimento/${ticketId}`);
    await page.getByTestId('composer').waitFor({ timeout: 20_000 });
    await page.getByTestId('message').filter({ hasText: 'Vou verificar agora' }).waitFor();

    // Landmarks: the main region, the navigation, the list, the conversation and the contact panel; one h1, the contact as h2.
    expect(await page.locator('main').count()).toBe(1);
    expect(await page.getByRole('navigation').count()).toBeGreaterThan(0);
    await page.getByRole('region', { name: 'Lista de atendimentos' }).waitFor();
    await page.getByRole('region', { name: 'Conversa com Helena Dias' }).waitFor();
    await page.getByRole('complementary', { name: 'Dados do contato' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Atendimentos']);
    await page.getByRole('heading', { level: 2, name: 'Helena Dias' }).waitFor();
    // The ticket opens ready to answer.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('composer');

    // A new message from the customer is announced to screen readers.
    const live = page.locator('[aria-live="polite"][data-testid="conversation-live"]');
    expect(await live.textContent()).toBe('');
    await simulate('5511977770301', 'Helena Dias', 'Obrigada, fico no aguardo.');
    await expect.poll(() => live.textContent(), { timeout: 15_000 }).toBe('Nova mensagem de Helena Dias: Obrigada, fico no aguardo.');

    await page.screenshot({ path: '/tmp/shots/a11y-tickets.png' });
    expect(await axe(page)).toEqual([]);

    // Dark mode keeps the contrast too.
    await page.getByRole('button', { name: 'Menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Modo escuro' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: '/tmp/shots/a11y-tickets-dark.png' });
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Modo claro' }).click();
  }, 120_000);

  it('the contacts screen has no serious or critical violation; lang follows the chosen language', async () => {
    await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Joana Prado', number: '5511988887777', email: 'joana@exemplo.com.br' } });
    const page = await open(admin, '#/contatos');
    await page.getByText('Joana Prado').waitFor({ timeout: 20_000 });
    // The number as people write it.
    await page.getByText('+55 (11) 98888-7777').waitFor();
    await page.screenshot({ path: '/tmp/shots/a11y-contacts.png' });
    expect(await axe(page)).toEqual([]);

    // The contact form: a state is picked from Brazil's UFs.
    await page.getByRole('button', { name: 'Novo contato' }).click();
    const state = page.getByRole('combobox', { name: 'Estado' });
    await state.click();
    await state.fill('paulo');
    await page.getByRole('option', { name: 'SP — São Paulo' }).click();
    await expect.poll(() => state.inputValue()).toBe('SP');
    await page.screenshot({ path: '/tmp/shots/a11y-contact-form.png' });
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('Escape');

    const english = await open(admin, '#/contatos', { language: 'en-us' });
    await english.getByText('Joana Prado').waitFor({ timeout: 20_000 });
    expect(await english.evaluate(() => document.documentElement.lang)).toBe('en-US');
  }, 120_000);
});
