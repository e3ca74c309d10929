import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../testing/index.ts';
import { signSandbox } from '../../../../plugins/channel-sandbox/src/index.ts';
import type { ChannelAdapter, HistorySink, HistorySyncRequest } from '../../sdk/channel.ts';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
const historyCalls: HistorySyncRequest[] = [];

/** A webhook-style adapter with history import and an Evolution-like locked name, to exercise kernel paths no built-in channel has yet. */
const probe: ChannelAdapter = {
  type: 'probe-history',
  label: 'Probe',
  identityKind: 'probe',
  lockedName: true,
  capabilities: { media: [], buttons: false, lists: false, templates: false, reactions: false, edit: false, delete: false, groups: false, qr: false, pairingCode: false, historyImport: true, readReceipts: false },
  async connect(channel, runtime) {
    await runtime.setStatus(channel.tenantId, channel.id, 'connected');
  },
  async send() {
    return { providerId: `p-${Date.now()}` };
  },
  async syncHistory(_channel, request, sink: HistorySink) {
    historyCalls.push(request);
    const old = Date.now() - 86_400_000;
    const msgs = [
      { id: 'h1', from: 'hist-1', body: 'mensagem antiga 1' },
      { id: 'h2', from: 'hist-1', body: 'fim' },
      { id: 'h3', from: 'hist-2', body: 'mensagem antiga 3' },
    ];
    let done = 0;
    for (const m of msgs) {
      await sink.ingest({ providerMessageId: m.id, from: { kind: 'probe', externalId: m.from, name: `Histórico ${m.from}` }, body: m.body, timestamp: new Date(old + done * 1000) });
      await sink.progress(++done, msgs.length);
    }
    return { imported: done };
  },
};

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: unknown) => t.app.inject({ method, url, headers: who.headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function sandbox(name: string, extra: Record<string, unknown> = {}, who = admin) {
  const res = await api('POST', '/api/channels', who, { type: 'sandbox', name, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  const secret = (await api('GET', `/api/plugins/channel-sandbox/channels/${id}/secret`, who)).json().secret as string;
  const customer = async (msgId: string, from: string, body: string) => {
    const raw = JSON.stringify({ id: msgId, from: { id: from, name: `Cliente ${from}` }, body });
    const r = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${id}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { ticketId: number };
  };
  return { id, body: res.json(), customer };
}

beforeAll(async () => {
  t = await createTestApp({ plugins: ['channel-sandbox'] });
  t.app.kernel.channelAdapters.set(probe.type, probe);
  admin = await t.loginAs('admin');
  agent = await t.loginAs('user', admin.tenantId);
});
afterAll(async () => {
  await t?.close();
});

describe('channel form', () => {
  it('stores every spec field; credentials stay on the server; birthday hour is a whole hour', async () => {
    const q = await api('POST', '/api/queues', admin, { name: 'Suporte', color: '#112233' });
    const { id, body } = await sandbox('Completo', {
      number: '5511999990000',
      queueId: q.json().id,
      userId: agent.id,
      chatFlowId: 7,
      farewellMessage: 'Até logo!',
      closingKeyword: 'encerrar',
      birthdayMessage: 'Feliz aniversário, {{name}}!',
      birthdayHour: '14:30',
      switches: { webPush: true, autoEvaluation: true, audioTranscription: true, messageDestruction: false },
      transcriptionConfig: '{"provider":"whisper","apiKey":"chave-secreta-123"}',
      wavoipTokens: 'tokenAAAA1, tokenBBBB2 ,tokenAAAA1',
      config: { deliveredAfterMs: 0 },
      secrets: { apiKey: 'segredo-do-provedor-xyz' },
    });
    expect(body).toMatchObject({
      name: 'Completo', number: '5511999990000', queueId: q.json().id, userId: agent.id, chatFlowId: 7, farewellMessage: 'Até logo!', closingKeyword: 'encerrar',
      birthdayMessage: 'Feliz aniversário, {{name}}!', birthdayHour: 14,
      switches: { webPush: true, autoEvaluation: true, audioTranscription: true, autoDistribution: false, messageDestruction: false, disableIntegrationsOnOpen: false, waitIntegrationProcessing: false },
      proxy: { use: false, passwordSet: false }, wavoipTokenCount: 2, transcriptionConfigSet: true, secretsSet: ['apiKey'], status: 'connected',
    });
    for (const url of [`/api/channels/${id}`, '/api/channels']) {
      const text = (await api('GET', url, admin)).body;
      for (const s of ['chave-secreta-123', 'segredo-do-provedor-xyz', 'tokenAAAA1', 'webhookSecret']) expect(text).not.toContain(s);
    }
    const stored = (await t.sql.query('SELECT secrets FROM channels WHERE id = $1', [id])).rows[0].secrets;
    expect(stored).toMatchObject({ apiKey: 'segredo-do-provedor-xyz', wavoipTokens: ['tokenAAAA1', 'tokenBBBB2'], transcriptionConfig: { provider: 'whisper', apiKey: 'chave-secreta-123' } });
    // Editing without secrets keeps them; null removes one.
    const edit = await api('PUT', `/api/channels/${id}`, admin, { birthdayHour: 9, secrets: { apiKey: null }, switches: { webPush: false } });
    expect(edit.json()).toMatchObject({ birthdayHour: 9, secretsSet: [], switches: { webPush: false, autoEvaluation: true } });
  });

  it('editing: a provider field the admin cleared or left out is cleared, while untouched write-only secrets keep their value', async () => {
    const { id, customer } = await sandbox('Edição', { config: { failWhenBodyContains: 'PROIBIDO', deliveredAfterMs: 0, readAfterMs: 600_000 }, secrets: { apiKey: 'segredo-guardado' } });
    const { ticketId } = await customer('edit-1', '5511955550001', 'Oi');
    expect((await api('PUT', `/api/tickets/${ticketId}`, admin, { status: 'open' })).statusCode).toBe(200);
    const statusOf = async (messageId: string) => {
      const msgs = (await api('GET', `/api/messages/${ticketId}`, admin)).json().messages as { id: string; status: string }[];
      return msgs.find((m) => m.id === messageId)?.status;
    };
    const refused = (await api('POST', `/api/messages/${ticketId}`, admin, { body: 'PROIBIDO antes' })).json().id as string;
    await until(async () => (await statusOf(refused)) === 'failed');

    // The form as the shell sends it: the whole config it loaded, the text field blanked, the delay removed, no secret typed.
    const form = (await api('GET', `/api/channels/${id}`, admin)).json() as { name: string; config: Record<string, unknown>; secretsSet: string[] };
    expect(form.config).toEqual({ failWhenBodyContains: 'PROIBIDO', deliveredAfterMs: 0, readAfterMs: 600_000 });
    const { readAfterMs: _removed, ...rest } = form.config;
    const edit = await api('PUT', `/api/channels/${id}`, admin, { name: form.name, config: { ...rest, failWhenBodyContains: '' }, secrets: {} });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ config: { deliveredAfterMs: 0 }, secretsSet: ['apiKey'] });
    expect(edit.json().config).toEqual({ deliveredAfterMs: 0 });
    expect((await api('GET', `/api/channels/${id}`, admin)).json().config).toEqual({ deliveredAfterMs: 0 });

    // The cleared filter no longer refuses: the same text now reaches the customer.
    const sent = (await api('POST', `/api/messages/${ticketId}`, admin, { body: 'PROIBIDO depois' })).json().id as string;
    const outbox = await until(async () => {
      const o = (await api('GET', `/api/plugins/channel-sandbox/channels/${id}/outbox`, admin)).json() as { body: string }[];
      return o.some((m) => m.body === 'PROIBIDO depois') ? o : undefined;
    });
    expect(outbox.map((m) => m.body)).not.toContain('PROIBIDO antes');
    expect(await statusOf(sent)).not.toBe('failed');

    // null clears too; a blank secret keeps the saved one; an edit without config leaves the config alone.
    const again = await api('PUT', `/api/channels/${id}`, admin, { config: { deliveredAfterMs: null, readAfterMs: 5 }, secrets: { apiKey: '  ' } });
    expect(again.json()).toMatchObject({ config: { readAfterMs: 5 }, secretsSet: ['apiKey'] });
    expect(again.json().config).toEqual({ readAfterMs: 5 });
    expect((await t.sql.query('SELECT secrets FROM channels WHERE id = $1', [id])).rows[0].secrets.apiKey).toBe('segredo-guardado');
    const other = await api('PUT', `/api/channels/${id}`, admin, { farewellMessage: 'Tchau' });
    expect(other.json().config).toEqual({ readAfterMs: 5 });
  });

  it('refuses bad settings with catalogue codes', async () => {
    const bad = async (payload: Record<string, unknown>, code: string) => {
      const r = await api('POST', '/api/channels', admin, { type: 'sandbox', name: 'Ruim', ...payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().error).toBe(code);
    };
    await bad({ birthdayHour: 24 }, 'ERR_VALIDATION');
    await bad({ birthdayHour: '7:99' }, 'ERR_VALIDATION');
    await bad({ transcriptionConfig: '{não é json' }, 'ERR_INVALID_JSON');
    await bad({ proxy: { use: true, url: 'http://proxy.local:3128', user: 'u', password: 'p' } }, 'ERR_CHANNEL_NOT_SUPPORTED');
    await bad({ config: { switches: {} } }, 'ERR_VALIDATION');
    await bad({ secrets: { webhookSecret: 'x' } }, 'ERR_VALIDATION');
    const other = await t.loginAs('admin');
    const foreignQueue = await api('POST', '/api/queues', other, { name: 'Alheia', color: '#000000' });
    const r = await api('POST', '/api/channels', admin, { type: 'sandbox', name: 'X', queueId: foreignQueue.json().id });
    expect(r.json().error).toBe('ERR_NOT_FOUND');
  });

  it('an Evolution-style name is stripped at creation and locked afterwards', async () => {
    const r = await api('POST', '/api/channels', admin, { type: 'probe-history', name: 'Minha Instância #1!' });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().name).toBe('MinhaInstancia1');
    const edit = await api('PUT', `/api/channels/${r.json().id}`, admin, { name: 'Outro' });
    expect(edit.json().error).toBe('ERR_CHANNEL_NAME_LOCKED');
    expect((await api('PUT', `/api/channels/${r.json().id}`, admin, { name: 'MinhaInstancia1', farewellMessage: 'tchau' })).statusCode).toBe(200);
  });

  it('the connection limit refuses one channel too many', async () => {
    const tenantId = await t.createTenant({ maxConnections: 1 });
    const a = await t.loginAs('admin', tenantId);
    expect((await api('POST', '/api/channels', a, { type: 'sandbox', name: 'Um' })).statusCode).toBe(201);
    const r = await api('POST', '/api/channels', a, { type: 'sandbox', name: 'Dois' });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ error: 'ERR_CONNECTION_LIMIT', message: 'Limite de conexões atingidas' });
  });

  it('agents see channels without QR codes or settings, and status changes reach them stripped', async () => {
    const { id } = await sandbox('Para agentes', { closingKeyword: 'fim' });
    const list = (await api('GET', '/api/channels', agent)).json() as Record<string, unknown>[];
    const mine = list.find((c) => c.id === id)!;
    expect(mine).toMatchObject({ id, status: 'connected' });
    expect(mine).not.toHaveProperty('config');
    expect(mine).not.toHaveProperty('qrcode');
    expect((await api('GET', `/api/channels/${id}`, agent)).statusCode).toBe(403);
    const sock = await t.openSocket(agent.token);
    await sock.next((f) => f.event === 'hello');
    await t.app.kernel.bus.publish({ tenantId: admin.tenantId, event: 'channel.updated', data: { channel: { id, name: 'x', type: 'sandbox', status: 'qrcode', statusAt: new Date(), qrcode: 'QR-SECRETO' } } });
    const f = await sock.next((x) => x.event === 'channel.updated' && x.data.channel.id === id);
    expect(f.data.channel.status).toBe('qrcode');
    expect(JSON.stringify(f)).not.toContain('QR-SECRETO');
    await sock.close();
  });
});

