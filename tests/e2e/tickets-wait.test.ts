/**
 * Wait time and SLA (issue U2 "what buyers check") in a real browser: the admin
 * sets a queue's SLA in its form, Pendentes lists the longest wait first with
 * "aguardando há …" coloured by the wait against the SLA and the row's
 * countdown, and a customer who writes later joins at the end of the line live.
 * Screenshots go to /tmp/shots/wait-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it, describe } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser, loggedInPage } from '../../core/src/testing/browser.ts';

const root = path.join(import.meta.dirname, '../..');
const built = fs.existsSync(path.join(root, 'ui-shell/dist/index.html'));
const run = chromiumAvailable() && built ? describe : describe.skip;

run('wait time and SLA on the ticket list', () => {
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
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
    expect(ch.statusCode).toBe(201);
    channelId = ch.json().id;
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/wait-failure-${i}.png` }).catch(() => undefined)));
    pages = [];
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function open(user: TestUser, hash: string): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(200);
    const { context, page } = await loggedInPage(browser, base, { session: res.json() });
    contexts.push(context);
    pages.push(page);
    page.on('pageerror', (e) => console.log(`[pageerror] ${e.stack}`));
    await page.goto(`${base}/${hash}`);
    return page;
  }
  const simulate = async (fromId: string, name: string, body: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: fromId, name }, body } });
    expect(res.statusCode).toBe(200);
  };
  const ticketOf = (name: string) => until(async () => (await t.sql.query<{ id: number }>(`SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.tenant_id = $1 AND c.name = $2`, [admin.tenantId, name])).rows[0]?.id, 10_000, name);

  it('the admin sets the SLA of a queue; Pendentes shows the longest wait first, coloured, with the countdown; a later customer joins at the end', async () => {
    const adminPage = await open(admin, '#/filas');
    await adminPage.getByRole('button', { name: 'Nova fila' }).first().click();
    const dialog = adminPage.getByRole('dialog');
    await dialog.getByLabel('Nome').fill('Financeiro');
    await dialog.getByTestId('queue-sla-first').fill('10');
    await dialog.getByTestId('queue-sla-resolution').fill('240');
    await adminPage.screenshot({ path: '/tmp/shots/wait-queue-form.png' });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const queue = await until(async () => (await t.sql.query<{ id: number; sla_first_response_minutes: number; sla_resolution_minutes: number }>(`SELECT id, sla_first_response_minutes, sla_resolution_minutes FROM queues WHERE tenant_id = $1 AND name = 'Financeiro'`, [admin.tenantId])).rows[0], 10_000, 'the queue');
    expect(queue).toMatchObject({ sla_first_response_minutes: 10, sla_resolution_minutes: 240 });
    await adminPage.getByText('10 / 240 min').waitFor();

    // Three customers who started waiting 2, 20 and 8 minutes ago (in the order they wrote last: not the wait's).
    const waits: Array<[string, string, number]> = [['5511988880001', 'Bruno Lima', 2], ['5511988880002', 'Carla Dias', 20], ['5511988880003', 'Davi Rocha', 8]];
    const ids: Record<string, number> = {};
    for (const [from, name, min] of waits) {
      await simulate(from, name, 'Olá');
      ids[name] = await ticketOf(name);
      await t.sql.query(`UPDATE tickets SET queue_id = $2, waiting_since = now() - make_interval(mins => $3) - interval '10 seconds' WHERE id = $1`, [ids[name], queue.id, min]);
    }
    await t.sql.query('UPDATE users SET queues = $2 WHERE id = $1', [agent.id, JSON.stringify([queue.id])]);

    const page = await open(agent, '#/atendimento');
    await page.getByTestId('tab-pending').click();
    const rows = page.getByTestId('ticket-row');
    await expect.poll(() => rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ticket-id'))))).toEqual([ids['Carla Dias'], ids['Davi Rocha'], ids['Bruno Lima']]);
    const row = (name: string) => page.locator(`[data-testid="ticket-row"][data-ticket-id="${ids[name]}"]`);
    await expect.poll(() => row('Carla Dias').getByTestId('wait-since').textContent()).toBe('aguardando há 20 min');
    expect(await row('Carla Dias').getByTestId('wait-info').getAttribute('data-level')).toBe('late');
    expect(await row('Carla Dias').getByTestId('sla-countdown').getAttribute('aria-label')).toBe('1ª resposta atrasada 10 min');
    expect(await row('Carla Dias').getByTestId('sla-countdown').textContent()).toBe('+10 min');
    expect(await row('Davi Rocha').getByTestId('wait-since').textContent()).toBe('aguardando há 8 min');
    expect(await row('Davi Rocha').getByTestId('wait-info').getAttribute('data-level')).toBe('warn');
    expect(await row('Bruno Lima').getByTestId('wait-info').getAttribute('data-level')).toBe('ok');
    expect(await row('Bruno Lima').getByTestId('sla-countdown').getAttribute('aria-label')).toBe('1ª resposta em 7 min');
    expect(await row('Bruno Lima').getByTestId('sla-countdown').textContent()).toBe('7 min');
    // The late wait is red, the fresh one green: colours a user tells apart.
    const colour = (name: string) => row(name).getByTestId('wait-since').evaluate((e) => getComputedStyle(e).color);
    expect(await colour('Carla Dias')).toBe('rgb(180, 35, 24)');
    expect(await colour('Bruno Lima')).toBe('rgb(27, 110, 53)');
    await page.screenshot({ path: '/tmp/shots/wait-pending.png' });

    // The customer who waited longest writes again: they keep their place at the top.
    await simulate('5511988880002', 'Carla Dias', 'Alguém aí?');
    await expect.poll(() => row('Carla Dias').textContent()).toContain('Alguém aí?');
    // A new customer, live: last in line, waiting less than a minute.
    await simulate('5511988880004', 'Eva Nunes', 'Bom dia');
    const eva = await ticketOf('Eva Nunes');
    // (The bot-less channel leaves it without a queue; the admin routes it to the agent's queue.)
    const routed = await t.app.inject({ method: 'PUT', url: `/api/tickets/${eva}`, headers: admin.headers, payload: { queueId: queue.id } });
    expect(routed.statusCode).toBe(200);
    await expect.poll(() => rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ticket-id'))))).toEqual([ids['Carla Dias'], ids['Davi Rocha'], ids['Bruno Lima'], eva]);
    const evaRow = page.locator(`[data-testid="ticket-row"][data-ticket-id="${eva}"]`);
    expect(await evaRow.getByTestId('wait-since').textContent()).toBe('aguardando há menos de 1 min');
    expect(await evaRow.getByTestId('wait-info').getAttribute('data-level')).toBe('ok');

    // The agent takes the oldest ticket and answers: the first-response clock stops, the resolution one shows.
    await row('Carla Dias').click();
    await page.getByTestId('action-start').click();
    await page.getByTestId('tab-open').waitFor();
    await page.getByTestId('composer').fill('Olá Carla, vou verificar.');
    await page.getByTestId('composer').press('Enter');
    await expect.poll(() => row('Carla Dias').getByTestId('sla-countdown').textContent(), { timeout: 15_000 }).toMatch(/^resolver em 3 h 3\d min$/);
    expect(await row('Carla Dias').getByTestId('wait-since').count()).toBe(0);
    await page.screenshot({ path: '/tmp/shots/wait-open.png' });
  }, 180_000);
});
