import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';
import { signSandbox } from '../../../../plugins/channel-sandbox/src/index.ts';

let t: TestApp;
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;
let carla: TestUser;
let atendimento: number;
let financeiro: number;

const put = (u: TestUser, url: string, payload: unknown) => t.app.inject({ method: 'PUT', url, headers: u.headers, payload: payload as object });
const get = (u: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: u.headers });
/** The queue's members among a presence list (ticket admins are offered for every queue). */
type Listed = { id: number; name: string; profile: string; status: string; pauseReason: string | null; openTickets: number };
const agents = (users: Listed[]) => users.filter((u) => u.profile === 'user');

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  ana = await t.loginAs('user', admin.tenantId);
  bruno = await t.loginAs('user', admin.tenantId);
  carla = await t.loginAs('user', admin.tenantId);
  atendimento = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Atendimento' } })).json().id;
  financeiro = (await t.app.inject({ method: 'POST', url: '/api/queues', headers: admin.headers, payload: { name: 'Financeiro' } })).json().id;
  for (const [u, name, queues] of [[ana, 'Ana', [atendimento]], [bruno, 'Bruno', [financeiro]], [carla, 'Carla', [financeiro]]] as const) {
    await t.sql.query('UPDATE users SET name = $2, queues = $3, is_online = true WHERE id = $1', [u.id, name, JSON.stringify(queues)]);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('presence and transfer', () => {
  it('an agent pauses with a reason (required), colleagues see the status, only supervisors the reason', async () => {
    const noReason = await put(bruno, '/api/presence', { status: 'paused' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe('ERR_VALIDATION');
    expect((await t.sql.query('SELECT presence FROM users WHERE id = $1', [bruno.id])).rows[0].presence).toBe('online');
    expect((await put(bruno, '/api/presence', { status: 'busy' })).statusCode).toBe(400);

    const sock = await t.openSocket(admin.token);
    await sock.next((f) => f.event === 'hello');
    const paused = await put(bruno, '/api/presence', { status: 'paused', reason: 'Almoço' });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ status: 'paused', pauseReason: 'Almoço' });
    const ev = await sock.next((f) => f.event === 'user.status_updated' && f.data.id === bruno.id);
    expect(ev.data.presence).toBe('paused');

    const bySupervisor = agents((await get(admin, `/api/presence?queueId=${financeiro}`)).json().users);
    expect(bySupervisor.map((u: { name: string }) => u.name)).toEqual(['Carla', 'Bruno']);
    expect(bySupervisor[1]).toMatchObject({ status: 'paused', pauseReason: 'Almoço' });
    const byColleague = agents((await get(ana, `/api/presence?queueId=${financeiro}`)).json().users);
    expect(byColleague[1]).toMatchObject({ name: 'Bruno', status: 'paused', pauseReason: null });
    // Closing the app makes anyone offline, whatever they chose.
    await t.sql.query('UPDATE users SET is_online = false WHERE id = $1', [carla.id]);
    expect(agents((await get(admin, `/api/presence?queueId=${financeiro}`)).json().users).map((u: { name: string; status: string }) => `${u.name}:${u.status}`)).toEqual(['Bruno:paused', 'Carla:offline']);
    await t.sql.query('UPDATE users SET is_online = true WHERE id = $1', [carla.id]);
    await put(bruno, '/api/presence', { status: 'online' });
  });

  it('a transfer with a note writes the system line the receiver reads; the list counts the receiver\'s open tickets', async () => {
    const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Maria', number: '5511977776666' } })).json();
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/tickets', headers: admin.headers, payload: { contactId: contact.id, channelId: ch.json().id, status: 'open', userId: ana.id, queueId: atendimento } })).json();
    expect(ticket.userId).toBe(ana.id);

    const stray = await put(ana, `/api/tickets/${ticket.id}`, { notes: 'x', transferNote: 'sem transferência' });
    expect(stray.statusCode).toBe(400);
    const res = await put(ana, `/api/tickets/${ticket.id}`, { queueId: financeiro, userId: bruno.id, transferNote: 'Cliente quer 2ª via do boleto' });
    expect(res.statusCode).toBe(200);
    const msgs = (await get(bruno, `/api/messages/${ticket.id}`)).json().messages;
    const line = msgs.find((m: { type: string }) => m.type === 'system');
    expect(line).toMatchObject({ isNote: true, body: 'Transferido de Atendimento (Ana) para Financeiro (Bruno) por Ana\nObservação: Cliente quer 2ª via do boleto' });
    // Its parts, which the screens word as a transfer line (not a plain note).
    expect(line.system).toMatchObject({ system: 'transfer', note: 'Cliente quer 2ª via do boleto' });
    // Never sent to the customer.
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM message_sends WHERE message_id = $1`, [line.id])).rows[0].n).toBe(0);
    const list = agents((await get(ana, `/api/presence?queueId=${financeiro}`)).json().users);
    expect(list.find((u: { name: string }) => u.name === 'Bruno')).toMatchObject({ openTickets: 1, status: 'online' });
    expect(list.map((u: { name: string }) => u.name)).toEqual(['Carla', 'Bruno']);
  });

  it('lists all of a contact\'s tickets to an agent, the ones visibility keeps from them without content and not openable', async () => {
    const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Joana', number: '5511955554444' } })).json();
    const mk = async (status: string, userId: number, queueId: number, last: string) =>
      (await t.sql.query<{ id: number }>(`INSERT INTO tickets (tenant_id, contact_id, status, user_id, queue_id, last_message, closed_at) VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $3 = 'closed' THEN now() END) RETURNING id`, [admin.tenantId, contact.id, status, userId, queueId, last])).rows[0]!.id;
    const theirs = await mk('closed', bruno.id, financeiro, 'segredo do financeiro');
    const mine = await mk('open', ana.id, atendimento, 'oi Ana');
    // Whatever the tenant shows of closed tickets, Bruno's open one in Financeiro is not Ana's to read.
    const hidden = await mk('closed', bruno.id, financeiro, 'outro segredo');
    // (On another channel: one active ticket per contact and channel.)
    await t.sql.query(`UPDATE tickets SET status = 'open', closed_at = NULL, channel_id = (SELECT id FROM channels WHERE tenant_id = $2 LIMIT 1) WHERE id = $1`, [hidden, admin.tenantId]);
    const res = await get(ana, `/api/contacts/${contact.id}/tickets`);
    expect(res.statusCode).toBe(200);
    const list = res.json().tickets as Array<{ id: number; canOpen: boolean; lastMessage: string | null; user: { name: string } | null; queue: { name: string } | null }>;
    expect(list.map((x) => x.id)).toEqual([hidden, mine, theirs]);
    expect(list.find((x) => x.id === mine)).toMatchObject({ canOpen: true, lastMessage: 'oi Ana' });
    const other = list.find((x) => x.id === hidden)!;
    expect(other).toMatchObject({ canOpen: false, lastMessage: null, user: { name: 'Bruno' }, queue: { name: 'Financeiro' } });
    expect((await get(ana, `/api/tickets/${hidden}`)).statusCode).toBe(404);
    // Another tenant's contact is not found.
    const stranger = await t.loginAs('admin');
    expect((await get(stranger, `/api/contacts/${contact.id}/tickets`)).statusCode).toBe(404);
  });

  it('a transfer goes only to someone who works the chosen queue or a ticket admin, as the dialog offers', async () => {
    const dora = await t.loginAs('user', admin.tenantId);
    const sup = await t.loginAs('super', admin.tenantId);
    await t.sql.query(`UPDATE users SET name = 'Dora', queues = '[]' WHERE id = $1`, [dora.id]);
    await t.sql.query(`UPDATE users SET name = 'Sueli', queues = '[]' WHERE id = $1`, [sup.id]);
    const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Rita', number: '5511933332222' } })).json();
    const channelId = (await t.sql.query<{ id: number }>('SELECT id FROM channels WHERE tenant_id = $1 ORDER BY id LIMIT 1', [admin.tenantId])).rows[0]!.id;
    const created = await t.app.inject({ method: 'POST', url: '/api/tickets', headers: admin.headers, payload: { contactId: contact.id, channelId, status: 'open', userId: ana.id, queueId: atendimento } });
    expect(created.statusCode).toBe(201);
    const ticket = created.json();
    // Opening a ticket in someone else's name follows the same rule.
    const other = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.headers, payload: { name: 'Paulo', number: '5511922221111' } })).json();
    const forStranger = await t.app.inject({ method: 'POST', url: '/api/tickets', headers: admin.headers, payload: { contactId: other.id, channelId, status: 'open', userId: bruno.id, queueId: atendimento } });
    expect(forStranger.statusCode).toBe(400);
    expect(forStranger.json().error).toBe('ERR_TRANSFER_USER_NOT_IN_QUEUE');

    for (const [userId, queueId] of [[carla.id, atendimento], [dora.id, financeiro], [carla.id, undefined]] as const) {
      const res = await put(ana, `/api/tickets/${ticket.id}`, { userId, ...(queueId ? { queueId } : {}) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_TRANSFER_USER_NOT_IN_QUEUE', message: 'Não foi possível transferir: o usuário selecionado não atende a fila escolhida' });
    }
    // The panel's bulk transfer: refused as a whole, nothing moved.
    const bulk = await t.app.inject({ method: 'POST', url: '/api/tickets/bulk-transfer', headers: admin.headers, payload: { ticketIds: [ticket.id], userId: carla.id, queueId: atendimento } });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().error).toBe('ERR_TRANSFER_USER_NOT_IN_QUEUE');
    const still = (await get(ana, `/api/tickets/${ticket.id}`)).json();
    expect(still).toMatchObject({ userId: ana.id, queueId: atendimento });
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM ticket_logs WHERE ticket_id = $1 AND type = 'transferred'`, [ticket.id])).rows[0].n).toBe(0);

    // The dialog's list for Financeiro: its members and the ticket admins (who have no queue), never Ana nor Dora.
    const names = async () => ((await get(ana, `/api/presence?queueId=${financeiro}`)).json().users as { name: string }[]).map((u) => u.name).sort();
    expect(await names()).toEqual([(await t.sql.query('SELECT name FROM users WHERE id = $1', [admin.id])).rows[0].name, 'Bruno', 'Carla', 'Sueli'].sort());
    // A supervisor works every queue too…
    const toSup = await put(ana, `/api/tickets/${ticket.id}`, { userId: sup.id, queueId: financeiro });
    expect(toSup.statusCode).toBe(200);
    expect(toSup.json()).toMatchObject({ userId: sup.id, queueId: financeiro });
    const toAdmin = await put(sup, `/api/tickets/${ticket.id}`, { userId: admin.id, queueId: atendimento });
    expect(toAdmin.json()).toMatchObject({ userId: admin.id, queueId: atendimento });
    // …unless supervisorAdmin makes supervisors regular users: then neither offered nor accepted.
    expect((await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { supervisorAdmin: 'enabled' } })).statusCode).toBe(200);
    try {
      // Visibility settings are cached up to 2 s per node (visibility.ts): wait for the change to apply.
      await vi.waitFor(async () => expect(await names()).not.toContain('Sueli'), { timeout: 6000, interval: 200 });
      const refused = await put(admin, `/api/tickets/${ticket.id}`, { userId: sup.id, queueId: financeiro });
      expect(refused.json().error).toBe('ERR_TRANSFER_USER_NOT_IN_QUEUE');
      expect((await put(admin, `/api/tickets/${ticket.id}`, { userId: bruno.id, queueId: financeiro })).json()).toMatchObject({ userId: bruno.id, queueId: financeiro });
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { supervisorAdmin: 'disabled' } });
    }
  });

  it('a new ticket does not go to the channel\'s default user while they paused or chose offline; it waits in the queue', async () => {
    const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Padrão Bruno', queueId: financeiro, userId: bruno.id } })).json();
    const secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${ch.id}/secret`, headers: admin.headers })).json().secret;
    const inbound = async (id: string, from: string) => {
      const raw = JSON.stringify({ id, from: { id: from, name: `Cliente ${from}`, number: from }, body: 'Olá' });
      const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${ch.id}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw });
      expect(res.statusCode).toBe(200);
      return (await t.sql.query<{ user_id: number | null; status: string; queue_id: number }>(`SELECT t.user_id, t.status, t.queue_id FROM tickets t JOIN messages m ON m.ticket_id = t.id WHERE m.provider_id = $1 AND m.channel_id = $2`, [id, ch.id])).rows[0];
    };
    expect(await inbound('p-1', '5511911110001')).toMatchObject({ user_id: bruno.id, status: 'open', queue_id: financeiro });
    await put(bruno, '/api/presence', { status: 'paused', reason: 'Almoço' });
    expect(await inbound('p-2', '5511911110002')).toMatchObject({ user_id: null, status: 'pending', queue_id: financeiro });
    await put(bruno, '/api/presence', { status: 'offline' });
    expect(await inbound('p-3', '5511911110003')).toMatchObject({ user_id: null, status: 'pending' });
    // Back online (even with the app closed: they chose to work), new tickets are theirs again.
    await put(bruno, '/api/presence', { status: 'online' });
    await t.sql.query('UPDATE users SET is_online = false WHERE id = $1', [bruno.id]);
    expect(await inbound('p-4', '5511911110004')).toMatchObject({ user_id: bruno.id, status: 'open' });
    await t.sql.query('UPDATE users SET is_online = true WHERE id = $1', [bruno.id]);
  });
});