describe('channel behaviour on tickets', () => {
  it('the closing keyword sent by the customer closes the ticket; the default chat flow applies to new tickets only', async () => {
    const { customer } = await sandbox('Com palavra', { closingKeyword: 'Encerrar', chatFlowId: 42 });
    const first = await customer('ck-1', 'kw-1', 'Olá');
    let row = (await t.sql.query('SELECT status, chatflow_id, chatbot FROM tickets WHERE id = $1', [first.ticketId])).rows[0];
    await until(async () => (row = (await t.sql.query('SELECT status, chatflow_id, chatbot FROM tickets WHERE id = $1', [first.ticketId])).rows[0]).chatflow_id === 42);
    expect(row).toMatchObject({ status: 'pending', chatbot: true });
    await customer('ck-2', 'kw-1', '  encerrar ');
    await until(async () => (await t.sql.query('SELECT status FROM tickets WHERE id = $1', [first.ticketId])).rows[0].status === 'closed');
    const logs = await t.sql.query(`SELECT data->>'reason' AS reason FROM ticket_logs WHERE ticket_id = $1 AND type = 'closed'`, [first.ticketId]);
    expect(logs.rows[0].reason).toBe('closing_keyword');
  });

  it('closes all open or all pending tickets of a channel', async () => {
    const { id, customer } = await sandbox('Fechar todos');
    const a = await customer('ca-1', 'close-a', 'oi');
    const b = await customer('ca-2', 'close-b', 'oi');
    const c = await customer('ca-3', 'close-c', 'oi');
    await api('PUT', `/api/tickets/${a.ticketId}`, admin, { status: 'open' });
    const r = await api('POST', `/api/channels/${id}/close-tickets`, admin, { status: 'pending' });
    expect(r.json()).toEqual({ closed: 2 });
    const st = await t.sql.query('SELECT id, status FROM tickets WHERE id = ANY($1::int[]) ORDER BY id', [[a.ticketId, b.ticketId, c.ticketId]]);
    expect(st.rows.map((x) => x.status)).toEqual(['open', 'closed', 'closed']);
    expect((await api('POST', `/api/channels/${id}/close-tickets`, admin, { status: 'open' })).json()).toEqual({ closed: 1 });
    expect((await api('POST', `/api/channels/${id}/close-tickets`, agent, { status: 'open' })).statusCode).toBe(403);
  });

  it('moves one ticket to another channel, refusing a missing target and a second active ticket', async () => {
    const from = await sandbox('Origem');
    const to = await sandbox('Destino');
    const t1 = await from.customer('mv-1', 'move-1', 'oi');
    const missing = await api('PUT', `/api/ticketsChannelId/${t1.ticketId}`, admin, { channelId: 2_000_000 });
    expect(missing.json()).toMatchObject({ error: 'ERR_TRANSFER_CHANNEL', message: 'Error transferring channel' });
    expect((await api('PUT', `/api/ticketsChannelId/${t1.ticketId}`, admin, {})).json().error).toBe('ERR_REQUIRED_FIELD');
    const moved = await api('PUT', `/api/ticketsChannelId/${t1.ticketId}`, admin, { channelId: to.id });
    expect(moved.json()).toMatchObject({ id: t1.ticketId, channelId: to.id });
    // The same contact writes on the old channel: a new ticket there; moving it onto the target would make two active tickets.
    const t2 = await from.customer('mv-2', 'move-1', 'de novo');
    expect(t2.ticketId).not.toBe(t1.ticketId);
    const conflict = await api('PUT', `/api/ticketsChannelId/${t2.ticketId}`, admin, { channelId: to.id });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: t1.ticketId });
    // Bulk: t2 is skipped for the same reason, another contact's ticket moves.
    const t3 = await from.customer('mv-3', 'move-2', 'oi');
    const bulk = await api('PUT', '/api/ticketsChannel', admin, { fromChannelId: from.id, toChannelId: to.id });
    expect(bulk.json()).toEqual({ moved: 1, skipped: [{ ticketId: t2.ticketId, existingTicketId: t1.ticketId }] });
    expect((await t.sql.query('SELECT channel_id FROM tickets WHERE id = $1', [t3.ticketId])).rows[0].channel_id).toBe(to.id);
    const other = await t.loginAs('admin');
    const foreign = await api('PUT', `/api/ticketsChannelId/${t3.ticketId}`, other, { channelId: from.id });
    expect(foreign.json().error).toBe('ERR_NO_TICKET_FOUND');
  });
});

