/**
 * Agent tools in a real browser (Debian Chromium through playwright-core)
 * against a real kernel serving ui-shell/dist and the kanban, notes and
 * protocols remotes: the Kanban board followed live by a second browser, the
 * owner rule, and finding a ticket by its protocol. Screenshots go to
 * /tmp/shots/tools-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { CHROMIUM, chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const root = path.join(import.meta.dirname, '../..');
const built = (p: string) => fs.existsSync(path.join(root, p));
const ready = built('ui-shell/dist/index.html') && ['kanban', 'notes', 'protocols'].every((id) => built(`ui-plugins/${id}/dist/mf-manifest.json`));
const run = chromiumAvailable() && ready ? describe : describe.skip;

run('agent tools in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let snapshot: string | undefined;

  /**
   * The built shell and remotes are copied into a private root first: other
   * builds of ui-shell/dist in the same checkout would otherwise swap its
   * hashed assets under the running pages.
   */
  function snapshotRoot(): string {
    // Inside the checkout (ignored by git) so the plugins still resolve the workspace's packages.
    fs.mkdirSync(path.join(root, '.atende-test'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(root, '.atende-test', 'tools-e2e-'));
    fs.symlinkSync(path.join(root, 'plugins'), path.join(dir, 'plugins'));
    fs.cpSync(path.join(root, 'ui-shell/dist'), path.join(dir, 'ui-shell/dist'), { recursive: true });
    for (const id of fs.readdirSync(path.join(root, 'ui-plugins'))) {
      const dist = path.join(root, 'ui-plugins', id, 'dist');
      if (fs.existsSync(dist)) fs.cpSync(dist, path.join(dir, 'ui-plugins', id, 'dist'), { recursive: true });
    }
    return dir;
  }

  beforeAll(async () => {
    snapshot = snapshotRoot();
    t = await createTestApp({ config: { rootDir: snapshot } });
    base = await t.baseUrl();
    fs.mkdirSync('/tmp/shots', { recursive: true });
    browser = await launchBrowser().catch(() =>
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] }),
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (snapshot) fs.rmSync(snapshot, { recursive: true, force: true });
  });

  async function login(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1440, height: 860 } });
    const page = await context.newPage();
    if (process.env.DEBUG_E2E) page.on('console', (m) => console.log('[browser]', m.type(), m.text().slice(0, 300)));
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 15_000 });
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots/tools-${name}.png` });
  const post = async (who: TestUser, url: string, payload: object) => {
    const r = await t.app.inject({ method: 'POST', url, headers: who.headers, payload });
    if (r.statusCode >= 300) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };

  /** Drags like a person: press, move in steps past dnd-kit's activation distance, release over the target. */
  async function drag(page: Page, from: ReturnType<Page['locator']>, to: ReturnType<Page['locator']>) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + 20);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 12, a.y + 30, { steps: 4 });
    await page.mouse.move(b.x + b.width / 2, b.y + 120, { steps: 12 });
    await page.mouse.up();
  }

  it('a card dragged to another lane in browser A moves in browser B without a reload', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    for (const name of ['Novo lead', 'Negociação', 'Fechado']) await post(admin, '/api/plugins/kanban/lanes', { name });
    const vip = await post(admin, '/api/tags', { name: 'VIP', color: '#9333ea' });
    const people = [['Ana Souza', '5511987650001'], ['Bruno Lima', '5521987650002'], ['Carla Dias', '5531987650003'], ['Daniel Rocha', '5541987650004'], ['Elisa Prado', '5551987650005']];
    for (const [name, number] of people) await post(admin, '/api/contacts', { name, number, tags: name === 'Ana Souza' ? [vip.id] : [] });
    const ch = await post(admin, '/api/channels', { type: 'sandbox', name: 'WhatsApp Vendas' });
    const bruno = (await t.sql.query(`SELECT id FROM contacts WHERE tenant_id = $1 AND name = 'Bruno Lima'`, [admin.tenantId])).rows[0].id;
    await post(admin, '/api/tickets', { contactId: bruno, channelId: ch.id, status: 'open', userId: agent.id });

    const a = await login(admin);
    const b = await login(agent);
    for (const p of [a, b]) await p.goto(`${base}/#/kanban`);
    for (const p of [a, b]) await p.getByRole('region', { name: /^Negociação/ }).waitFor({ timeout: 15_000 });
    await a.waitForURL((u) => u.hash.startsWith('#/kanban/kanbans'));

    const laneA = a.getByRole('region', { name: /^Negociação/ });
    const laneB = b.getByRole('region', { name: /^Negociação/ });
    const unassignedB = b.getByRole('region', { name: /^Sem lane/ });
    expect(await laneB.getByLabel('Ana Souza', { exact: true }).count()).toBe(0);
    expect(await unassignedB.getByLabel('Ana Souza', { exact: true }).count()).toBe(1);
    await shot(a, 'kanban-board');

    await drag(a, a.getByRole('region', { name: /^Sem lane/ }).getByLabel('Ana Souza', { exact: true }), laneA);
    await laneA.getByLabel('Ana Souza', { exact: true }).waitFor({ timeout: 10_000 });
    // Browser B follows live: the card leaves "Sem lane" and lands in Negociação, counts included.
    await laneB.getByLabel('Ana Souza', { exact: true }).waitFor({ timeout: 10_000 });
    await expect.poll(() => unassignedB.getByLabel('Ana Souza', { exact: true }).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => laneB.getAttribute('aria-label')).toBe('Negociação (1)');
    await expect.poll(() => unassignedB.getAttribute('aria-label')).toBe('Sem lane (4)');
    const stored = await t.sql.query(
      `SELECT k.name FROM contacts c JOIN kanban_contact_lanes l ON l.contact_id = c.id JOIN kanban_lanes k ON k.id = l.lane_id WHERE c.tenant_id = $1 AND c.name = 'Ana Souza'`,
      [admin.tenantId],
    );
    expect(stored.rows[0].name).toBe('Negociação');
    await shot(b, 'kanban-live-b');

    // The tags view groups the same cards by tag.
    // The board's view switch, not the menu's "Etiquetas" entry (the tags admin page).
    await b.getByRole('radiogroup').getByText('Etiquetas', { exact: true }).click();
    await b.getByRole('region', { name: /^VIP/ }).getByLabel('Ana Souza', { exact: true }).waitFor({ timeout: 10_000 });
    await shot(b, 'kanban-tags');
    await a.context().close();
    await b.context().close();
  }, 120_000);

  it('a non-admin is not offered the owner change and the server refuses it; an admin assigns it', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const contact = await post(admin, '/api/contacts', { name: 'Fernanda Alves', number: '5511987650099' });

    const b = await login(agent);
    await b.goto(`${base}/#/kanban/kanbans`);
    const card = b.getByRole('region', { name: /^Sem lane/ }).getByLabel('Fernanda Alves');
    await card.waitFor({ timeout: 15_000 });
    expect(await b.getByRole('button', { name: 'Ações de Fernanda Alves' }).count()).toBe(0);
    const refused = await b.evaluate(async (id) => {
      const token = localStorage.getItem('token') ?? JSON.parse(localStorage.getItem('atende.session') ?? '{}').token;
      const r = await fetch(`/api/plugins/kanban/cards/${id}/owner`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ userId: null }) });
      return { status: r.status, body: await r.json() };
    }, contact.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');

    const a = await login(admin);
    await a.goto(`${base}/#/kanban/kanbans`);
    await a.getByRole('button', { name: 'Ações de Fernanda Alves' }).click();
    await a.getByRole('menuitem', { name: 'Atribuir responsável' }).click();
    const dialog = a.getByRole('dialog');
    await dialog.getByLabel('Responsável', { exact: true }).first().click();
    await a.getByRole('option').filter({ hasText: /^user / }).first().click();
    await shot(a, 'kanban-owner');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await a.getByText('Responsável atualizado').first().waitFor({ timeout: 10_000 });
    // The agent's board shows the new owner live.
    await b.getByRole('region', { name: /^Sem lane/ }).getByLabel(/^Responsável: user /).first().waitFor({ timeout: 10_000 });
    const wallets = await t.sql.query('SELECT user_id FROM contact_wallets WHERE contact_id = $1', [contact.id]);
    expect(wallets.rows.map((r) => r.user_id)).toEqual([agent.id]);
    await a.context().close();
    await b.context().close();
  }, 120_000);

  it('the lanes page adds a lane and refuses an empty name inline', async () => {
    const admin = await t.loginAs('admin');
    const page = await login(admin);
    await page.goto(`${base}/#/lanes`);
    await page.getByRole('heading', { name: 'Lanes' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Adicionar lane' }).click();
    await page.getByText('O campo nome é obrigatório').waitFor();
    for (const name of ['Qualificação', 'Proposta enviada']) {
      await page.getByRole('textbox', { name: 'Nova lane' }).fill(name);
      await page.getByRole('button', { name: 'Adicionar lane' }).click();
      await page.getByRole('list', { name: 'Lanes' }).getByText(name).waitFor({ timeout: 10_000 });
    }
    await shot(page, 'lanes');
    const lanes = await t.sql.query('SELECT name, position FROM kanban_lanes WHERE tenant_id = $1 ORDER BY position', [admin.tenantId]);
    expect(lanes.rows).toEqual([{ name: 'Qualificação', position: 0 }, { name: 'Proposta enviada', position: 1 }]);
    await page.context().close();
  }, 90_000);

  it('a supervisor searches a protocol, finds its ticket, and reads the ticket\'s notes in /notas', async () => {
    const admin = await t.loginAs('admin');
    const sup = await t.loginAs('super', admin.tenantId);
    const ch = await post(admin, '/api/channels', { type: 'sandbox', name: 'WhatsApp Suporte' });
    const made: { id: number; protocol: string; name: string }[] = [];
    for (const [name, number] of [['Gustavo Reis', '5511987650101'], ['Helena Matos', '5511987650102'], ['Igor Nunes', '5511987650103']]) {
      const c = await post(admin, '/api/contacts', { name, number });
      const tk = await post(admin, '/api/tickets', { contactId: c.id, channelId: ch.id, status: 'open' });
      made.push({ id: tk.id, protocol: tk.protocol, name });
    }
    const target = made[1]!;
    await post(admin, `/api/messages/${target.id}`, { body: 'Cliente pediu reembolso do pedido 4471', isNote: true });

    const page = await login(sup);
    await page.goto(`${base}/#/protocolos`);
    await page.getByRole('heading', { name: 'Protocolos' }).waitFor({ timeout: 15_000 });
    const table = page.getByRole('table', { name: 'Protocolos' });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(4);
    await page.getByRole('textbox', { name: 'Buscar' }).fill(target.protocol);
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    const row = table.getByRole('row').nth(1);
    expect(await row.innerText()).toContain(target.protocol);
    expect(await row.innerText()).toContain('Helena Matos');
    await page.getByText('1 protocolos').waitFor();
    await shot(page, 'protocols');
    await row.getByRole('button', { name: `Abrir o atendimento do protocolo ${target.protocol}` }).click();
    await page.waitForURL((u) => u.hash.startsWith(`#/atendimento/${target.id}`), { timeout: 10_000 });

    await page.goto(`${base}/#/notas`);
    await page.getByRole('heading', { name: 'Notas' }).waitFor({ timeout: 15_000 });
    await page.getByRole('textbox', { name: 'Buscar' }).fill('reembolso');
    const note = page.getByRole('article', { name: 'Nota sobre Helena Matos' });
    await note.waitFor({ timeout: 10_000 });
    expect(await note.innerText()).toContain(`Protocolo ${target.protocol}`);
    await shot(page, 'notes');
    await page.context().close();
  }, 120_000);
});
