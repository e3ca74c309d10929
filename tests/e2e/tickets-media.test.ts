/**
 * Media on the ticket screen as in WhatsApp Web (issue U2), in a real browser
 * (Debian Chromium through playwright-core) against a real kernel serving
 * ui-shell/dist: the preview with captions before sending (files chosen,
 * pasted, dropped), voice notes with waveform and speed, clickable links and
 * phone numbers, the emoji picker's search, "Encaminhada", and a reply the
 * provider refused shown with its reason and sent again. The customer is the
 * sandbox channel. Screenshots go to /tmp/shots/media-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { chromiumAvailable, launchBrowser, loggedInPage } from '../../core/src/testing/browser.ts';

const built = fs.existsSync(path.join(import.meta.dirname, '../../ui-shell/dist/index.html'));
const run = chromiumAvailable() && built ? describe : describe.skip;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** A spoken-like test recording: 1.6 s of a tone whose loudness rises and falls, 16-bit mono WAV. */
function voiceWav(): Buffer {
  const rate = 8000;
  const n = Math.floor(rate * 1.6);
  const data = Buffer.alloc(44 + n * 2);
  data.write('RIFF', 0);
  data.writeUInt32LE(36 + n * 2, 4);
  data.write('WAVEfmt ', 8);
  data.writeUInt32LE(16, 16);
  data.writeUInt16LE(1, 20);
  data.writeUInt16LE(1, 22);
  data.writeUInt32LE(rate, 24);
  data.writeUInt32LE(rate * 2, 28);
  data.writeUInt16LE(2, 32);
  data.writeUInt16LE(16, 34);
  data.write('data', 36);
  data.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const loud = Math.abs(Math.sin(t * 5)) * (0.3 + 0.7 * Math.abs(Math.sin(t * 1.3)));
    data.writeInt16LE(Math.round(Math.sin(2 * Math.PI * 220 * t) * loud * 30_000), 44 + i * 2);
  }
  return data;
}