describe('history import and sync time', () => {
  it('refuses non-positive limits and channels without history import', async () => {
    const { id } = await sandbox('Sem histórico');
    for (const limit of [0, -5, 1.5, '0']) {
      const r = await api('POST', '/api/messages/syncOld', admin, { channelId: id, limit });
      expect(r.json().error, String(limit)).toBe('ERR_POSITIVE_LIMIT');
    }
    const r = await api('POST', '/api/messages/syncOld', admin, { channelId: id, limit: 10 });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('ERR_CHANNEL_NOT_SUPPORTED');
    const dates = await api('POST', '/api/messages/syncOld', admin, { channelId: id, startDate: '2024-02-01T00:00:00Z', endDate: '2024-01-01T00:00:00Z' });
    expect(dates.json().error).toBe('ERR_INVALID_DATE');
  });

  it('imports as a job with progress to the user, marks messages synced, applies the queue and closes what it opened', async () => {
    const ch = await api('POST', '/api/channels', admin, { type: 'probe-history', name: 'Historico', closingKeyword: 'fim' });
    const q = await api('POST', '/api/queues', admin, { name: 'Importados', color: '#445566' });
    const sock = await t.openSocket(admin.token);
    await sock.next((f) => f.event === 'hello');
    const r = await api('POST', '/api/messages/syncOld', admin, { channelId: ch.json().id, startDate: '2024-01-01T00:00:00Z', limit: 50, queueId: q.json().id, closeTickets: true, groups: false });
    expect(r.statusCode, r.body).toBe(202);
    const done = await sock.next((f) => f.event === 'channel.history_progress' && f.data.status === 'done', 15_000);
    expect(done.data).toMatchObject({ importId: r.json().importId, imported: 3, tickets: 2 });
    expect(sock.frames.some((f) => f.event === 'channel.history_progress' && f.data.status === 'running' && f.data.total === 3)).toBe(true);
    expect(historyCalls.at(-1)).toMatchObject({ limitPerChat: 50, groups: false, deviceMessages: true });
    expect(historyCalls.at(-1)!.from?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    const msgs = await t.sql.query(`SELECT m.synced, t.status, t.queue_id, t.unread_messages, t.last_message FROM messages m JOIN tickets t ON t.id = m.ticket_id WHERE m.channel_id = $1 ORDER BY m.id`, [ch.json().id]);
    expect(msgs.rows).toHaveLength(3);
    for (const m of msgs.rows) expect(m).toMatchObject({ synced: true, status: 'closed', queue_id: q.json().id, unread_messages: 0 });
    // The closing keyword in old history did not act (imports run no inbound hooks): closed by the import, logged as such.
    const reasons = await t.sql.query(`SELECT DISTINCT data->>'reason' AS reason FROM ticket_logs l JOIN tickets t ON t.id = l.ticket_id WHERE t.channel_id = $1 AND l.type = 'closed'`, [ch.json().id]);
    expect(reasons.rows).toEqual([{ reason: 'history_import' }]);
    expect(sock.frames.filter((f) => f.event === 'message.created')).toHaveLength(0);
    const imports = await api('GET', `/api/channels/${ch.json().id}/imports`, admin);
    expect(imports.json()[0]).toMatchObject({ status: 'done', imported: 3, total: 3 });
    // By contact: only that conversation is asked for.
    const contact = await t.sql.query(`SELECT contact_id FROM contact_identities WHERE kind = 'probe' AND external_id = 'hist-2'`);
    const byUser = await api('POST', '/api/messages/syncOldByUser', admin, { channelId: ch.json().id, contactId: contact.rows[0].contact_id, limit: 5 });
    expect(byUser.statusCode, byUser.body).toBe(202);
    await until(async () => historyCalls.at(-1)?.contact?.externalId === 'hist-2');
    await sock.close();
  });

  it('records the sync time for the caller’s own tenant only', async () => {
    const other = await t.createTenant();
    expect((await api('POST', '/api/messagesUpdateSyncTime', admin, { tenantId: other })).statusCode).toBe(403);
    const ok = await api('POST', '/api/messagesUpdateSyncTime', admin, { tenantId: admin.tenantId });
    expect(ok.statusCode).toBe(200);
    const s = await t.sql.query(`SELECT tenant_id, value FROM settings WHERE key = 'messagesSyncTime'`);
    expect(s.rows).toEqual([{ tenant_id: admin.tenantId, value: ok.json().syncTime }]);
  });
});

describe('channels across tenants', () => {
  it('the superadmin lists every tenant’s channels; others are refused', async () => {
    const root = await t.loginAs('superadmin');
    const otherTenant = await t.createTenant({ name: 'Outra Empresa' });
    const otherAdmin = await t.loginAs('admin', otherTenant);
    await api('POST', '/api/channels', otherAdmin, { type: 'sandbox', name: 'Canal da outra' });
    const all = await api('GET', '/api/channels/all', root);
    expect(all.statusCode).toBe(200);
    const tenants = new Set((all.json().channels as { tenantId: number }[]).map((c) => c.tenantId));
    expect(tenants.has(admin.tenantId) && tenants.has(otherTenant)).toBe(true);
    expect(all.body).not.toContain('webhookSecret');
    const filtered = await api('GET', `/api/channels/all?tenantId=${otherTenant}`, root);
    expect(filtered.json().channels).toEqual([expect.objectContaining({ name: 'Canal da outra', tenantName: 'Outra Empresa' })]);
    expect((await api('GET', '/api/channels/all', admin)).statusCode).toBe(403);
  });
});
