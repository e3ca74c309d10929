import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestSocket, type TestUser } from '@atende/core/testing';
import type { ChannelAdapter } from '@atende/core/sdk';
import { FakeWhatsApp, Status } from './fake-whatsapp.ts';
import { baileysOptions } from './index.ts';
import { reconnectDelay } from './channel.ts';

let t: TestApp;
let admin: TestUser;
let sock: TestSocket;
let wa: FakeWhatsApp;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, payload?: unknown) => t.app.inject({ method, url, headers: admin.headers, payload: payload as never });
const row = async (id: number) => (await api('GET', `/api/channels/${id}`)).json();
const lastSeq = () => Math.max(0, ...sock.frames.map((f) => f.seq ?? 0));
const statusFrame = (id: number, status: string, after: number, extra: (c: any) => boolean = () => true) =>
  sock.next((f) => f.event === 'channel.updated' && f.data?.channel?.id === id && f.data.channel.status === status && (f.seq ?? 0) > after && extra(f.data.channel), 10_000);
const authRows = async (id: number) => (await t.sql.query<{ key: string }>('SELECT key FROM channel_auth_state WHERE channel_id = $1 ORDER BY key', [id])).rows.map((r) => r.key);
const messageBy = async (providerId: string) =>
  (await t.sql.query(`SELECT m.*, t.is_group AS ticket_group, c.name AS contact_name, c.number AS contact_number FROM messages m JOIN tickets t ON t.id = m.ticket_id JOIN contacts c ON c.id = t.contact_id WHERE m.provider_id = $1`, [providerId])).rows[0];
const adapter = () => (t.app as unknown as { kernel: { channelAdapters: Map<string, ChannelAdapter> } }).kernel.channelAdapters.get('baileys')!;

beforeAll(async () => {
  wa = await FakeWhatsApp.start();
  Object.assign(baileysOptions, { makeSocket: wa.makeWASocket, reconnectBaseMs: 100, reconnectMaxMs: 800, lostAfterRetries: 3, readyTimeoutMs: 3000, historyWaitMs: 2000 });
  t = await createTestApp({ plugins: ['channel-baileys'] });
  admin = await t.loginAs('admin');
  sock = await t.openSocket(admin.token);
  await sock.next((f) => f.event === 'hello');
});
afterAll(async () => {
  await sock?.close().catch(() => undefined);
  await t?.close();
  await wa?.close();
});

describe('linking by QR code', () => {
  let id: number;

  it('shows the QR code live, and once the phone scans it the channel is connected with the account number', async () => {
    const before = lastSeq();
    const res = await api('POST', '/api/channels', { type: 'baileys', name: 'WhatsApp Loja', config: { connectionMethod: 'qrcode' } });
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
    const qr = await statusFrame(id, 'qrcode', before, (c) => !!c.qrcode);
    expect(qr.data.channel.qrcode).toMatch(/^2@/);
    // A new QR code replaces the old one on screen.
    const next = await statusFrame(id, 'qrcode', qr.seq!, (c) => c.qrcode && c.qrcode !== qr.data.channel.qrcode);
    expect(next.data.channel.qrcode).not.toBe(qr.data.channel.qrcode);
    wa.scan();
    const up = await statusFrame(id, 'connected', next.seq!);
    expect(up.data.channel).toMatchObject({ number: wa.phone.number, qrcode: null, lastError: null, retries: 0 });
    expect(await row(id)).toMatchObject({ status: 'connected', number: wa.phone.number, qrcode: null });
    // The socket is set up as the spec's WhatsApp Web client would be: a named browser, no terminal QR.
    const cfg = wa.configs.at(-1)!;
    expect(cfg.browser).toEqual(['Ubuntu', 'Atende', '22.04.4']);
    expect(cfg.printQRInTerminal).toBeUndefined();
  });

  it('keeps creds and signal keys in PostgreSQL, not on disk', async () => {
    const keys = await authRows(id);
    expect(keys).toContain('creds');
    expect(keys).toContain('pre-key:1');
    const creds = (await t.sql.query(`SELECT value FROM channel_auth_state WHERE channel_id = $1 AND key = 'creds'`, [id])).rows[0].value;
    expect(creds.me.id).toMatch(new RegExp(`^${wa.phone.number}:\\d+@s\\.whatsapp\\.net$`));
    expect(creds.noiseKey.private).toMatchObject({ type: 'Buffer' });
  });

  it('disconnect and connect resume the same linked device from the stored auth state, without a new QR code', async () => {
    const sockets = wa.sockets.length;
    let seq = lastSeq();
    expect((await api('POST', `/api/channels/${id}/disconnect`)).statusCode).toBe(200);
    seq = (await statusFrame(id, 'disconnected', seq)).seq!;
    expect(wa.open()).toHaveLength(0);
    expect((await authRows(id)).length).toBeGreaterThan(1);
    expect((await api('POST', `/api/channels/${id}/connect`)).statusCode).toBe(202);
    await statusFrame(id, 'connected', seq);
    const newSockets = wa.sockets.slice(sockets);
    expect(newSockets).toHaveLength(1);
    expect(newSockets[0].qrShown).toBe(false);
    expect(sock.frames.filter((f) => f.event === 'channel.updated' && f.data.channel.id === id && (f.seq ?? 0) > seq && f.data.channel.status === 'qrcode')).toHaveLength(0);
  });
});

