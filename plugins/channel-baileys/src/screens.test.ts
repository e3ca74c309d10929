/**
 * The Baileys channel in a real browser, on /sessoes with the
 * channel-baileys remote: an admin creates a channel, sees the QR code with
 * WhatsApp's steps, watches it refresh as WhatsApp rotates it, and sees the
 * panel turn to "WhatsApp conectado" once the phone scans it; a second
 * channel links with a pairing code shown in big characters. Screenshots:
 * /tmp/shots/baileys-*.png.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, launchBrowser, type TestApp, type TestUser } from '@atende/core/testing';
import { FakeWhatsApp } from './fake-whatsapp.ts';
import { baileysOptions } from './index.ts';

const SHOTS = '/tmp/shots';

describe('Baileys channel screens in the browser', () => {
  let t: TestApp;
  let wa: FakeWhatsApp;
  let browser: Browser;
  let admin: TestUser;
  let base: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    wa = await FakeWhatsApp.start();
    // WhatsApp rotates the QR code every ~20 s; faster here so the test sees it change.
    wa.qrIntervalMs = 2500;
    wa.qrPerRound = 40;
    Object.assign(baileysOptions, { makeSocket: wa.makeWASocket });
    t = await createTestApp({ plugins: ['channel-baileys'] });
    base = await t.baseUrl();
    browser = await launchBrowser();
    admin = await t.loginAs('admin');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await wa?.close();
  });

  async function open(user: TestUser, hash: string): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode, res.body).toBe(200);
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport: { width: 1366, height: 900 } });
    contexts.push(context);
    // A shared 2-core machine under load: generous waits, the assertions stay exact.
    context.setDefaultTimeout(45_000);
    await context.addInitScript((s) => window.localStorage.setItem('session', s), JSON.stringify(res.json()));
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && console.log('browser:', m.text()));
    await page.goto(`${base}/${hash}`);
    return page;
  }

  async function newChannel(page: Page, name: string, fill: () => Promise<void>) {
    await page.getByTestId('channel-new').and(page.locator(':enabled')).waitFor({ timeout: 90_000 });
    await page.getByTestId('channel-new').click();
    await page.getByTestId('channel-type-baileys').click();
    await page.getByTestId('channel-name').fill(name);
    await page.getByTestId('channel-tab-connection').click();
    await page.getByTestId('baileys-form').waitFor();
    await fill();
    await page.getByTestId('channel-save').click();
  }

  it('links a phone by QR code: the code shows with the steps, refreshes live, and turns into "WhatsApp conectado" once scanned', async () => {
    const page = await open(admin, '#/sessoes');
    try {
      await newChannel(page, 'WhatsApp Loja', async () => {
        await page.getByTestId('baileys-method-qrcode').click();
        await page.screenshot({ path: `${SHOTS}/baileys-form.png` });
      });
      const panel = page.getByTestId('baileys-connect');
      await panel.waitFor();
      const qr = page.getByTestId('baileys-qr');
      await qr.waitFor();
      await expect.poll(() => panel.textContent()).toContain('Toque em Conectar um aparelho.');
      expect(await panel.textContent()).toContain('Aparelhos conectados');
      const first = await qr.getAttribute('data-qr');
      expect(first).toMatch(/^2@/);
      const box = await qr.boundingBox();
      expect(box!.width).toBeGreaterThanOrEqual(260);
      await page.screenshot({ path: `${SHOTS}/baileys-qr.png` });
      // WhatsApp rotates the code: the panel follows without a reload.
      await expect.poll(() => qr.getAttribute('data-qr'), { timeout: 15_000 }).not.toBe(first);
      wa.scan();
      await page.getByTestId('baileys-connected').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('baileys-connected').textContent()).toContain(`Conectado como +${wa.phone.number}`);
      await page.screenshot({ path: `${SHOTS}/baileys-connected.png` });
    } catch (err) {
      await page.screenshot({ path: `${SHOTS}/baileys-failure.png` }).catch(() => undefined);
      throw err;
    }
  }, 240_000);

  it('links a second phone with a pairing code shown in big characters', async () => {
    const page = await open(admin, '#/sessoes');
    try {
      await newChannel(page, 'WhatsApp Código', async () => {
        await page.getByTestId('baileys-method-pairing').click();
        await page.getByTestId('baileys-number').fill('12');
        await expect.poll(() => page.getByTestId('baileys-form').textContent()).toContain('Informe DDI + DDD + número, só dígitos (8 a 20)');
        await page.getByTestId('baileys-number').fill('5511988887777');
      });
      const panel = page.getByTestId('baileys-connect');
      await panel.waitFor();
      await page.getByTestId('baileys-pairing-number').waitFor();
      expect(await page.getByTestId('baileys-pairing-number').inputValue()).toBe('5511988887777');
      await page.getByTestId('baileys-ask-code').click();
      const code = page.getByTestId('baileys-pairing-code');
      await code.waitFor({ timeout: 20_000 });
      const shown = (await code.textContent())!.trim();
      expect(shown).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(await panel.textContent()).toContain('Toque em Conectar com número de telefone.');
      await page.screenshot({ path: `${SHOTS}/baileys-pairing-code.png` });
      wa.enterPairingCode(shown.replace('-', ''));
      await page.getByTestId('baileys-connected').waitFor({ timeout: 20_000 });
    } catch (err) {
      await page.screenshot({ path: `${SHOTS}/baileys-failure.png` }).catch(() => undefined);
      throw err;
    }
  }, 240_000);
});
