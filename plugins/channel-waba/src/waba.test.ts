import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelError } from '@atende/core/sdk';
import { createTestApp, until, type TestApp, type TestUser } from '@atende/core/testing';
import { FakeGraphApi } from './fake-graph-api.ts';
import { GraphError, toChannelError } from './graph.ts';
import { buildPayloads, waMediaType } from './outbound.ts';
import { signWebhook } from './webhook.ts';

let t: TestApp;
let admin: TestUser;
let api: FakeGraphApi;
let baseUrl: string;

const create = (payload: Record<string, unknown>, as = admin) => t.app.inject({ method: 'POST', url: '/api/channels', headers: as.headers, payload });
const channelRow = async (id: number, as = admin) => (await t.app.inject({ method: 'GET', url: `/api/channels/${id}`, headers: as.headers })).json();
const counts = async () => (await t.sql.query(`SELECT (SELECT count(*) FROM messages)::int AS m, (SELECT count(*) FROM contacts)::int AS c, (SELECT count(*) FROM tickets)::int AS t`)).rows[0];
const wabaInput = (over: { config?: Record<string, unknown>; secrets?: Record<string, string> } = {}) => ({
  type: 'waba',
  name: 'WhatsApp oficial',
  secrets: { accessToken: api.token, appSecret: api.appSecret, ...over.secrets },
  config: { phoneNumberId: api.phoneNumberId, businessAccountId: api.businessAccountId, graphBaseUrl: api.url, healthIntervalMs: 60_000, ...over.config },
});
const messagesOf = async (channelId: number, where = 'true', params: unknown[] = []) =>
  (await t.sql.query(`SELECT id::text, ticket_id, body, type, status, failure_reason, data, media_url, media_type, quoted_id, from_me FROM messages WHERE channel_id = $1 AND ${where} ORDER BY id`, [channelId, ...params])).rows;

beforeAll(async () => {
  api = await FakeGraphApi.start();
  t = await createTestApp({ plugins: ['channel-waba'] });
  admin = await t.loginAs('admin');
  baseUrl = await t.baseUrl();
});
afterAll(async () => {
  await t?.close();
  await api?.close();
});