describe('inbound messages', () => {
  it('a person seen by LID and by phone number is one contact with both identities', async () => {
    const a = await wa.incoming({ from: '123456789012345@lid', alt: '5511977776666', pushName: 'Marta', text: 'oi pelo LID' });
    const b = await wa.incoming({ from: '5511977776666', pushName: 'Marta', text: 'oi pelo número' });
    wa.mapLid('987654321098765@lid', '5511966665555@s.whatsapp.net');
    const c = await wa.incoming({ from: '987654321098765@lid', pushName: 'Joel', text: 'só LID, mapeado' });
    const d = await wa.incoming({ from: '5511966665555', pushName: 'Joel', text: 'número do Joel' });
    const [ma, mb, mc, md] = await until(async () => {
      const all = await Promise.all([a, b, c, d].map((m) => messageBy(m.key.id!)));
      return all.every(Boolean) ? all : undefined;
    });
    expect(ma.contact_id).toBe(mb.contact_id);
    expect(ma.ticket_id).toBe(mb.ticket_id);
    expect(mc.contact_id).toBe(md.contact_id);
    expect(ma.contact_number).toBe('5511977776666');
    expect(mc.contact_number).toBe('5511966665555');
    const ids = (await t.sql.query(`SELECT external_id FROM contact_identities WHERE contact_id = $1 AND kind = 'whatsapp' ORDER BY external_id`, [ma.contact_id])).rows.map((r) => r.external_id);
    expect(ids).toEqual(['123456789012345@lid', '5511977776666']);
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM contacts WHERE number IN ('5511977776666', '5511966665555')`)).rows[0].n).toBe(2);
  });

  it('a group message opens a group ticket named after the group, with the participant recorded', async () => {
    wa.groups.set('120363025246125888@g.us', 'Equipe Vendas');
    const m = await wa.incoming({ group: '120363025246125888@g.us', from: '111222333444555@lid', alt: '5511955554444', pushName: 'Ana', text: 'bom dia, grupo' });
    const got = await until(() => messageBy(m.key.id!));
    expect(got.ticket_group).toBe(true);
    expect(got.contact_name).toBe('Equipe Vendas');
    expect(got.data.participant).toBe('Ana');
    const participant = (await t.sql.query(`SELECT c.number, c.is_group FROM contacts c WHERE c.id = $1`, [got.contact_id])).rows[0];
    expect(participant).toEqual({ number: '5511955554444', is_group: false });
  });

  it('media that cannot be downloaded still arrives, marked with ERR_WAPP_DOWNLOAD_MEDIA', async () => {
    const m = await wa.incoming({ from: '5511944443333', pushName: 'Rui', media: { kind: 'image', name: 'x.jpg', mimetype: 'image/jpeg', data: Buffer.from('jpeg'), caption: 'foto vencida' }, mediaStatus: 410 });
    const got = await until(() => messageBy(m.key.id!));
    expect(got.body).toBe('foto vencida');
    expect(got.media_url).toBeNull();
    expect(got.type).toBe('image');
    expect(got.data.mediaError).toBe('ERR_WAPP_DOWNLOAD_MEDIA');
  });

  it('audio, documents, locations, reactions, button answers and quotes arrive readable', async () => {
    const ogg = Buffer.from('OggS-voz-do-cliente');
    const base = await wa.incoming({ from: '5511933332222', pushName: 'Lia', text: 'pergunta' });
    const audio = await wa.incoming({ from: '5511933332222', pushName: 'Lia', media: { kind: 'audio', name: 'a.ogg', mimetype: 'audio/ogg; codecs=opus', data: ogg } });
    const loc = await wa.incoming({ from: '5511933332222', pushName: 'Lia', location: { lat: -23.55, lng: -46.63, name: 'Loja Centro' } });
    const reply = await wa.incoming({ from: '5511933332222', pushName: 'Lia', text: 'respondendo', quotedId: base.key.id! });
    const react = await wa.incoming({ from: '5511933332222', pushName: 'Lia', reaction: { emoji: '👍', to: base.key.id! } });
    const button = await wa.incoming({ from: '5511933332222', pushName: 'Lia', buttonReply: { id: 'opt-2', text: 'Financeiro' } });
    const rows = await until(async () => {
      const all = await Promise.all([base, audio, loc, reply, react, button].map((m) => messageBy(m.key.id!)));
      return all.every(Boolean) ? all : undefined;
    });
    const [b, a, l, r, re, bt] = rows;
    expect(a.type).toBe('audio');
    expect(a.media_type).toBe('audio/ogg');
    const served = await t.app.inject({ method: 'GET', url: t.app.kernel.storage.clientUrl(a.media_url, admin.tenantId)! });
    expect(Buffer.compare(served.rawPayload, ogg)).toBe(0);
    expect(l.type).toBe('location');
    expect(l.body).toContain('Loja Centro');
    expect(l.body).toContain('maps.google.com/maps?q=-23.55,-46.63');
    expect(r.quoted_id).toBe(b.id);
    expect(re).toMatchObject({ type: 'reaction', body: '👍', quoted_id: b.id });
    expect(bt.body).toBe('Financeiro');
    expect(bt.data).toMatchObject({ buttonReply: true, selectedId: 'opt-2' });
  });

  it('a message the account sent from the phone lands in the same ticket as from-me', async () => {
    const first = await wa.incoming({ from: '5511922221111', pushName: 'Caio', text: 'cliente escreveu' });
    const own = await wa.incoming({ from: '5511922221111', fromMe: true, text: 'respondi pelo celular' });
    const [c, o] = await until(async () => {
      const all = await Promise.all([first, own].map((m) => messageBy(m.key.id!)));
      return all.every(Boolean) ? all : undefined;
    });
    expect(o.from_me).toBe(true);
    expect(o.ticket_id).toBe(c.ticket_id);
    expect(o.contact_name).toBe('Caio');
  });
});

describe('outbound messages', () => {
  let ticketId: number;
  let customerMsgId: string;

  beforeAll(async () => {
    const m = await wa.incoming({ from: '5511911110000', pushName: 'Bia', text: 'quero atendimento' });
    const got = await until(() => messageBy(m.key.id!));
    ticketId = got.ticket_id;
    customerMsgId = got.id;
  });

  const send = async (payload: Record<string, unknown>) => {
    const res = await api('POST', `/api/messages/${ticketId}`, payload);
    expect(res.statusCode, res.body).toBe(201);
    return until(async () => {
      const r = (await t.sql.query('SELECT * FROM messages WHERE id = $1', [res.json().id])).rows[0];
      return r.status !== 'pending' ? r : undefined;
    });
  };

  it('a reply quoting the customer goes out as a WhatsApp quote, and receipts move it to read, never back', async () => {
    const m = await send({ body: 'Olá Bia, como posso ajudar?', quotedMsgId: customerMsgId });
    expect(m.status).toBe('sent');
    const out = wa.sent.find((s) => s.body === 'Olá Bia, como posso ajudar?')!;
    expect(out.jid).toBe('5511911110000@s.whatsapp.net');
    expect(out.options?.quoted?.key.id).toBe((await t.sql.query('SELECT provider_id FROM messages WHERE id = $1', [customerMsgId])).rows[0].provider_id);
    expect(m.provider_id).toBe(out.message.key.id);
    wa.receipt(m.provider_id, 'read');
    await until(async () => (await t.sql.query('SELECT status FROM messages WHERE id = $1', [m.id])).rows[0].status === 'read');
    wa.ack(m.provider_id, Status.DELIVERY_ACK);
    wa.receipt(m.provider_id, 'delivered');
    await new Promise((r) => setTimeout(r, 300));
    expect((await t.sql.query('SELECT status FROM messages WHERE id = $1', [m.id])).rows[0].status).toBe('read');
  });

  it('edit, delete for everyone and reactions reach WhatsApp with the original message key', async () => {
    const m = await send({ body: 'texto com erro' });
    const edit = await api('POST', '/api/messages/editMessage', { messageId: m.id, body: 'texto corrigido' });
    expect(edit.statusCode, edit.body).toBe(200);
    const react = await api('POST', '/api/messages/reactionMessage', { messageId: customerMsgId, emoji: '❤️' });
    expect(react.statusCode, react.body).toBe(200);
    const del = await api('DELETE', `/api/messages/${m.id}`);
    expect(del.statusCode, del.body).toBe(200);
    const tail = wa.sent.slice(-3).map((s) => s.content as Record<string, any>);
    expect(tail[0]).toMatchObject({ text: 'texto corrigido', edit: { id: m.provider_id, fromMe: true, remoteJid: '5511911110000@s.whatsapp.net' } });
    expect(tail[1].react).toMatchObject({ text: '❤️', key: { fromMe: false, remoteJid: '5511911110000@s.whatsapp.net' } });
    expect(tail[2]).toMatchObject({ delete: { id: m.provider_id, fromMe: true } });
  });

  it('a number that is not on WhatsApp fails at once with ERR_WAPP_INVALID_CONTACT', async () => {
    const c = await wa.incoming({ from: '5511900009999', pushName: 'Sem Zap', text: 'oi' });
    const ticket = (await until(() => messageBy(c.key.id!))).ticket_id;
    wa.notOnWhatsApp.add('5511900009999');
    const res = await api('POST', `/api/messages/${ticket}`, { body: 'você está aí?' });
    const m = await until(async () => {
      const r = (await t.sql.query('SELECT status, failure_reason, data FROM messages WHERE id = $1', [res.json().id])).rows[0];
      return r.status === 'failed' ? r : undefined;
    });
    expect(m.data.errorCode).toBe('ERR_WAPP_INVALID_CONTACT');
    expect(m.failure_reason).toContain('5511900009999');
    expect(wa.sent.filter((s) => s.body === 'você está aí?')).toHaveLength(0);
  });

  it('options without WhatsApp buttons go out as a numbered list', async () => {
    const channel = (await t.sql.query(`SELECT id, tenant_id AS "tenantId", type, name, number, status, config FROM channels WHERE type = 'baileys' AND status = 'connected'`)).rows[0];
    const res = await adapter().send({ ...channel, secrets: {} }, { messageId: '1', to: { kind: 'whatsapp', externalId: '5511911110000', isGroup: false }, type: 'buttons', body: 'Escolha o setor:', buttons: [{ label: 'Vendas', value: 'v' }, { label: 'Suporte', value: 's' }] });
    const out = wa.sent.find((s) => s.message.key.id === res.providerId)!;
    expect(out.body).toBe('Escolha o setor:\n\n1. Vendas\n2. Suporte');
  });

  it('a dropped send while WhatsApp is unreachable is ERR_WAPP_NOT_INITIALIZED, retried later', async () => {
    const channel = (await t.sql.query(`SELECT id, tenant_id AS "tenantId", type, name, number, status, config FROM channels WHERE type = 'baileys' AND status = 'connected'`)).rows[0];
    wa.drop();
    await until(async () => (await row(channel.id)).status !== 'connected');
    const err = await adapter()
      .send({ ...channel, secrets: {} }, { messageId: '2', to: { kind: 'whatsapp', externalId: '5511911110000', isGroup: false }, type: 'chat', body: 'sem conexão' })
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED', permanent: false });
    wa.restore();
    await until(async () => (await row(channel.id)).status === 'connected', 15_000);
  });
});

describe('history import', () => {
  it('imports what WhatsApp sent at linking plus older messages asked of the phone, by date and limit, with progress', async () => {
    const channelId = (await t.sql.query(`SELECT id FROM channels WHERE type = 'baileys' AND status = 'connected'`)).rows[0].id;
    const day = (d: number) => Math.floor(new Date(`2026-11-${String(d).padStart(2, '0')}T12:00:00Z`).getTime() / 1000);
    const chat = '5511988880001';
    const linked = [
      await wa.message({ from: chat, pushName: 'Histórico', text: 'linked 20', timestamp: day(20) }),
      await wa.message({ from: chat, fromMe: true, text: 'linked 21 (eu)', timestamp: day(21) }),
      await wa.message({ from: chat, pushName: 'Histórico', text: 'linked 22', timestamp: day(22) }),
      await wa.message({ group: '120363000000000001@g.us', from: '5511988880002', pushName: 'G', text: 'grupo antigo', timestamp: day(21) }),
    ];
    wa.phoneHistory.push(await wa.message({ from: chat, pushName: 'Histórico', text: 'older 10', timestamp: day(10) }), await wa.message({ from: chat, pushName: 'Histórico', text: 'older 5', timestamp: day(5) }));
    wa.history(linked);
    await until(async () => (await t.sql.query('SELECT count(*)::int AS n FROM channel_baileys_messages WHERE history AND channel_id = $1', [channelId])).rows[0].n === 4);

    const seq = lastSeq();
    const res = await api('POST', '/api/messages/syncOld', { channelId, startDate: '2026-11-08T00:00:00Z', endDate: '2026-11-25T00:00:00Z', groups: false, deviceMessages: false, limit: 10 });
    expect(res.statusCode, res.body).toBe(202);
    const done = await sock.next((f) => f.event === 'channel.history_progress' && f.data.status === 'done' && (f.seq ?? 0) > seq, 20_000);
    expect(done.data.imported).toBe(3);
    expect(wa.historyRequests.some((r) => r.chat === `${chat}@s.whatsapp.net`)).toBe(true);
    const bodies = (await t.sql.query(`SELECT body, synced FROM messages m JOIN contact_identities i ON i.contact_id = m.contact_id AND i.external_id = $1 ORDER BY m.timestamp`, [chat])).rows;
    expect(bodies.map((b) => b.body)).toEqual(['older 10', 'linked 20', 'linked 22']);
    expect(bodies.every((b) => b.synced)).toBe(true);
    expect(sock.frames.some((f) => f.event === 'channel.history_progress' && f.data.status === 'running' && f.data.total === 3)).toBe(true);
  });
});

describe('connection trouble', () => {
  it('reconnect delays double per failure up to the cap, with jitter', () => {
    const at = (n: number, r: number) => reconnectDelay(n, 2000, 60_000, () => r);
    expect([1, 2, 3, 4].map((n) => at(n, 0.5))).toEqual([2000, 4000, 8000, 16000]);
    expect(at(10, 0.5)).toBe(60_000);
    expect(at(1, 0)).toBe(1600);
    expect(at(1, 1)).toBe(2400);
  });

  it('a dropped connection reconnects by itself, the retries shown, then connected again', async () => {
    const id = (await t.sql.query(`SELECT id FROM channels WHERE type = 'baileys' AND status = 'connected'`)).rows[0].id;
    const seq = lastSeq();
    wa.drop();
    const first = await statusFrame(id, 'opening', seq, (c) => c.retries === 1);
    expect(first.data.channel.lastError).toMatch(/Connection was lost/);
    const later = await sock.next((f) => f.event === 'channel.updated' && f.data?.channel?.id === id && f.data.channel.retries >= 3 && (f.seq ?? 0) > first.seq!, 10_000);
    // After a few failures in a row the admin sees the connection as lost, while it keeps trying.
    expect(later.data.channel.status).toBe('pairingTimeout');
    expect(later.data.channel.lastError).toMatch(/nova tentativa em \d+ s/);
    wa.restore();
    const back = await statusFrame(id, 'connected', later.seq!);
    expect(back.data.channel).toMatchObject({ retries: 0, lastError: null });
  });

  it('when the phone unlinks the device, the auth state is wiped and the channel shows why; connecting again asks for a QR code', async () => {
    const id = (await t.sql.query(`SELECT id FROM channels WHERE type = 'baileys' AND status = 'connected'`)).rows[0].id;
    const seq = lastSeq();
    wa.unlinkFromPhone();
    const down = await statusFrame(id, 'disconnected', seq);
    expect(down.data.channel.lastError).toMatch(/desconectado pelo celular/);
    expect(await authRows(id)).toEqual([]);
    await new Promise((r) => setTimeout(r, 400));
    expect(wa.open()).toHaveLength(0);
    expect((await api('POST', `/api/channels/${id}/connect`)).statusCode).toBe(202);
    await statusFrame(id, 'qrcode', down.seq!, (c) => !!c.qrcode);
    await api('DELETE', `/api/channels/${id}`);
  });

  it('a QR code nobody scans ends as pairingTimeout with a message, and nothing keeps retrying', async () => {
    wa.qrPerRound = 2;
    const seq = lastSeq();
    const res = await api('POST', '/api/channels', { type: 'baileys', name: 'Sem leitura' });
    const id = res.json().id;
    const timeout = await statusFrame(id, 'pairingTimeout', seq);
    expect(timeout.data.channel).toMatchObject({ qrcode: null });
    expect(timeout.data.channel.lastError).toMatch(/QR code expirou/);
    const count = wa.sockets.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(wa.sockets.length).toBe(count);
    await api('DELETE', `/api/channels/${id}`);
    wa.qrPerRound = 3;
  });
});

describe('pairing code', () => {
  it('asks WhatsApp for a code for the number, shows it, and links when it is typed on the phone; deleting unlinks the device', async () => {
    wa.autoScan = false;
    // A QR round lasts minutes at WhatsApp: time enough to type the code.
    wa.qrIntervalMs = 3000;
    const seq = lastSeq();
    const res = await api('POST', '/api/channels', { type: 'baileys', name: 'Por código', number: '+55 (11) 98888-7777', config: { connectionMethod: 'pairingCode' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().number).toBe('5511988887777');
    const id = res.json().id;
    await statusFrame(id, 'qrcode', seq);
    const bad = await api('POST', `/api/channels/${id}/pairing-code`, { number: '12' });
    expect(bad.statusCode).toBe(400);
    const pr = await api('POST', `/api/channels/${id}/pairing-code`, { number: '5511988887777' });
    expect(pr.statusCode, pr.body).toBe(200);
    const code = pr.json().pairingCode as string;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await row(id)).pairingCode).toBe(code);
    wa.enterPairingCode(code);
    const up = await statusFrame(id, 'connected', seq);
    expect(up.data.channel).toMatchObject({ pairingCode: null, number: wa.phone.number });
    // Already linked: another code is refused.
    const again = await api('POST', `/api/channels/${id}/pairing-code`, { number: '5511988887777' });
    expect(again.json().error).toBe('ERR_WAPP_INITIALIZED');
    const device = [...wa.linked].at(-1)!;
    expect((await api('DELETE', `/api/channels/${id}`)).statusCode).toBe(204);
    await until(async () => !wa.linked.has(device));
    expect(await authRows(id)).toEqual([]);
    expect((await t.sql.query('SELECT count(*)::int AS n FROM channel_baileys_messages WHERE channel_id = $1', [id])).rows[0].n).toBe(0);
    wa.qrIntervalMs = 40;
  });

  it('refuses a pairing code for a channel whose session is not running with "Error generating QR code"', async () => {
    const res = await api('POST', '/api/channels', { type: 'baileys', name: 'Parado' });
    const id = res.json().id;
    await api('POST', `/api/channels/${id}/disconnect`);
    const pr = await api('POST', `/api/channels/${id}/pairing-code`, { number: '5511988887777' });
    expect(pr.statusCode).toBe(502);
    expect(pr.json()).toMatchObject({ error: 'ERR_QR_CODE', message: 'Error generating QR code' });
    await api('DELETE', `/api/channels/${id}`);
  });

  it('refuses unknown settings', async () => {
    const res = await api('POST', '/api/channels', { type: 'baileys', name: 'Config ruim', config: { connectionMethod: 'telepatia' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
  });
});
