/**
 * "A customer is waiting" (issue U2) in a real browser (Debian Chromium through
 * playwright-core) against a real kernel serving ui-shell/dist and the
 * private-chat remote: sounds, desktop notifications, the count in the tab
 * title, on the favicon and on the rail, and the internal chat's toast.
 * The page's Audio and Notification are stubbed (headless Chromium has neither
 * speakers nor a notification centre) and record what the shell asked of them.
 * The customer is the sandbox channel. Screenshots go to /tmp/shots/attention-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser, loggedInPage } from '../../core/src/testing/browser.ts';

const root = path.join(import.meta.dirname, '../..');
const built = fs.existsSync(path.join(root, 'ui-shell/dist/index.html')) && fs.existsSync(path.join(root, 'ui-plugins/private-chat/dist/mf-manifest.json'));
const run = chromiumAvailable() && built ? describe : describe.skip;

/** Stands in for the browser's Audio and Notification, recording each use in `window.__alerts`. */
function stubAlerts() {
  type Recorded = { sounds: string[]; notes: Array<{ title: string; body?: string; tag?: string }>; last?: { onclick: (() => void) | null } };
  const w = window as unknown as { __alerts: Recorded; Audio: unknown; Notification: unknown };
  w.__alerts = { sounds: [], notes: [] };
  w.Audio = class {
    src: string;
    volume = 1;
    constructor(src: string) {
      this.src = src;
    }
    play() {
      w.__alerts.sounds.push(this.src);
      return Promise.resolve();
    }
  };
  class FakeNotification {
    static permission: NotificationPermission = 'default';
    static async requestPermission() {
      FakeNotification.permission = 'granted';
      return 'granted' as const;
    }
    onclick: (() => void) | null = null;
    constructor(title: string, opts: { body?: string; tag?: string } = {}) {
      w.__alerts.notes.push({ title, body: opts.body, tag: opts.tag });
      w.__alerts.last = this;
    }
    close() {}
  }
  w.Notification = FakeNotification;
}

