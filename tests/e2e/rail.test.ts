/**
 * [K4] item 5, "no menu leads to a 404": on a fresh install with every
 * plugin, an admin and a superadmin click each entry of their rail and never
 * meet the not-found page (nor an access-denied page or a screen that failed
 * to load); a superadmin, whose landing page (`/assinatura`) no plugin
 * provides yet, lands on the first screen the rail offers instead
 * (ui-shell/src/router.tsx, notFoundLoader). Screenshots of failures go to
 * /tmp/shots/rail-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const run = chromiumAvailable() && fs.existsSync(path.join(REPO, 'ui-shell/dist/index.html')) ? describe : describe.skip;

/** What a user must never reach from the rail. */
const BROKEN = ['Página não encontrada', 'Acesso negado', 'Algo deu errado', 'Não foi possível carregar esta tela', /O módulo ".*" não pôde ser carregado/];

run('every rail entry opens a screen', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const pages: Page[] = [];

  beforeAll(async () => {
    fs.mkdirSync('/tmp/shots', { recursive: true });
    t = await createTestApp();
    base = await t.baseUrl();
    browser = await launchBrowser();
  }, 120_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/rail-failure-${i}.png` }).catch(() => undefined)));
    pages.length = 0;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function login(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 820 } });
    const page = await context.newPage();
    pages.push(page);
    page.on('pageerror', (e) => console.log(`[pageerror ${user.profile}] ${e.stack}`));
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 30_000 });
    return page;
  }

  const rail = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });

  /**
   * The rail once the user's remotes are in: a path nothing declares shows the
   * not-found page only after the router has waited for every remote, so after
   * it the rail lists their entries too.
   */
  async function railEntries(page: Page, home: string): Promise<Array<{ label: string; path: string }>> {
    await page.goto(`${base}/#/caminho-que-nao-existe`);
    await page.getByText('Página não encontrada').waitFor({ timeout: 60_000 });
    await page.goto(`${base}/#${home}`);
    await rail(page).getByRole('link').first().waitFor({ timeout: 30_000 });
    // The link's name is its visible label (plus a badge while something waits there); its address is what it opens.
    const links = await rail(page).getByRole('link').evaluateAll((els) => els.map((a) => ({ label: a.getAttribute('aria-label') || (a.textContent ?? '').trim(), href: a.getAttribute('href') ?? '' })));
    return links.map((l) => ({ label: l.label, path: l.href.replace(/^#/, '') }));
  }

  /** The screen the page shows is a real one: some heading is up, and none of them says the page is missing, denied or broken. */
  async function expectScreen(page: Page, where: string) {
    await page.getByRole('heading').first().waitFor({ timeout: 30_000 });
    for (const text of BROKEN) expect(await page.getByText(text).count(), `${where}: ${text}`).toBe(0);
  }

  async function clickEveryEntry(page: Page, home: string, homeHeading: string) {
    const entries = await railEntries(page, home);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      await page.goto(`${base}/#${home}`);
      const start = page.getByRole('heading', { name: homeHeading, exact: true });
      await start.waitFor({ timeout: 30_000 });
      await rail(page).locator(`a[href="#${entry.path}"]`).click();
      await page.waitForURL((u) => u.hash === `#${entry.path}` || u.hash.startsWith(`#${entry.path}/`), { timeout: 30_000 });
      // The new screen has replaced the one the click started from (react-router keeps the old one up while the new one loads).
      if (entry.path !== home) await start.waitFor({ state: 'detached', timeout: 30_000 });
      await expectScreen(page, `${entry.label} (${entry.path})`);
    }
    return entries;
  }

  it('an admin’s rail leads to no 404', async () => {
    const admin = await t.loginAs('admin');
    const page = await login(admin);
    const entries = await clickEveryEntry(page, '/contatos', 'Contatos');
    expect(entries.map((e) => e.path)).toEqual(expect.arrayContaining(['/home', '/atendimento', '/contatos', '/usuarios', '/configuracoes']));
  }, 300_000);

  it('a superadmin lands on the first screen the rail offers while /assinatura is not installed, and their rail leads to no 404', async () => {
    const root = await t.loginAs('superadmin');
    const page = await login(root);
    // The login goes to the profile's landing page (core.md §2: superadmin → /assinatura).
    await page.waitForURL((u) => u.hash !== '#/' && u.hash !== '#/login', { timeout: 30_000 });
    await expectScreen(page, `landing ${new URL(page.url()).hash}`);
    const landed = new URL(page.url()).hash.replace(/^#/, '');
    const entries = await railEntries(page, '/sessoestenants');
    if (landed !== '/assinatura') expect(landed).toBe(entries[0]!.path);
    await clickEveryEntry(page, '/sessoestenants', 'Canais das empresas');
  }, 300_000);
});
