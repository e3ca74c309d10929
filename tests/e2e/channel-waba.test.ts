/**
 * The WhatsApp Business API (Cloud API) channel in a real browser: an admin
 * fills the WABA fields of the channel dialog on /sessoes (the channel-waba
 * remote), saves a wrong token and sees "Dados WABA incorretos" with what to
 * check, fixes the token in the same form (blank fields keep what is saved),
 * watches the channel connect, then copies the callback URL and the verify
 * token from the connect panel — and Meta's verification handshake against
 * exactly those succeeds. Templates synced from the account show in the
 * panel and sync again on request. Screenshots: /tmp/shots/waba-*.png.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { launchBrowser } from '../../core/src/testing/browser.ts';
import { FakeGraphApi } from '../../plugins/channel-waba/src/fake-graph-api.ts';

const SHOTS = '/tmp/shots';

describe('WABA channel screens in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let admin: TestUser;
  let api: FakeGraphApi;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    api = await FakeGraphApi.start();
    for (const name of ['boas_vindas', 'pedido_enviado', 'lembrete_pagamento']) api.addTemplate({ name });
    api.addTemplate({ name: 'promo_natal', status: 'REJECTED', category: 'MARKETING' });
    t = await createTestApp();
    base = await t.baseUrl();
    browser = await launchBrowser();
    admin = await t.loginAs('admin');
    // The Graph base URL is a tenant setting here, so the form shows only what an admin fills for Meta.
    await t.sql.query(`INSERT INTO tenant_plugins (tenant_id, plugin_id, enabled, config) VALUES ($1, 'channel-waba', true, $2) ON CONFLICT (tenant_id, plugin_id) DO UPDATE SET config = EXCLUDED.config`, [admin.tenantId, JSON.stringify({ graphBaseUrl: api.url })]);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await api?.close();
  });

  async function open(user: TestUser, hash: string): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode, res.body).toBe(200);
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 900 } });
    contexts.push(context);
    context.setDefaultTimeout(20_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await context.addInitScript((s) => window.localStorage.setItem('session', s), JSON.stringify(res.json()));
    const page = await context.newPage();
    await page.goto(`${base}/${hash}`);
    return page;
  }

  it('creates a WABA channel, shows "Dados WABA incorretos" for a refused token, connects once fixed, and gives Meta a working callback URL and verify token', async () => {
    const page = await open(admin, '#/sessoes');
    // The first load compiles nothing but fetches the shell and every remote: generous on a shared machine.
    await page.getByTestId('channels-page').waitFor({ timeout: 60_000 });
    try {
      await page.getByTestId('channel-new').click();
      await page.getByTestId('channel-type-waba').click();
      await page.getByTestId('channel-name').fill('WhatsApp Oficial Loja');
      await page.getByTestId('channel-tab-connection').click();
      const form = page.getByTestId('waba-form');
      // The remote loads in the background after the shell starts; on a loaded machine that can take a while.
      await form.waitFor({ timeout: 60_000 });
      // Inline checks before anything reaches the server.
      await page.getByTestId('waba-phone-number-id').fill('12ab');
      await expect.poll(() => form.getByText('Use somente dígitos (5 a 30)').count()).toBe(1);
      await page.getByTestId('waba-phone-number-id').fill(api.phoneNumberId);
      await page.getByTestId('waba-business-account-id').fill(api.businessAccountId);
      await page.getByTestId('waba-access-token').fill('EAAG-token-que-a-meta-recusa');
      await page.getByTestId('waba-app-secret').fill(api.appSecret);
      await page.screenshot({ path: `${SHOTS}/waba-form.png` });
      await page.getByTestId('channel-save').click();

      // A new WABA channel goes straight to its connect panel; Graph refuses the token.
      const panel = page.getByTestId('waba-connect');
      await panel.waitFor();
      await expect.poll(() => page.getByTestId('channel-last-error').textContent(), { timeout: 25_000 }).toMatch(/^Dados WABA incorretos/);
      await expect.poll(() => page.getByTestId('channel-last-error').textContent()).toContain('confira os IDs, o token e as permissões do app no Business Manager');
      await page.screenshot({ path: `${SHOTS}/waba-wrong-data.png` });
      await page.keyboard.press('Escape');

      // Fix only the token: the saved app secret shows as "Salvo" and is kept by leaving it blank.
      const cardEl = page.getByTestId('channel-card').filter({ hasText: 'WhatsApp Oficial Loja' });
      await cardEl.getByTestId('channel-edit').click();
      await page.getByTestId('channel-tab-connection').click();
      await expect.poll(() => page.getByTestId('waba-secret-saved').count()).toBe(2);
      expect(await page.getByTestId('waba-app-secret').inputValue()).toBe('');
      await page.getByTestId('waba-access-token').fill(api.token);
      await page.getByTestId('channel-save').click();
      // The refused channel stays off until the admin connects it again (the kernel does not retry a permanent refusal).
      await cardEl.getByTestId('channel-connect').click();
      await expect.poll(() => cardEl.getAttribute('data-status'), { timeout: 25_000 }).toBe('connected');
      await expect.poll(() => cardEl.getByTestId('channel-number-label').textContent()).toBe('551140001234');

      // The connect panel: callback URL and verify token as Meta needs them, templates synced from the account.
      // Connecting from the card opens the connect panel.
      await panel.waitFor();
      const callbackUrl = (await page.getByTestId('waba-callback-url').textContent())!;
      const verifyToken = (await page.getByTestId('waba-verify-token-value').textContent())!;
      const id = (await t.sql.query(`SELECT id FROM channels WHERE name = 'WhatsApp Oficial Loja'`)).rows[0].id;
      expect(callbackUrl).toBe(`${base}/api/plugins/channel-waba/webhook/${id}`);
      expect(verifyToken.length).toBeGreaterThanOrEqual(24);
      await expect.poll(() => page.getByTestId('waba-templates-summary').textContent(), { timeout: 20_000 }).toMatch(/^4 modelos \(3 aprovados\), sincronizados em/);
      await panel.getByRole('button', { name: 'Copiar: URL de retorno' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(callbackUrl);
      await page.screenshot({ path: `${SHOTS}/waba-connect.png` });

      // What Meta does with them: the handshake echoes the challenge.
      const handshake = await api.verify(callbackUrl, verifyToken);
      expect(handshake).toMatchObject({ status: 200, body: handshake.challenge });

      // A template created in the WhatsApp Manager appears after "Sincronizar modelos".
      api.addTemplate({ name: 'pesquisa_satisfacao' });
      await page.getByTestId('waba-sync-templates').click();
      await expect.poll(() => page.getByText('5 modelos sincronizados').count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByTestId('waba-templates-summary').textContent()).toMatch(/^5 modelos \(4 aprovados\)/);
    } catch (err) {
      await page.screenshot({ path: `${SHOTS}/waba-failure.png` }).catch(() => undefined);
      throw err;
    }
  }, 240_000);
});