run('a customer is waiting: sounds, notifications, counts', () => {
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
    await t.sql.query('UPDATE users SET name = $2 WHERE id = $1', [admin.id, 'Carlos Gestor']);
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
    expect(ch.statusCode).toBe(201);
    channelId = ch.json().id;
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/attention-failure-${i}.png` }).catch(() => undefined)));
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
    await context.addInitScript(stubAlerts);
    await page.goto(`${base}/${hash}`);
    await page.getByTestId('tab-pending').waitFor({ timeout: 20_000 });
    return page;
  }
  const simulate = async (fromId: string, name: string, body: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: fromId, name }, body } });
    expect(res.statusCode).toBe(200);
  };
  const alerts = (page: Page) => page.evaluate(() => (window as unknown as { __alerts: { sounds: string[]; notes: Array<{ title: string; body?: string; tag?: string }> } }).__alerts);
  /** The agent switches to another window: the page stays visible but loses the focus. */
  const leave = (page: Page) => page.evaluate(() => {
    document.hasFocus = () => false;
  });
  const come_back = (page: Page) => page.evaluate(() => {
    document.hasFocus = () => true;
  });

  it('a new customer rings, notifies in the background, counts in the title, favicon and rail; a click opens the ticket', async () => {
    const page = await open(agent);
    // The browser is asked only when the agent says so, from the offer above the list.
    expect((await alerts(page)).notes).toEqual([]);
    await page.getByTestId('notifications-banner').waitFor();
    expect(await page.evaluate(() => (window as unknown as { Notification: { permission: string } }).Notification.permission)).toBe('default');
    await page.screenshot({ path: '/tmp/shots/attention-banner.png' });
    await page.getByTestId('notifications-enable').click();
    await page.getByTestId('notifications-banner').waitFor({ state: 'hidden' });
    // The choice is kept with the user.
    await expect.poll(async () => (await t.sql.query<{ configs: Record<string, unknown> }>('SELECT configs FROM users WHERE id = $1', [agent.id])).rows[0]!.configs.desktopNotifications).toBe(true);

    await leave(page);
    await simulate('5511977770101', 'Maria Clara', 'Olá, preciso de ajuda com meu pedido');
    await expect.poll(async () => (await alerts(page)).sounds.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await alerts(page)).notes).toEqual([{ title: 'Novo atendimento: Maria Clara', body: 'Olá, preciso de ajuda com meu pedido', tag: expect.stringMatching(/^ticket-\d+$/) }]);
    // One sound for the new ticket, not a second one for its first message.
    expect((await alerts(page)).sounds[0]).toMatch(/^blob:/);

    // The count of tickets waiting with unread messages: tab title, favicon and the rail's ticket entry.
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('(1) Atende');
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href.slice(0, 22))).toBe('data:image/png;base64,');
    expect(await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.dataset.count)).toBe('1');
    await expect.poll(() => page.getByTestId('rail-badge-tickets').textContent()).toBe('1');

    // A second customer: the count follows.
    await simulate('5511977770102', 'João Pedro', 'Bom dia!');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('(2) Atende');
    await expect.poll(async () => (await alerts(page)).notes.length).toBe(2);
    await page.screenshot({ path: '/tmp/shots/attention-counts.png' });

    // Clicking the notification brings the agent to that ticket.
    await page.evaluate(() => (window as unknown as { __alerts: { last: { onclick: () => void } } }).__alerts.last.onclick());
    await page.waitForURL(/#\/atendimento\/\d+$/);
    await expect.poll(() => page.getByTestId('chat-name').textContent()).toBe('João Pedro');
  }, 120_000);

  it('a message in the agent\'s own ticket rings; muted from the user menu it does not; the choice is saved', async () => {
    await simulate('5511977770103', 'Rita Souza', 'Oi');
    const ticketId = await until(async () => (await t.sql.query<{ id: number }>(`SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.tenant_id = $1 AND c.name = 'Rita Souza'`, [admin.tenantId])).rows[0]?.id, 10_000, 'the ticket');
    const taken = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open', userId: agent.id } });
    expect(taken.statusCode, taken.body).toBe(200);
    const page = await open(agent);
    await come_back(page);
    await simulate('5511977770103', 'Rita Souza', 'Ainda está aí?');
    await expect.poll(async () => (await alerts(page)).sounds.length, { timeout: 15_000 }).toBe(1);
    // Watched, the page does not also raise a desktop notification.
    expect((await alerts(page)).notes).toEqual([]);

    await page.getByRole('button', { name: 'Menu do usuário' }).click();
    await page.getByTestId('menu-sounds').click();
    await expect.poll(() => page.getByTestId('menu-sounds').getAttribute('aria-pressed')).toBe('false');
    await page.screenshot({ path: '/tmp/shots/attention-user-menu.png' });
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await t.sql.query<{ configs: Record<string, unknown> }>('SELECT configs FROM users WHERE id = $1', [agent.id])).rows[0]!.configs.sounds).toBe(false);
    await simulate('5511977770103', 'Rita Souza', 'Alô?');
    await page.getByTestId('ticket-row').filter({ hasText: 'Alô?' }).waitFor({ timeout: 15_000 });
    expect((await alerts(page)).sounds.length).toBe(1);

    // Still muted after a reload (kept with the user, not in this tab).
    await page.reload();
    await page.getByTestId('tab-pending').waitFor({ timeout: 20_000 });
    await simulate('5511977770103', 'Rita Souza', 'Vou aguardar');
    await page.getByTestId('ticket-row').filter({ hasText: 'Vou aguardar' }).waitFor({ timeout: 15_000 });
    expect((await alerts(page)).sounds).toEqual([]);
    const unmute = await t.app.inject({ method: 'PUT', url: `/api/users/${agent.id}/configs`, headers: agent.headers, payload: { sounds: true } });
    expect(unmute.statusCode).toBe(200);
  }, 120_000);

  it('an internal message anywhere: a toast that opens the chat, a sound and the rail badge', async () => {
    // Away from the ticket screen and the chat: the contacts screen.
    const page = await open(agent);
    await page.goto(`${base}/#/contatos`);
    await page.getByRole('navigation').first().waitFor({ timeout: 20_000 });
    const sent = await t.app.inject({ method: 'POST', url: `/api/plugins/private-chat/users/${agent.id}/messages`, headers: admin.headers, payload: { body: 'Pode cobrir o balcão às 14h?' } });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    // The first one may arrive before the remote has loaded: it still counts on the badge.
    // With the rail's labels shown, the badge reads "1 aguardando" to screen readers and shows "1".
    const chatBadge = async () => (await page.getByTestId('rail-badge-chat').textContent())?.split(' ')[0];
    await expect.poll(chatBadge, { timeout: 30_000 }).toBe('1');
    const again = await t.app.inject({ method: 'POST', url: `/api/plugins/private-chat/users/${agent.id}/messages`, headers: admin.headers, payload: { body: 'É rapidinho, obrigado!' } });
    expect(again.statusCode).toBeLessThan(300);
    const toast = page.getByTestId('private-chat-toast').filter({ hasText: 'É rapidinho, obrigado!' });
    await toast.waitFor({ timeout: 15_000 });
    expect(await toast.textContent()).toContain('Carlos Gestor');
    await expect.poll(chatBadge).toBe('2');
    await expect.poll(async () => (await alerts(page)).sounds.length).toBeGreaterThan(0);
    await page.screenshot({ path: '/tmp/shots/attention-chat-toast.png' });
    await toast.click();
    await page.waitForURL(/#\/chat-privado/);
  }, 120_000);
});
