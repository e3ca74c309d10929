import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';

let t: TestApp;
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;
let carla: TestUser;
let atendimento: number;
let financeiro: number;

const put = (u: TestUser, url: string, payload: unknown) => t.app.inject({ method: 'PUT', url, headers: u.headers, payload: payload as object });
const get = (u: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: u.headers });

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

    const bySupervisor = (await get(admin, `/api/presence?queueId=${financeiro}`)).json().users;
    expect(bySupervisor.map((u: { name: string }) => u.name)).toEqual(['Carla', 'Bruno']);
    expect(bySupervisor[1]).toMatchObject({ status: 'paused', pauseReason: 'Almoço' });
    const byColleague = (await get(ana, `/api/presence?queueId=${financeiro}`)).json().users;
    expect(byColleague[1]).toMatchObject({ name: 'Bruno', status: 'paused', pauseReason: null });
    // Closing the app makes anyone offline, whatever they chose.
    await t.sql.query('UPDATE users SET is_online = false WHERE id = $1', [carla.id]);
    expect((await get(admin, `/api/presence?queueId=${financeiro}`)).json().users.map((u: { name: string; status: string }) => `${u.name}:${u.status}`)).toEqual(['Bruno:paused', 'Carla:offline']);
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
    // Never sent to the customer.
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM message_sends WHERE message_id = $1`, [line.id])).rows[0].n).toBe(0);
    const list = (await get(ana, `/api/presence?queueId=${financeiro}`)).json().users;
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
});