describe('WABA channel settings (administration.md §3, §5)', () => {
  it('refuses missing ids, token or app secret with "Dados WABA incorretos" and names the field', async () => {
    for (const [field, input] of [
      ['phoneNumberId', wabaInput({ config: { phoneNumberId: '' } })],
      ['businessAccountId', wabaInput({ config: { businessAccountId: 'abc' } })],
      ['apiVersion', wabaInput({ config: { apiVersion: '21' } })],
      ['accessToken', { ...wabaInput(), secrets: { appSecret: api.appSecret } }],
      ['appSecret', { ...wabaInput(), secrets: { accessToken: api.token } }],
    ] as const) {
      const res = await create(input as Record<string, unknown>);
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toMatchObject({ error: 'ERR_WABA_INVALID', message: 'Dados WABA incorretos', field });
    }
  });

  it('a token Graph refuses leaves the channel disconnected with "Dados WABA incorretos", and it stops retrying', async () => {
    const res = await create(wabaInput({ secrets: { accessToken: 'EAAGtoken-errado-0000000000' } }));
    expect(res.statusCode).toBe(201);
    const row = await until(async () => {
      const r = await channelRow(res.json().id);
      return r.status === 'disconnected' && r.lastError ? r : undefined;
    });
    expect(row.lastError).toMatch(/^Dados WABA incorretos/);
    expect(row.lastError).toMatch(/Business Manager/);
    expect((await t.sql.query('SELECT wanted FROM channel_sessions WHERE channel_id = $1', [row.id])).rows[0].wanted).toBe(false);
    expect(JSON.stringify(row)).not.toContain('token-errado');
  });

  it('a phone number id that is not the account\'s is "Dados WABA incorretos" too', async () => {
    const res = await create(wabaInput({ config: { phoneNumberId: '123456789012345' } }));
    const row = await until(async () => {
      const r = await channelRow(res.json().id);
      return r.status === 'disconnected' && r.lastError ? r : undefined;
    });
    expect(row.lastError).toMatch(/^Dados WABA incorretos: .*does not exist/);
  });

  it('connects with the number as digits, generates a verify token, keeps secrets write-only and the token on a blank edit', async () => {
    const res = await create(wabaInput());
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    const row = await until(async () => {
      const r = await channelRow(id);
      return r.status === 'connected' ? r : undefined;
    });
    expect(row.number).toBe('551140001234');
    expect(row.config).toMatchObject({ phoneNumberId: api.phoneNumberId, businessAccountId: api.businessAccountId, apiVersion: 'v21.0' });
    expect(row.config.verifyToken).toMatch(/^[\w-]{24,}$/);
    expect(row.secretsSet).toEqual(['accessToken', 'appSecret']);
    expect(JSON.stringify(row)).not.toContain(api.token);
    expect(JSON.stringify(row)).not.toContain(api.appSecret);
    // What the channel form sends: the whole config it loaded, the verify token blanked, the write-only fields untouched (absent or blank).
    const edit = await t.app.inject({ method: 'PUT', url: `/api/channels/${id}`, headers: admin.headers, payload: { config: { ...row.config, verifyToken: '' }, secrets: {} } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().config.verifyToken).toBe(row.config.verifyToken);
    expect(edit.json().secretsSet).toEqual(['accessToken', 'appSecret']);
    const blank = await t.app.inject({ method: 'PUT', url: `/api/channels/${id}`, headers: admin.headers, payload: { config: { ...row.config, readReceipts: false }, secrets: { accessToken: '', appSecret: '' } } });
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json()).toMatchObject({ config: { verifyToken: row.config.verifyToken, readReceipts: false }, secretsSet: ['accessToken', 'appSecret'] });
    // A required id the admin cleared is cleared, so the save is refused instead of quietly keeping the old one.
    const cleared = await t.app.inject({ method: 'PUT', url: `/api/channels/${id}`, headers: admin.headers, payload: { config: { ...row.config, businessAccountId: '' } } });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json()).toMatchObject({ error: 'ERR_WABA_INVALID', field: 'businessAccountId' });
    const info = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${id}/webhook`, headers: admin.headers })).json();
    expect(info).toEqual({ path: `/api/plugins/channel-waba/webhook/${id}`, callbackUrl: null, verifyToken: row.config.verifyToken });
    await t.app.inject({ method: 'DELETE', url: `/api/channels/${id}`, headers: admin.headers });
  });
});

describe('WABA webhook, templates and messages', () => {
  let channelId: number;
  let verifyToken: string;
  let callback: string;
  const customer = '5511987650001';

  beforeAll(async () => {
    for (let i = 0; i < 130; i++) api.addTemplate({ name: `modelo_${String(i).padStart(3, '0')}`, status: i % 10 === 9 ? 'REJECTED' : 'APPROVED' });
    const res = await create(wabaInput({ config: { verifyToken: 'meu-token-de-verificacao' } }));
    channelId = res.json().id;
    callback = `${baseUrl}/api/plugins/channel-waba/webhook/${channelId}`;
    await until(async () => (await channelRow(channelId)).status === 'connected');
    verifyToken = (await channelRow(channelId)).config.verifyToken;
  });

  it('answers Meta\'s verification handshake with the challenge as text, and 403 otherwise', async () => {
    expect(verifyToken).toBe('meu-token-de-verificacao');
    const ok = await api.verify(callback, verifyToken);
    expect(ok.status).toBe(200);
    expect(ok.body).toBe(ok.challenge);
    for (const [what, url] of [
      ['wrong token', `${callback}?hub.mode=subscribe&hub.verify_token=outro&hub.challenge=123`],
      ['wrong mode', `${callback}?hub.mode=unsubscribe&hub.verify_token=${verifyToken}&hub.challenge=123`],
      ['no challenge', `${callback}?hub.mode=subscribe&hub.verify_token=${verifyToken}`],
      ['unknown channel', `${baseUrl}/api/plugins/channel-waba/webhook/2000000000?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=123`],
    ]) {
      const res = await fetch(url);
      expect(res.status, what).toBe(403);
      expect((await res.json()).error, what).toBe('ERR_NO_PERMISSION');
    }
  });

  it('syncs templates on connect, following Graph\'s paging, and lists approved ones to agents', async () => {
    const agent = await t.loginAs('user', admin.tenantId);
    const list = await until(async () => {
      const r = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${channelId}/templates`, headers: agent.headers })).json();
      return r.templates?.length ? r : undefined;
    });
    expect(list.templates).toHaveLength(117);
    expect(list.templates[0]).toMatchObject({ name: 'modelo_000', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY' });
    expect(list.templates[0].components[0]).toMatchObject({ type: 'BODY' });
    const all = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${channelId}/templates?status=all&search=modelo_12`, headers: agent.headers })).json();
    expect(all.templates.map((x: { name: string }) => x.name)).toEqual(['modelo_120', 'modelo_121', 'modelo_122', 'modelo_123', 'modelo_124', 'modelo_125', 'modelo_126', 'modelo_127', 'modelo_128', 'modelo_129']);
    // Agents read, only who manages channels re-syncs.
    expect((await t.app.inject({ method: 'POST', url: `/api/plugins/channel-waba/channels/${channelId}/templates/sync`, headers: agent.headers })).statusCode).toBe(403);
  });

  it('re-sync picks up new templates and drops the ones deleted at Meta', async () => {
    api.templates.splice(0, 5);
    api.addTemplate({ name: 'boas_vindas', language: 'en_US' });
    const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-waba/channels/${channelId}/templates/sync`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count).toBe(126);
    const names = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${channelId}/templates?status=all`, headers: admin.headers })).json().templates.map((x: { name: string }) => x.name);
    expect(names).toContain('boas_vindas');
    expect(names).not.toContain('modelo_000');
    expect(names).toHaveLength(126);
  });

  it('another tenant\'s admin sees none of it: 404 like a missing channel', async () => {
    const other = await t.loginAs('admin', await t.createTenant({ name: 'Outra empresa' }));
    for (const url of [`/api/plugins/channel-waba/channels/${channelId}/templates`, `/api/plugins/channel-waba/channels/${channelId}/webhook`, `/api/plugins/channel-waba/channels/2000000000/templates`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: other.headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('ERR_NO_WAPP_FOUND');
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/plugins/channel-waba/channels/${channelId}/templates/sync`, headers: other.headers })).statusCode).toBe(404);
  });

  it('stores each kind of customer message: text with name, location, contacts, buttons, reactions, audio and stickers', async () => {
    const first = api.inboundMessage({ from: customer, name: 'Maria Cliente', text: 'Bom dia' });
    expect((await api.deliver(callback, first)).status).toBe(200);
    const firstId = (first.entry[0].changes[0].value.messages![0] as { id: string }).id;
    const contact = await t.sql.query(`SELECT c.name, c.number FROM contact_identities i JOIN contacts c ON c.id = i.contact_id WHERE i.kind = 'whatsapp' AND i.external_id = $1`, [customer]);
    expect(contact.rows[0]).toEqual({ name: 'Maria Cliente', number: customer });
    const OGG = Buffer.from('OggS\0\x02fake-opus-audio');
    const WEBP = Buffer.from('RIFF\x10\0\0\0WEBPVP8 fake');
    for (const spec of [
      { raw: { type: 'location', location: { latitude: -23.5613, longitude: -46.6565, name: 'Loja Paulista', address: 'Av. Paulista, 1000' } } },
      { raw: { type: 'contacts', contacts: [{ name: { formatted_name: 'João Silva' }, phones: [{ phone: '+55 11 91234-5678', wa_id: '5511912345678' }] }] } },
      { raw: { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'opt-sim', title: 'Sim, quero' } } } },
      { raw: { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'plano-2', title: 'Plano anual' } } } },
      { raw: { type: 'button', button: { text: 'Parar promoções', payload: 'STOP' } } },
      { raw: { type: 'reaction', reaction: { message_id: firstId, emoji: '👍' } } },
      { raw: { type: 'reaction', reaction: { message_id: firstId, emoji: '' } } },
      { raw: { type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }] } },
      { media: { kind: 'audio' as const, name: 'voz.ogg', mimetype: 'audio/ogg; codecs=opus', data: OGG } },
      { media: { kind: 'sticker' as const, name: 'fig.webp', mimetype: 'image/webp', data: WEBP } },
      { text: 'respondendo', contextId: firstId },
      { text: 'olha o que recebi', forwarded: true },
    ]) {
      const res = await api.deliver(callback, api.inboundMessage({ from: customer, name: 'Maria Cliente', ...spec }));
      expect(res.status, JSON.stringify(spec.raw ?? spec.media?.kind ?? spec.text)).toBe(200);
    }
    const rows = await messagesOf(channelId, 'NOT from_me');
    const by = (pred: (r: (typeof rows)[number]) => boolean) => rows.find(pred)!;
    expect(by((r) => r.type === 'location').body).toBe('📍 Loja Paulista — Av. Paulista, 1000\nhttps://maps.google.com/maps?q=-23.5613,-46.6565');
    expect(by((r) => r.type === 'vcard')).toMatchObject({ body: 'João Silva: +55 11 91234-5678', data: { contacts: [{ name: 'João Silva', numbers: ['5511912345678'] }] } });
    expect(by((r) => r.body === 'Sim, quero').data).toMatchObject({ buttonReply: true, buttonId: 'opt-sim' });
    expect(by((r) => r.body === 'Plano anual').data).toMatchObject({ buttonId: 'plano-2' });
    expect(by((r) => r.body === 'Parar promoções').data).toMatchObject({ buttonId: 'STOP' });
    const firstRow = by((r) => r.body === 'Bom dia');
    expect(by((r) => r.type === 'reaction')).toMatchObject({ body: '👍', quoted_id: Number(firstRow.id) });
    expect(rows.filter((r) => r.type === 'reaction')).toHaveLength(1);
    expect(by((r) => r.data?.unsupported === 'unsupported').body).toMatch(/não suportada.*Message type unknown/);
    const audio = by((r) => r.type === 'audio');
    expect(audio.media_type).toBe('audio/ogg');
    expect(Buffer.compare((await t.app.inject({ method: 'GET', url: t.app.kernel.storage.clientUrl(audio.media_url, admin.tenantId)! })).rawPayload, OGG)).toBe(0);
    expect(by((r) => r.type === 'sticker').media_type).toBe('image/webp');
    expect(by((r) => r.body === 'respondendo').quoted_id).toBe(Number(firstRow.id));
    // What the customer forwarded is marked so, for the conversation's "Encaminhada" label.
    expect(by((r) => r.body === 'olha o que recebi').data).toMatchObject({ forwarded: true });
    expect(by((r) => r.body === 'respondendo').data?.forwarded).toBeUndefined();
  });

  it('a file Meta no longer has still delivers the message, saying so; Graph down answers non-2xx with nothing stored', async () => {
    const gone = api.inboundMessage({ from: customer, raw: { type: 'image', image: { id: '9999999999', mime_type: 'image/jpeg', caption: 'foto perdida' } } });
    expect((await api.deliver(callback, gone)).status).toBe(200);
    expect((await messagesOf(channelId, `body = 'foto perdida'`))[0].data).toMatchObject({ mediaError: 'ERR_WAPP_DOWNLOAD_MEDIA', mediaType: 'image/jpeg' });

    const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const later = api.inboundMessage({ from: customer, text: 'foto durante a queda', media: { kind: 'image', name: 'a.png', mimetype: 'image/png', data: PNG } });
    const before = await counts();
    api.drop();
    try {
      const res = await api.deliver(callback, later);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(JSON.parse(res.body).error).toBe('ERR_WAPP_DOWNLOAD_MEDIA');
      expect(await counts()).toEqual(before);
    } finally {
      api.restore();
    }
    // Meta's redelivery after the outage stores it once, with the file.
    expect((await api.deliver(callback, later)).status).toBe(200);
    const [m] = await messagesOf(channelId, `body = 'foto durante a queda'`);
    expect(m.media_type).toBe('image/png');
  });

  it('a notification whose JSON carries \\u0000 is accepted (signed over the raw bytes) and the message stored without the NUL, once', async () => {
    const from = '5511987650077';
    const note = api.inboundMessage({ from, name: 'Zé\u0000 Nulo', text: 'pedido\u0000 número 123' });
    const raw = JSON.stringify(note);
    expect(raw).toContain('\\u0000');
    const res = await api.deliver(callback, raw);
    expect(res.status, res.body).toBe(200);
    const wamid = (note.entry[0].changes[0].value.messages![0] as { id: string }).id;
    const [m] = await messagesOf(channelId, 'provider_id = $2', [wamid]);
    expect(m.body).toBe('pedido número 123');
    const contact = await t.sql.query(`SELECT c.name FROM contact_identities i JOIN contacts c ON c.id = i.contact_id WHERE i.kind = 'whatsapp' AND i.external_id = $1`, [from]);
    expect(contact.rows[0].name).toBe('Zé Nulo');
    // The agent sees it in the ticket.
    const shown = (await t.app.inject({ method: 'GET', url: `/api/messages/${m.ticket_id}`, headers: admin.headers })).json();
    expect(shown.messages.map((x: { body: string }) => x.body)).toContain('pedido número 123');
    // Meta's redelivery of the same bytes is acknowledged and stored once.
    expect((await api.deliver(callback, raw)).status).toBe(200);
    expect(await messagesOf(channelId, 'provider_id = $2', [wamid])).toHaveLength(1);
    // The signature still guards the bytes: the same body altered is refused with nothing stored.
    const before = await counts();
    const forged = api.inboundMessage({ from, text: 'forjada\u0000' });
    const bad = await api.deliver(callback, JSON.stringify(forged), { signature: signWebhook(api.appSecret, raw) });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body).error).toBe('ERR_WEBHOOK_SIGNATURE');
    expect(await counts()).toEqual(before);
    // An ordinary API body with a NUL is still refused.
    const typed = await t.app.inject({ method: 'POST', url: `/api/messages/${m.ticket_id}`, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: JSON.stringify({ body: 'resposta\u0000' }) });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().error).toBe('ERR_VALIDATION');
  });

  it('agent replies with link previews and reply buttons, status callbacks move acks forward and a failure keeps Meta\'s reason', async () => {
    const [m] = await messagesOf(channelId, `body = 'Bom dia'`);
    const ticketId = m.ticket_id;
    const send = (payload: Record<string, unknown>, url = `/api/messages/${ticketId}`) => t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    expect((await send({ body: 'Veja https://atende.example/status' })).statusCode).toBe(201);
    const text = await until(async () => api.sent.find((s) => s.text === 'Veja https://atende.example/status'));
    expect(text).toMatchObject({ to: customer, type: 'text', previewUrl: true });

    // The kernel's /sendButton allows up to 3 buttons (WhatsApp's limit): they go out as reply buttons.
    const three = [1, 2, 3].map((n) => ({ label: `Opção ${n}`, value: `op${n}` }));
    expect((await send({ ticketId, body: 'Confirma?', buttons: three }, '/api/sendButton')).statusCode).toBe(201);
    const buttons = await until(async () => api.sent.find((s) => s.text === 'Confirma?'));
    expect(buttons.interactive).toBe('button');
    expect(buttons.buttons).toEqual(three);

    const [row] = await until(async () => messagesOf(channelId, `body = 'Veja https://atende.example/status' AND status = 'sent'`).then((r) => (r.length ? r : undefined)));
    const providerId = (await t.sql.query('SELECT provider_id FROM messages WHERE id = $1', [row.id])).rows[0].provider_id;
    expect(providerId).toBe(text.providerId);
    await api.deliver(callback, api.statusUpdate(providerId, 'delivered', customer));
    expect((await messagesOf(channelId, 'id = $2', [row.id]))[0].status).toBe('delivered');
    await api.deliver(callback, api.statusUpdate(providerId, 'sent', customer));
    expect((await messagesOf(channelId, 'id = $2', [row.id]))[0].status).toBe('delivered');

    expect((await send({ body: 'Esta não chega' })).statusCode).toBe(201);
    const failing = await until(async () => api.sent.find((s) => s.text === 'Esta não chega'));
    await api.deliver(callback, api.statusUpdate(failing.providerId, 'failed', customer, { code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' }));
    const [f] = await until(async () => messagesOf(channelId, `body = 'Esta não chega' AND status = 'failed'`).then((r) => (r.length ? r : undefined)));
    expect(f.failure_reason).toBe('This message was not delivered to maintain healthy ecosystem engagement. (131049)');
  });

  it('marks the customer\'s messages read at Meta once the agent has read them, and sends reactions to the right person', async () => {
    const [m] = await messagesOf(channelId, `body = 'Bom dia'`);
    const latest = api.inboundMessage({ from: customer, text: 'Ainda aí?' });
    await api.deliver(callback, latest);
    const latestId = (latest.entry[0].changes[0].value.messages![0] as { id: string }).id;
    const readsBefore = api.readMarks.length;
    // The ticket is the admin's (it answered above): opening it clears the unread count.
    const opened = await t.app.inject({ method: 'GET', url: `/api/messages/${m.ticket_id}`, headers: admin.headers });
    expect(opened.statusCode).toBe(200);
    await until(async () => api.readMarks.includes(latestId));
    expect(api.readMarks.length).toBe(readsBefore + 1);

    const react = await t.app.inject({ method: 'POST', url: '/api/messages/reactionMessage', headers: admin.headers, payload: { messageId: m.id, emoji: '❤️' } });
    expect(react.statusCode, react.body).toBe(200);
    const sent = api.sent.find((s) => s.type === 'reaction');
    expect(sent).toMatchObject({ to: customer, reaction: { emoji: '❤️' } });
    expect(sent!.reaction!.messageId).toMatch(/^wamid\./);
  });

  it('refuses webhooks while the admin has the channel disconnected, so Meta keeps them', async () => {
    const off = await t.app.inject({ method: 'POST', url: `/api/channels/${channelId}/disconnect`, headers: admin.headers });
    expect(off.statusCode).toBe(200);
    const before = await counts();
    const res = await api.deliver(callback, api.inboundMessage({ from: customer, text: 'enquanto desligado' }));
    expect(res.status).toBe(409);
    expect(await counts()).toEqual(before);
  });
});

describe('Graph error mapping and payloads', () => {
  const err = (status: number, code: number, message = 'x', subcode?: number) => toChannelError(new GraphError(status, { code, message, error_subcode: subcode }));

  it('invalid recipients are permanent ERR_WAPP_INVALID_CONTACT; credentials ERR_WABA_INVALID; throttling and outages are retried', () => {
    expect(err(400, 131026)).toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT', permanent: true });
    expect(err(400, 131030)).toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT', permanent: true });
    expect(err(401, 190)).toMatchObject({ code: 'ERR_WABA_INVALID', permanent: true });
    expect(err(400, 100, 'no object', 33)).toMatchObject({ code: 'ERR_WABA_INVALID', permanent: true });
    expect(err(500, 131000)).toMatchObject({ code: 'ERR_SENDING_WAPP_MSG', permanent: false });
    expect(err(400, 130429)).toMatchObject({ code: 'ERR_SENDING_WAPP_MSG', permanent: false });
    expect(err(400, 131047).message).toMatch(/24 horas.*modelo/);
    expect(err(400, 131047).permanent).toBe(true);
    expect(toChannelError(new GraphError(0, { message: 'ECONNREFUSED' }))).toMatchObject({ code: 'ERR_SENDING_WAPP_MSG', permanent: false });
    expect(toChannelError(new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'x', true)).code).toBe('ERR_WAPP_DOWNLOAD_MEDIA');
  });

  it('builds templates, captions, quotes and types WhatsApp accepts', () => {
    const to = { kind: 'whatsapp', externalId: '5511900000000', isGroup: false };
    const [tpl] = buildPayloads({ messageId: '1', to, type: 'template', body: '', template: { name: 'boas_vindas', language: 'pt_BR', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] } });
    expect(tpl).toEqual({ recipient_type: 'individual', to: '5511900000000', type: 'template', template: { name: 'boas_vindas', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] } });
    const audio = buildPayloads({ messageId: '2', to, type: 'audio', body: 'ouça', quotedProviderId: 'wamid.q', media: { kind: 'audio', mimetype: 'audio/ogg', name: 'a.ogg' } }, { id: '77' });
    expect(audio).toEqual([
      { recipient_type: 'individual', to: '5511900000000', context: { message_id: 'wamid.q' }, type: 'audio', audio: { id: '77' } },
      { recipient_type: 'individual', to: '5511900000000', type: 'text', text: { body: 'ouça', preview_url: false } },
    ]);
    expect(waMediaType('image', 'image/gif')).toBe('document');
    expect(waMediaType('image', 'image/jpeg')).toBe('image');
    expect(waMediaType('video', 'video/quicktime')).toBe('document');
    const long = buildPayloads({ messageId: '3', to, type: 'chat', body: 'a'.repeat(5000) });
    expect(long.map((p) => (p.text as { body: string }).body.length)).toEqual([4096, 904]);
    const four = [1, 2, 3, 4].map((n) => ({ label: `Opção ${n}`, value: `op${n}` }));
    const [list] = buildPayloads({ messageId: '5', to, type: 'buttons', body: 'Escolha o plano', buttons: four });
    expect(list.interactive).toMatchObject({ type: 'list', body: { text: 'Escolha o plano' }, action: { button: 'Opções', sections: [{ rows: four.map((o) => ({ id: o.value, title: o.label })) }] } });
    const [longLabel] = buildPayloads({ messageId: '6', to, type: 'buttons', body: 'x', buttons: [{ label: 'Quero falar com o setor financeiro', value: 'fin' }] });
    expect(longLabel.interactive).toMatchObject({ type: 'list', action: { sections: [{ rows: [{ id: 'fin', title: 'Quero falar com o setor…', description: 'Quero falar com o setor financeiro' }] }] } });
    expect(() => buildPayloads({ messageId: '4', to, type: 'buttons', body: 'x', buttons: Array.from({ length: 11 }, (_, i) => ({ label: `${i}`, value: `${i}` })) })).toThrow(/no máximo 10/);
  });
});
