/**
 * Terms of use in a real browser (Debian Chromium through playwright-core)
 * against a real kernel serving ui-shell/dist, on an install whose terms are
 * not accepted yet: a tenant admin is stopped and told to wait; the
 * superadmin reads and accepts; the admin's page then goes on by itself.
 * Screenshots go to /tmp/shots/terms-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser } from '../../core/src/testing/browser.ts';

const distReady = fs.existsSync(path.join(import.meta.dirname, '../../ui-shell/dist/index.html'));
const run = chromiumAvailable() && distReady ? describe : describe.skip;

run('terms of use in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await createTestApp({ termsAccepted: false });
    base = await t.baseUrl();
    browser = await launchBrowser();
    fs.mkdirSync('/tmp/shots', { recursive: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** Logs in through the form, as a person would. */
  async function login(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 820 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${base}/#/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.hash.startsWith('#/login'), { timeout: 60_000 });
    return page;
  }

  it('stops everyone until the superadmin accepts; others wait and then go on', async () => {
    const admin = await t.loginAs('admin');
    const superadmin = await t.loginAs('superadmin');
    // The server's rule the screen mirrors.
    const refused = await t.app.inject({ method: 'GET', url: '/api/contacts', headers: admin.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_TERMS_NOT_ACCEPTED');

    // A tenant admin sees the terms and that only the superadmin can accept them: no accept button.
    const adminPage = await login(admin);
    const screen = adminPage.getByTestId('terms-screen');
    await screen.waitFor({ timeout: 60_000 });
    await expect.poll(() => screen.getByText('Aceite os termos de uso para continuar').count()).toBe(1);
    await expect.poll(() => adminPage.getByTestId('terms-wait').textContent()).toContain('Somente o superadmin pode aceitar os termos de uso; peça a ele para aceitá-los.');
    await expect.poll(() => adminPage.getByTestId('terms-text').textContent(), { timeout: 10_000 }).toContain('Lei Geral de Proteção de Dados');
    expect(await adminPage.getByTestId('terms-accept').count()).toBe(0);
    // Nothing behind it: the layout and its menu are not rendered.
    expect(await adminPage.getByRole('navigation').count()).toBe(0);
    // Checking again before acceptance says so.
    await adminPage.getByTestId('terms-recheck').click();
    await adminPage.getByText('Os termos de uso ainda não foram aceitos').first().waitFor({ timeout: 10_000 });
    await adminPage.screenshot({ path: '/tmp/shots/terms-waiting.png' });

    // The superadmin reads them; the button waits for the checkbox.
    const superPage = await login(superadmin);
    await superPage.getByTestId('terms-screen').waitFor({ timeout: 60_000 }).catch(async (e) => {
      await superPage.screenshot({ path: '/tmp/shots/terms-superadmin-failed.png' });
      throw e;
    });
    await expect.poll(() => superPage.getByTestId('terms-text').textContent(), { timeout: 10_000 }).toContain('Termos de uso do Atende');
    expect(await superPage.getByTestId('terms-wait').count()).toBe(0);
    const accept = superPage.getByTestId('terms-accept');
    expect(await accept.isDisabled()).toBe(true);
    await superPage.screenshot({ path: '/tmp/shots/terms-superadmin.png' });
    await superPage.getByLabel('Li e aceito os termos de uso').check();
    expect(await accept.isDisabled()).toBe(false);
    await accept.click();
    await superPage.getByText('Termos de uso aceitos').first().waitFor({ timeout: 10_000 });
    await expect.poll(() => superPage.getByTestId('terms-screen').count(), { timeout: 10_000 }).toBe(0);
    const stored = await t.sql.query('SELECT terms_accepted_at FROM tenants WHERE id = 1');
    expect(stored.rows[0].terms_accepted_at).not.toBeNull();

    // The admin's page goes on by itself (it re-checks every 15 s) into the main layout.
    await expect.poll(() => adminPage.getByTestId('terms-screen').count(), { timeout: 30_000 }).toBe(0);
    await adminPage.getByRole('navigation').first().waitFor({ timeout: 15_000 });
    const allowed = await t.app.inject({ method: 'GET', url: '/api/contacts', headers: admin.headers });
    expect(allowed.statusCode).toBe(200);
    await adminPage.screenshot({ path: '/tmp/shots/terms-after.png' });
  }, 300_000);
});
