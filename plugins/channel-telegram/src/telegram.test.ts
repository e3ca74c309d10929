import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '@atende/core/testing';
import { FakeBotApi } from './fake-bot-api.ts';
import { SECRET_HEADER, secretMatches } from './index.ts';

let t: TestApp;
let admin: TestUser;
let api: FakeBotApi;
let baseUrl: string;

const create = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload });
const channelRow = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/channels/${id}`, headers: admin.headers })).json();
const counts = async () => (await t.sql.query(`SELECT (SELECT count(*) FROM messages)::int AS m, (SELECT count(*) FROM contacts)::int AS c, (SELECT count(*) FROM tickets)::int AS t`)).rows[0];

beforeAll(async () => {
  api = await FakeBotApi.start();
  t = await createTestApp({ plugins: ['channel-telegram'] });
  admin = await t.loginAs('admin');
  baseUrl = await t.baseUrl();
});
afterAll(async () => {
  await t?.close();
  await api?.close();
});

describe('telegram channel settings', () => {
  it('refuses a channel without a token with the catalogue message', async () => {
    const res = await create({ type: 'telegram', name: 'Sem token', config: { apiRoot: api.url } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_TELEGRAM_TOKEN', message: 'O canal Telegram precisa de um token' });
  });

  it('refuses webhook mode without a public address', async () => {
    const res = await create({ type: 'telegram', name: 'Webhook sem URL', secrets: { token: api.token }, config: { apiRoot: api.url, mode: 'webhook' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
  });

  it('a token the Bot API refuses leaves the channel disconnected with a clear error, and it does not retry by itself', async () => {
    const res = await create({ type: 'telegram', name: 'Token ruim', secrets: { token: '123456:AAwrongwrongwrongwrongwrongwrong' }, config: { apiRoot: api.url, mode: 'polling' } });
    expect(res.statusCode).toBe(201);
    const row = await until(async () => {
      const r = await channelRow(res.json().id);
      return r.status === 'disconnected' && r.lastError ? r : undefined;
    });
    expect(row.lastError).toMatch(/recusou o token/);
    const s = await t.sql.query('SELECT wanted FROM channel_sessions WHERE channel_id = $1', [row.id]);
    expect(s.rows[0].wanted).toBe(false);
    expect(JSON.stringify(row)).not.toContain('AAwrongwrong');
  });
});

describe('telegram webhook mode', () => {
  let channelId: number;
  let secret: string;
  const post = (update: unknown, token?: string) =>
    t.app.inject({ method: 'POST', url: `/api/plugins/channel-telegram/webhook/${channelId}`, headers: { 'content-type': 'application/json', ...(token !== undefined ? { [SECRET_HEADER]: token } : {}) }, payload: JSON.stringify(update) });

  beforeAll(async () => {
    const res = await create({ type: 'telegram', name: 'Bot webhook', secrets: { token: api.token }, config: { apiRoot: api.url, mode: 'webhook', webhookBaseUrl: baseUrl, healthIntervalMs: 60_000 } });
    expect(res.statusCode).toBe(201);
    channelId = res.json().id;
    await until(async () => (await channelRow(channelId)).status === 'connected');
    secret = (await t.sql.query('SELECT secrets FROM channels WHERE id = $1', [channelId])).rows[0].secrets.webhookSecret;
  });

  it('registers the webhook with the secret token, uses no polling, and shows the bot handle as number', async () => {
    expect(api.webhook?.url).toBe(`${baseUrl}/api/plugins/channel-telegram/webhook/${channelId}`);
    expect(api.webhook?.secretToken).toBe(secret);
    expect(api.calls.get('getUpdates') ?? 0).toBe(0);
    expect((await channelRow(channelId)).number).toBe('@atende_teste_bot');
  });

  it('a missing or wrong secret token is a 401 and writes nothing', async () => {
    const before = await counts();
    const update = { update_id: 1, message: { message_id: 1, date: 1, chat: { id: 42, type: 'private', first_name: 'X' }, from: { id: 42, first_name: 'X' }, text: 'intruso' } };
    for (const token of [undefined, '', 'errado', `${secret}x`, secret.slice(0, -1)]) {
      const res = await post(update, token);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('ERR_WEBHOOK_SIGNATURE');
    }
    expect(await counts()).toEqual(before);
  });

  it('the same update replayed stores one message; a button press arrives as the chosen value', async () => {
    const update = { update_id: 77, message: { message_id: 9, date: Math.floor(Date.now() / 1000), chat: { id: 555001, type: 'private', first_name: 'Rita' }, from: { id: 555001, first_name: 'Rita' }, text: 'oi de novo' } };
    const answers = await Promise.all([post(update, secret), post(update, secret), post(update, secret)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const m = await t.sql.query(`SELECT provider_id FROM messages WHERE body = 'oi de novo'`);
    expect(m.rows).toEqual([{ provider_id: '555001:9' }]);
    await api.buttonPress({ id: '555001', name: 'Rita' }, 'sim');
    const press = await until(async () => (await t.sql.query(`SELECT m.body, m.ticket_id FROM messages m WHERE m.provider_id LIKE 'cb:%'`)).rows[0]);
    expect(press.body).toBe('sim');
    expect(api.calls.get('answerCallbackQuery')).toBe(1);
  });

  it("a signed reply shows the agent's name in bold, the WhatsApp-style markers turned into Telegram entities", async () => {
    const ticket = (await t.sql.query(`SELECT ticket_id FROM messages WHERE body = 'oi de novo'`)).rows[0].ticket_id as number;
    const r = await t.app.inject({ method: 'POST', url: `/api/messages/${ticket}`, headers: admin.headers, payload: { body: 'Seu pedido _saiu para entrega_, total *R$ 12,50*.', signMessage: true } });
    expect(r.statusCode).toBe(201);
    const name = (await t.sql.query('SELECT name FROM users WHERE id = $1', [admin.id])).rows[0].name as string;
    const sent = await until(async () => api.sent.find((x) => x.chatId === '555001' && x.text?.startsWith(`${name}:`)));
    expect(sent.text).toBe(`${name}:\nSeu pedido saiu para entrega, total R$ 12,50.`);
    const marked = sent.entities!.map((e) => [e.type, sent.text!.slice(e.offset, e.offset + e.length)]);
    expect(marked).toEqual([['bold', name], ['italic', 'saiu para entrega'], ['bold', 'R$ 12,50']]);
  });

  it('documents and voice notes are downloaded into the media store with their types', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const ogg = Buffer.from('OggS-fake-voice-note');
    await api.customerMessage('doc-1', { id: '555002', name: 'Davi' }, { text: 'segue o contrato', media: { kind: 'document', name: 'contrato.pdf', mimetype: 'application/pdf', data: pdf } });
    await api.customerMessage('voice-1', { id: '555002', name: 'Davi' }, { media: { kind: 'audio', name: 'nota.ogg', mimetype: 'audio/ogg', data: ogg } });
    const rows = await until(async () => {
      const q = await t.sql.query(`SELECT type, media_name, media_type, media_url FROM messages m JOIN contact_identities i ON i.contact_id = m.contact_id AND i.kind = 'telegram' AND i.external_id = '555002' WHERE m.media_url IS NOT NULL ORDER BY m.id`);
      return q.rows.length === 2 ? q.rows : undefined;
    });
    expect(rows.map((r) => [r.type, r.media_type])).toEqual([['application', 'application/pdf'], ['audio', 'audio/ogg']]);
    expect(rows[0].media_name).toBe('contrato.pdf');
    const served = await t.app.inject({ method: 'GET', url: t.app.kernel.storage.clientUrl(rows[1].media_url, admin.tenantId)! });
    expect(Buffer.compare(served.rawPayload, ogg)).toBe(0);
  });

  it('group messages become one group ticket with the participant recorded', async () => {
    await api.customerMessage('g1', { id: '700001', name: 'Ana Grupo' }, { text: 'mensagem no grupo' }, { id: '-100900', title: 'Equipe Vendas' });
    const row = await until(async () => (await t.sql.query(`SELECT t.is_group, c.name, c.is_group AS contact_group, m.data->>'participant' AS participant FROM messages m JOIN tickets t ON t.id = m.ticket_id JOIN contacts c ON c.id = t.contact_id WHERE m.body = 'mensagem no grupo'`)).rows[0]);
    expect(row).toEqual({ is_group: true, name: 'Equipe Vendas', contact_group: true, participant: 'Ana Grupo' });
  });

  it('an admin disconnect makes the webhook refuse updates (Telegram keeps and retries them) until connected again', async () => {
    await t.app.inject({ method: 'POST', url: `/api/channels/${channelId}/disconnect`, headers: admin.headers });
    const update = { update_id: 78, message: { message_id: 10, date: 1, chat: { id: 555001, type: 'private' }, from: { id: 555001, first_name: 'Rita' }, text: 'durante a pausa' } };
    const res = await post(update, secret);
    expect(res.statusCode).toBe(409);
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM messages WHERE body = 'durante a pausa'`)).rows[0].n).toBe(0);
    await t.app.inject({ method: 'POST', url: `/api/channels/${channelId}/connect`, headers: admin.headers });
    await until(async () => (await channelRow(channelId)).status === 'connected');
    expect((await post(update, secret)).statusCode).toBe(200);
  });

  it('deleting the channel removes the webhook at Telegram', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/channels/${channelId}`, headers: admin.headers });
    expect(res.statusCode).toBe(204);
    expect(api.webhook).toBeUndefined();
  });
});

describe('secret token comparison', () => {
  it('compares in constant time over digests and refuses absent values', () => {
    expect(secretMatches('abc', 'abc')).toBe(true);
    expect(secretMatches('abc', 'abd')).toBe(false);
    expect(secretMatches('abc', 'abcd')).toBe(false);
    expect(secretMatches('abc', undefined)).toBe(false);
    expect(secretMatches(undefined, 'abc')).toBe(false);
    expect(secretMatches('abc', ['abc'])).toBe(false);
  });
});
