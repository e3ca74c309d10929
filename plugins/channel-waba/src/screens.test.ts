/**
 * The WABA template picker in a real browser, on the ticket screen with the
 * channel-waba remote: an agent opens a ticket whose customer last wrote
 * three days ago, reads that WhatsApp's 24-hour window is closed, opens the
 * picker from the notice, searches, fills the template's variables, sends,
 * and sees the message in the conversation go to "read" — while the local
 * Graph API received the template. Screenshots: /tmp/shots/waba-template-*.png.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, launchBrowser, until, type TestApp, type TestUser } from '@atende/core/testing';
import { FakeGraphApi } from './fake-graph-api.ts';

const SHOTS = '/tmp/shots';
const customer = '5511987651234';

describe('WABA template picker in the browser', () => {
  let t: TestApp;
  let api: FakeGraphApi;
  let browser: Browser;
  let agent: TestUser;
  let base: string;
  let callback: string;
  let ticketId: number;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    api = await FakeGraphApi.start();
    api.addTemplate({ name: 'boas_vindas', category: 'MARKETING', components: [{ type: 'HEADER', format: 'TEXT', text: 'Bem-vindo à Loja Exemplo' }, { type: 'BODY', text: 'Oi! Obrigado por falar com a gente. Como podemos ajudar hoje?' }] });
    api.addTemplate({ name: 'codigo_verificacao', category: 'AUTHENTICATION', components: [{ type: 'BODY', text: '{{1}} é o seu código de verificação. Não o compartilhe.' }] });
    api.addTemplate({
      name: 'pedido_enviado',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido a caminho' },
        { type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} saiu para entrega e chega amanhã.', example: { body_text: [['Maria', '1234']] } },
        { type: 'FOOTER', text: 'Loja Exemplo' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Falar com atendente' }] },
      ],
    });
    api.addTemplate({ name: 'retomar_contato', category: 'MARKETING', components: [{ type: 'BODY', text: 'Oi {{1}}, ainda podemos ajudar com a sua solicitação?' }] });
    api.addTemplate({ name: 'pedido_enviado', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }] });

    t = await createTestApp({ plugins: ['channel-waba'] });
    base = await t.baseUrl();
    const admin = await t.loginAs('admin');
    agent = await t.loginAs('user', admin.tenantId, { email: 'ana.agente@example.com' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/channels',
      headers: admin.headers,
      payload: { type: 'waba', name: 'WhatsApp oficial', secrets: { accessToken: api.token, appSecret: api.appSecret }, config: { phoneNumberId: api.phoneNumberId, businessAccountId: api.businessAccountId, graphBaseUrl: api.url, healthIntervalMs: 60_000 } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const channelId = res.json().id as number;
    await until(async () => (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${channelId}/templates?status=all`, headers: admin.headers })).json().templates?.length === api.templates.length);
    callback = `${base}/api/plugins/channel-waba/webhook/${channelId}`;
    // The customer's last message is three days old: outside WhatsApp's 24-hour window.
    const threeDaysAgo = String(Math.floor((Date.now() - 3 * 24 * 3600_000) / 1000));
    const inbound = api.inboundMessage({ from: customer, name: 'Maria Oliveira', raw: { type: 'text', text: { body: 'Oi, meu pedido ainda não chegou' }, timestamp: threeDaysAgo } });
    expect((await api.deliver(callback, inbound)).status).toBe(200);
    ticketId = (await t.sql.query('SELECT ticket_id FROM messages WHERE channel_id = $1 ORDER BY id LIMIT 1', [channelId])).rows[0].ticket_id;
    const assign = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: admin.headers, payload: { status: 'open', userId: agent.id } });
    expect(assign.statusCode, assign.body).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await api?.close();
  });

  async function open(user: TestUser, hash: string, viewport = { width: 1366, height: 860 }): Promise<Page> {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
    expect(res.statusCode, res.body).toBe(200);
    const context = await browser.newContext({ baseURL: base, locale: 'pt-BR', viewport });
    contexts.push(context);
    // A shared 2-core machine under load: generous waits, the assertions stay exact.
    context.setDefaultTimeout(45_000);
    await context.addInitScript((s) => window.localStorage.setItem('session', s), JSON.stringify(res.json()));
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && console.log('browser:', m.text()));
    await page.goto(`${base}/${hash}`);
    return page;
  }

  it('an agent sends a template from the ticket: window notice, picker with preview, message in the conversation, received by Graph', async () => {
    const page = await open(agent, `#/atendimento/${ticketId}`);
    try {
      const notice = page.getByTestId('waba-window-closed');
      await notice.waitFor({ timeout: 90_000 });
      await expect.poll(() => notice.innerText()).toMatch(/Janela de 24 horas encerrada[\s\S]*O cliente escreveu pela última vez há 3 dias/);
      await page.screenshot({ path: `${SHOTS}/waba-template-window.png` });

      // The composer's "Modelo" button opens the picker: approved templates only, each with its language and category.
      await page.getByRole('button', { name: 'Modelo', exact: true }).click();
      const picker = page.getByRole('dialog');
      await picker.getByTestId('waba-template-option').first().waitFor();
      expect(await picker.getByTestId('waba-template-option').count()).toBe(5);
      await expect.poll(() => picker.getByTestId('waba-template-preview').innerText()).toContain('Bem-vindo à Loja Exemplo');
      await page.screenshot({ path: `${SHOTS}/waba-template-list.png` });
      await picker.getByRole('button', { name: 'Cancelar' }).click();
      await picker.waitFor({ state: 'hidden' });

      // The notice's button opens it too; the search narrows the list.
      await page.getByTestId('waba-window-pick').click();
      await picker.getByTestId('waba-template-option').first().waitFor();
      await picker.getByTestId('waba-template-search').fill('pedido');
      await expect.poll(() => picker.getByTestId('waba-template-option').count()).toBe(2);
      await picker.getByTestId('waba-template-option').filter({ hasText: 'pt_BR' }).click();
      const preview = picker.getByTestId('waba-template-preview');
      await expect.poll(() => preview.innerText()).toContain('Olá {{1}}, seu pedido {{2}} saiu para entrega');
      // Send waits until every variable is filled.
      expect(await picker.getByTestId('waba-template-send').isDisabled()).toBe(true);
      const inputs = picker.getByTestId('waba-template-variable');
      expect(await inputs.count()).toBe(2);
      await inputs.nth(0).fill('Maria');
      await inputs.nth(1).fill('4521');
      await expect.poll(() => preview.innerText()).toContain('Olá Maria, seu pedido 4521 saiu para entrega e chega amanhã.');
      await page.screenshot({ path: `${SHOTS}/waba-template-picker.png` });
      await picker.getByTestId('waba-template-send').click();
      await picker.waitFor({ state: 'hidden' });

      // The conversation shows what the customer got; the Graph API got the template with the values.
      const bubble = page.getByTestId('message').filter({ hasText: 'Olá Maria, seu pedido 4521 saiu para entrega e chega amanhã.' });
      await bubble.waitFor();
      const sent = await until(async () => api.sent.find((s) => s.type === 'template'));
      expect(sent.to).toBe(customer);
      expect(sent.template).toEqual({ name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }, { type: 'text', text: '4521' }] }] });
      // Meta's read receipt turns the ticks blue.
      expect((await api.deliver(callback, api.statusUpdate(sent.providerId, 'read', customer))).status).toBe(200);
      await bubble.locator('[data-ack="read"]').waitFor();
      await page.screenshot({ path: `${SHOTS}/waba-template-sent.png` });
    } finally {
      await page.context().close();
    }
  }, 240_000);

  it('on a phone the picker takes the whole screen, list above the preview', async () => {
    const page = await open(agent, `#/atendimento/${ticketId}`, { width: 390, height: 844 });
    try {
      await page.getByTestId('waba-window-pick').click({ timeout: 90_000 });
      const picker = page.getByRole('dialog');
      await picker.getByTestId('waba-template-option').first().waitFor();
      await picker.getByTestId('waba-template-option').filter({ hasText: 'retomar_contato' }).click();
      await picker.getByTestId('waba-template-variable').fill('Maria');
      await expect.poll(() => picker.getByTestId('waba-template-preview').innerText()).toContain('Oi Maria, ainda podemos ajudar');
      const box = (await picker.boundingBox())!;
      expect(box.width).toBe(390);
      await page.screenshot({ path: `${SHOTS}/waba-template-mobile.png` });
    } finally {
      await page.context().close();
    }
  }, 240_000);
});