run('ticket screen media', () => {
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
    if (ctx.task.result?.state === 'fail') await Promise.all(pages.map((p, i) => p.screenshot({ path: `/tmp/shots/media-failure-${i}.png` }).catch(() => undefined)));
    pages = [];
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  const simulate = async (fromId: string, name: string, body: string, media?: { data: Buffer; mimetype: string; name: string }) => {
    const res = await t.app.inject({
      method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers,
      payload: { from: { id: fromId, name, number: fromId }, body, ...(media ? { media: { data: media.data.toString('base64'), mimetype: media.mimetype, name: media.name } } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const outbox = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: admin.headers })).json() as { to: string; body: string; mediaName: string | null }[];
  const setRefusal = async (text: string | null) => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/channels/${channelId}`, headers: admin.headers, payload: { config: text ? { failWhenBodyContains: text } : {} } });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** The agent's browser on the customer's ticket, started, composer ready. */
  async function openTicket(fromId: string, name: string): Promise<Page> {
    const ticketId = await until(async () => (await t.sql.query<{ id: number }>(`SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.tenant_id = $1 AND c.name = $2`, [admin.tenantId, name])).rows[0]?.id, 10_000, 'the ticket');
    const start = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open', userId: agent.id } });
    expect(start.statusCode, start.body).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: agent.email, password: agent.password } });
    const { context, page } = await loggedInPage(browser, base, { session: res.json() });
    contexts.push(context);
    pages.push(page);
    page.on('pageerror', (e) => console.log(`[pageerror] ${e.stack}`));
    await page.goto(`${base}/#/atendimento/${ticketId}`);
    await page.getByTestId('composer').waitFor({ timeout: 20_000 });
    return page;
  }

  it('files chosen go through the preview, each with its caption; a pasted screenshot and dropped files open it too', async () => {
    await simulate('5511977770201', 'Bruna Lopes', 'Pode mandar o contrato e a foto do produto?');
    const page = await openTicket('5511977770201', 'Bruna Lopes');
    // The ticket opens with the composer focused, ready to answer.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('composer');

    await page.getByTestId('file-input').setInputFiles([
      { name: 'foto-produto.png', mimeType: 'image/png', buffer: PNG },
      { name: 'contrato.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    const tray = page.getByTestId('attachment-tray');
    await tray.waitFor();
    // Nothing leaves before the agent confirms.
    expect((await outbox()).filter((m) => m.to === '5511977770201')).toEqual([]);
    await expect.poll(() => page.getByTestId('tray-thumb').count()).toBe(2);
    await expect.poll(() => page.getByTestId('tray-file-name').textContent()).toBe('foto-produto.png');
    await page.getByTestId('tray-caption').fill('Foto do produto');
    await page.getByTestId('tray-thumb').nth(1).click();
    await expect.poll(() => page.getByTestId('tray-file-name').textContent()).toBe('contrato.pdf');
    await page.getByTestId('tray-caption').fill('Contrato para assinar');
    await page.screenshot({ path: '/tmp/shots/media-preview.png' });
    await page.getByTestId('tray-send').click();
    await tray.waitFor({ state: 'hidden' });
    const sent = await until(async () => {
      const mine = (await outbox()).filter((m) => m.to === '5511977770201');
      return mine.length === 2 ? mine : undefined;
    }, 15_000, 'both files in the outbox');
    expect(sent.map((m) => [m.mediaName, m.body]).sort()).toEqual([['contrato.pdf', '*Ana Atendente*:\nContrato para assinar'], ['foto-produto.png', '*Ana Atendente*:\nFoto do produto']]);
    await page.getByTestId('message').filter({ hasText: 'Contrato para assinar' }).waitFor();

    // A screenshot pasted into the composer: the preview, named after the moment; discarded, nothing is sent.
    await page.getByTestId('composer').focus();
    await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 360;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#e7f5ff';
      g.fillRect(0, 0, 640, 360);
      g.fillStyle = '#1c7ed6';
      g.font = 'bold 36px sans-serif';
      g.fillText('Pedido #4521 — enviado', 40, 180);
      const blob = await new Promise<Blob>((r) => canvas.toBlob((b) => r(b!), 'image/png'));
      const dt = new DataTransfer();
      dt.items.add(new File([blob], 'image.png', { type: 'image/png' }));
      document.querySelector('[data-testid="composer"]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await tray.waitFor();
    await expect.poll(() => page.getByTestId('tray-file-name').textContent()).toMatch(/^captura-\d{4}-\d{2}-\d{2}-\d{6}\.png$/);
    await page.getByTestId('tray-image').waitFor();
    await page.screenshot({ path: '/tmp/shots/media-paste.png' });
    await page.keyboard.press('Escape');
    await tray.waitFor({ state: 'hidden' });

    // Files dragged over the conversation: the drop zone, then the preview with what was dropped.
    const drop = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['%PDF-1.4\n%%EOF\n'], 'boleto.pdf', { type: 'application/pdf' }));
      return dt;
    });
    const conversation = page.getByTestId('conversation');
    await conversation.dispatchEvent('dragenter', { dataTransfer: drop });
    await page.getByTestId('drop-zone').waitFor();
    await conversation.dispatchEvent('drop', { dataTransfer: drop });
    await page.getByTestId('drop-zone').waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('tray-file-name').textContent()).toBe('boleto.pdf');
    // A file the server would refuse says so in the preview and is left out.
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(17 * 1024 * 1024)], 'video-grande.mp4', { type: 'video/mp4' }));
      document.querySelector('[data-testid="conversation"]')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => page.getByTestId('tray-thumb').count()).toBe(2);
    await page.getByTestId('tray-thumb').nth(1).click();
    await page.getByTestId('tray-problem').getByText('Maior que 16 MB: não pode ser enviado').waitFor();
    await page.getByTestId('tray-send').click();
    await until(async () => (await outbox()).find((m) => m.mediaName === 'boleto.pdf'), 15_000, 'the dropped file in the outbox');
    expect((await outbox()).find((m) => m.mediaName === 'video-grande.mp4')).toBeUndefined();
  }, 120_000);

  it('links and phone numbers are clickable; a voice note plays with its waveform at 1.5× and 2×; emoji search inserts one', async () => {
    await simulate('5511977770202', 'Caio Nunes', 'Segue o link https://loja.exemplo.com.br/pedido/4521. Ou ligue (11) 98888-7777, pedido 2024-11-26.');
    await simulate('5511977770202', 'Caio Nunes', '', { data: voiceWav(), mimetype: 'audio/wav', name: 'audio.wav' });
    const page = await openTicket('5511977770202', 'Caio Nunes');
    // The header shows the number as people write it.
    await expect.poll(() => page.getByTestId('conversation').getByText('+55 (11) 97777-0202').count()).toBeGreaterThan(0);

    const bubble = page.getByTestId('message').filter({ hasText: 'Segue o link' });
    const link = bubble.getByTestId('message-url');
    expect(await link.getAttribute('href')).toBe('https://loja.exemplo.com.br/pedido/4521');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.textContent()).toBe('https://loja.exemplo.com.br/pedido/4521');
    // The date is not taken for a phone number.
    expect(await bubble.getByTestId('message-phone').count()).toBe(1);
    await bubble.getByTestId('message-phone').click();
    const call = page.getByRole('menuitem', { name: 'Ligar' });
    await call.waitFor();
    expect(await call.getAttribute('href')).toBe('tel:+5511988887777');
    await page.getByText('+55 (11) 98888-7777').waitFor();
    await page.keyboard.press('Escape');

    const voice = page.getByTestId('voice-note');
    await voice.waitFor();
    // The waveform is the recording's: bars of different heights once decoded.
    await voice.getByTestId('voice-wave').and(page.locator('[data-ready]')).waitFor({ timeout: 15_000 });
    const heights = await voice.locator('[data-testid="voice-wave"] span').evaluateAll((bars) => bars.map((b) => (b as HTMLElement).style.height));
    expect(new Set(heights).size).toBeGreaterThan(5);
    await expect.poll(() => voice.getByTestId('voice-time').textContent()).toBe('0:01');
    await voice.getByTestId('voice-speed').click();
    await expect.poll(() => voice.getByTestId('voice-speed').textContent()).toBe('1,5×');
    expect(await voice.locator('audio').evaluate((a) => (a as HTMLAudioElement).playbackRate)).toBe(1.5);
    await voice.getByTestId('voice-speed').click();
    await expect.poll(() => voice.getByTestId('voice-speed').textContent()).toBe('2×');
    await voice.getByTestId('voice-play').click();
    await expect.poll(() => voice.locator('audio').evaluate((a) => (a as HTMLAudioElement).currentTime), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await voice.locator('audio').evaluate((a) => (a as HTMLAudioElement).playbackRate)).toBe(2);
    await page.screenshot({ path: '/tmp/shots/media-links-voice.png' });

    // The full picker, searched in Portuguese.
    await page.getByRole('button', { name: 'Emoji' }).click();
    const picker = page.locator('emoji-picker');
    await picker.locator('input[type="search"]').fill('coração', { timeout: 20_000 });
    const first = picker.locator('#search-results button.emoji').first();
    await first.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: '/tmp/shots/media-emoji.png' });
    const chosen = (await first.textContent())!.trim();
    await first.click();
    await expect.poll(() => page.getByTestId('composer').inputValue()).toBe(chosen);
    expect(chosen).toMatch(/\p{Extended_Pictographic}/u);
  }, 120_000);

  it('a forwarded message says "Encaminhada"; a reply the provider refused shows why and is sent again', async () => {
    await simulate('5511977770203', 'Davi Rocha', 'Preciso do boleto');
    const page = await openTicket('5511977770203', 'Davi Rocha');
    await page.getByTestId('message').filter({ hasText: 'Preciso do boleto' }).waitFor();

    // From another conversation, a message forwarded to this contact.
    await simulate('5511977770204', 'Elis Prado', 'O boleto vence dia 10');
    const source = await until(async () => (await t.sql.query<{ id: string }>(`SELECT m.id FROM messages m JOIN contacts c ON c.id = m.contact_id WHERE c.name = 'Elis Prado' AND m.body = 'O boleto vence dia 10'`)).rows[0]?.id, 10_000, 'the source message');
    const contact = (await t.sql.query<{ id: number }>(`SELECT id FROM contacts WHERE tenant_id = $1 AND name = 'Davi Rocha'`, [admin.tenantId])).rows[0]!.id;
    const fwd = await t.app.inject({ method: 'POST', url: '/api/forward-messages', headers: agent.headers, payload: { messages: [String(source)], contact } });
    expect(fwd.statusCode, fwd.body).toBe(200);
    await page.getByTestId('message').filter({ hasText: 'O boleto vence dia 10' }).getByTestId('message-forwarded').getByText('Encaminhada').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('message').filter({ hasText: 'Preciso do boleto' }).getByTestId('message-forwarded').count()).toBe(0);

    await setRefusal('PROMOÇÃO');
    const composer = page.getByTestId('composer');
    await composer.fill('PROMOÇÃO: 10% de desconto hoje');
    await composer.press('Enter');
    const failed = page.getByTestId('message').filter({ hasText: 'PROMOÇÃO: 10%' });
    await failed.getByTestId('message-failed').getByText('Não enviada: O provedor simulado recusou a mensagem').waitFor({ timeout: 45_000 });
    await page.screenshot({ path: '/tmp/shots/media-refused.png' });
    await setRefusal(null);
    await failed.getByTestId('message-retry').click();
    await expect.poll(() => failed.locator('[data-ack]').getAttribute('data-ack'), { timeout: 45_000 }).toBe('sent');
    expect(await failed.getByTestId('message-failed').count()).toBe(0);
    expect((await outbox()).filter((m) => m.body.includes('PROMOÇÃO: 10%'))).toHaveLength(1);
    // One bubble: the retried message is the same one.
    expect(await page.getByTestId('message').filter({ hasText: 'PROMOÇÃO: 10%' }).count()).toBe(1);
  }, 120_000);
});
