import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../testing/index.ts';
import { signSandbox } from '../../../../plugins/channel-sandbox/src/index.ts';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let channelId: number;
let secret: string;

async function webhook(payload: unknown, sig?: string) {
  const raw = JSON.stringify(payload);
  return t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${channelId}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': sig ?? signSandbox(secret, raw) }, payload: raw });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  agent = await t.loginAs('user', admin.tenantId);
  const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox', farewellMessage: 'Obrigado pelo contato!' } });
  expect(ch.statusCode).toBe(201);
  channelId = ch.json().id;
  expect(ch.json().status).toBe('connected');
  secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/secret`, headers: admin.headers })).json().secret;
});
afterAll(async () => {
  await t?.close();
});

describe('inbound conversation', () => {
  it('refuses an unsigned or tampered webhook and stores nothing', async () => {
    const bad = await webhook({ id: 'x1', from: { id: 'c1', name: 'Ana' }, body: 'oi' }, 'sha256=00');
    expect(bad.statusCode).toBe(401);
    const raw = JSON.stringify({ id: 'x2', from: { id: 'c1' }, body: 'oi' });
    const tampered = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${channelId}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw.replace('oi', 'tchau') });
    expect(tampered.statusCode).toBe(401);
    const n = await t.sql.query('SELECT count(*)::int AS n FROM messages');
    expect(n.rows[0].n).toBe(0);
  });

  it('a customer message creates a pending ticket that an agent sees live, replies to and the customer receives', async () => {
    const sock = await t.openSocket(agent.token);
    await sock.next((f) => f.event === 'hello');
    const res = await webhook({ id: 'wamid-1', from: { id: '5511999990001', name: 'Maria Souza', number: '5511999990001' }, body: 'Olá, preciso de ajuda' });
    expect(res.statusCode).toBe(200);
    expect(res.json().duplicate).toBe(false);
    const created = await sock.next((f) => f.event === 'message.created');
    expect(created.data.message.body).toBe('Olá, preciso de ajuda');
    const ticketId = created.data.ticket.id;

    const list = await t.app.inject({ method: 'GET', url: '/api/tickets?status=pending', headers: agent.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().tickets.map((x: { id: number }) => x.id)).toContain(ticketId);
    expect(list.json().tickets[0].contact.name).toBe('Maria Souza');
    expect(list.json().counts.pending).toBe(1);

    const start = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open' } });
    expect(start.statusCode).toBe(200);
    expect(start.json()).toMatchObject({ status: 'open', userId: agent.id });

    const sent = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: agent.headers, payload: { body: 'Claro! Como posso ajudar?' } });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().status).toBe('pending');
    const outbox = await until<{ to: string; body: string }[]>(async () => {
      const o = await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: agent.headers });
      return o.json().length ? o.json() : undefined;
    });
    expect(outbox[0]).toMatchObject({ to: '5511999990001', body: 'Claro! Como posso ajudar?' });
    const ack = await sock.next((f) => f.event === 'message.ack_updated' && f.data.message.id === sent.json().id);
    expect(ack.data.message.status).toBe('sent');

    const msgs = await t.app.inject({ method: 'GET', url: `/api/messages/${ticketId}`, headers: agent.headers });
    expect(msgs.json().messages.map((m: { body: string }) => m.body)).toEqual(['Olá, preciso de ajuda', 'Claro! Como posso ajudar?']);
    expect(msgs.json().hasMore).toBe(false);
  });

  it('R4: a webhook replayed concurrently stores one message, one ticket, one event', async () => {
    const sock = await t.openSocket(admin.token);
    await sock.next((f) => f.event === 'hello');
    const payload = { id: 'wamid-dup', from: { id: '5511988887777', name: 'João' }, body: 'Mensagem repetida' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => webhook(payload)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    const msgs = await t.sql.query(`SELECT count(*)::int AS n FROM messages WHERE provider_id = 'wamid-dup'`);
    expect(msgs.rows[0].n).toBe(1);
    const tickets = await t.sql.query(`SELECT count(*)::int AS n FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE c.name = 'João'`);
    expect(tickets.rows[0].n).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(sock.frames.filter((f) => f.event === 'message.created' && f.data.message.body === 'Mensagem repetida')).toHaveLength(1);
  });

  it('R4: first messages of one new contact arriving together create one ticket', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => webhook({ id: `burst-${i}`, from: { id: 'new-contact-77', name: 'Pedro' }, body: `msg ${i}` })));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const r = await t.sql.query(`SELECT count(DISTINCT t.id)::int AS tickets, count(DISTINCT c.id)::int AS contacts, count(m.id)::int AS msgs FROM contacts c JOIN tickets t ON t.contact_id = c.id JOIN messages m ON m.ticket_id = t.id WHERE c.name = 'Pedro'`);
    expect(r.rows[0]).toEqual({ tickets: 1, contacts: 1, msgs: 6 });
  });

  it('R4: bursts of first messages from several new contacts, over two batches in flight, give one ticket per contact and lose nothing', async () => {
    // Two batches of one node can both hold first messages of these contacts and meet on the
    // tenant's protocol counter: whatever waits or deadlocks must end in one ticket each, all stored.
    const send = (round: number) =>
      Promise.all(Array.from({ length: 24 }, (_, i) => webhook({ id: `multi-${round}-${i}`, from: { id: `multi-${i % 4}`, name: `Multi ${i % 4}` }, body: `r${round} ${i}` })));
    const answers = [...(await send(1)), ...(await send(2))];
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
    const r = await t.sql.query(
      `SELECT c.name, count(DISTINCT t.id)::int AS tickets, count(m.id)::int AS msgs, max(t.unread_messages) AS unread
         FROM contacts c JOIN tickets t ON t.contact_id = c.id JOIN messages m ON m.ticket_id = t.id WHERE c.name LIKE 'Multi %' GROUP BY c.name ORDER BY c.name`,
    );
    expect(r.rows).toEqual([0, 1, 2, 3].map((i) => ({ name: `Multi ${i}`, tickets: 1, msgs: 12, unread: 12 })));
  });

  it('messages that share an ingest batch count once each on their ticket, and the newest stored one is its preview', async () => {
    // Together they go into one or a few batches: the counters are applied once per ticket per batch.
    const burst = (from: string, n: number, tag: string) => Array.from({ length: n }, (_, i) => webhook({ id: `${tag}-${i}`, from: { id: from, name: from }, body: `${tag} ${i}` }));
    const first = await Promise.all([...burst('count-a', 7, 'a1'), ...burst('count-b', 3, 'b1')]);
    expect(first.every((a) => a.statusCode === 200)).toBe(true);
    const again = await Promise.all([...burst('count-a', 4, 'a2'), ...burst('count-b', 5, 'b2')]);
    expect(again.every((a) => a.statusCode === 200)).toBe(true);
    const r = await t.sql.query(
      `SELECT c.name, count(DISTINCT t.id)::int AS tickets, max(t.unread_messages) AS unread, max(t.last_message) AS preview,
              (SELECT m.body FROM messages m WHERE m.ticket_id = max(t.id) ORDER BY m.id DESC LIMIT 1) AS newest,
              bool_and(t.last_message_at >= (SELECT max(m.timestamp) FROM messages m WHERE m.ticket_id = t.id)) AS at_ok
         FROM contacts c JOIN tickets t ON t.contact_id = c.id WHERE c.name IN ('count-a', 'count-b') GROUP BY c.name ORDER BY c.name`,
    );
    expect(r.rows.map((x) => ({ name: x.name, tickets: x.tickets, unread: x.unread, atOk: x.at_ok, previewIsNewest: x.preview === x.newest }))).toEqual([
      { name: 'count-a', tickets: 1, unread: 11, atOk: true, previewIsNewest: true },
      { name: 'count-b', tickets: 1, unread: 8, atOk: true, previewIsNewest: true },
    ]);
  });

  it('R4: shuffled status callbacks never move a message backwards', async () => {
    const first = await webhook({ id: 'wamid-ack', from: { id: 'ack-contact', name: 'Carla' }, body: 'oi' });
    const ticketId = first.json().ticketId;
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: admin.headers, payload: { status: 'open' } });
    const sent = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: admin.headers, payload: { body: 'resposta' } });
    const providerId = await until(async () => (await t.sql.query(`SELECT provider_id FROM messages WHERE id = $1 AND provider_id IS NOT NULL`, [sent.json().id])).rows[0]?.provider_id);
    for (const status of ['read', 'sent', 'delivered', 'failed', 'sent']) await webhook({ ack: { id: providerId, status } });
    const r = await t.sql.query(`SELECT status FROM messages WHERE id = $1`, [sent.json().id]);
    expect(r.rows[0].status).toBe('read');
  });
});

describe('ticket rules', () => {
  it('refuses a second open ticket for the same contact and channel, offering the existing one', async () => {
    const w = await webhook({ id: 'wamid-dupticket', from: { id: 'c-dupe', name: 'Lia' }, body: 'oi' });
    const contactId = (await t.sql.query(`SELECT contact_id FROM tickets WHERE id = $1`, [w.json().ticketId])).rows[0].contact_id;
    const res = await t.app.inject({ method: 'POST', url: '/api/tickets', headers: agent.headers, payload: { contactId, channelId } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', message: 'Já existe um ticket aberto/pendente para esse contato', ticketId: w.json().ticketId, canOpen: true });
  });

  it('transfer refuses the current owner; resolve with farewell sends it and closes', async () => {
    const w = await webhook({ id: 'wamid-tr', from: { id: 'c-tr', name: 'Rui' }, body: 'preciso de ajuda' });
    const ticketId = w.json().ticketId;
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open' } });
    const same = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: admin.headers, payload: { userId: agent.id } });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('Ticket já pertence ao usuário selecionado');
    const moved = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { userId: admin.id } });
    expect(moved.json()).toMatchObject({ userId: admin.id, status: 'open' });
    const resolve = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: admin.headers, payload: { status: 'closed', sendFarewell: true } });
    expect(resolve.statusCode).toBe(200);
    const closed = await until(async () => (await t.sql.query(`SELECT status FROM tickets WHERE id = $1 AND status = 'closed'`, [ticketId])).rows[0]);
    expect(closed.status).toBe('closed');
    const out = await t.sql.query(`SELECT body FROM channel_sandbox_outbox WHERE body = 'Obrigado pelo contato!'`);
    expect(out.rowCount).toBe(1);
    const logs = await t.app.inject({ method: 'GET', url: `/api/tickets/${ticketId}/logs`, headers: admin.headers });
    expect(logs.json().map((l: { type: string }) => l.type)).toEqual(expect.arrayContaining(['created', 'started', 'transferred', 'farewell_sent', 'closed']));
  });

  it('fills template variables in replies (quick messages) and farewells, never in internal notes', async () => {
    const w = await webhook({ id: 'wamid-tpl', from: { id: 'c-tpl', name: 'Helena Prado' }, body: 'oi' });
    const ticketId = w.json().ticketId;
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open' } });
    const protocol = (await t.sql.query(`SELECT protocol FROM tickets WHERE id = $1`, [ticketId])).rows[0].protocol;
    const agentName = (await t.sql.query(`SELECT name FROM users WHERE id = $1`, [agent.id])).rows[0].name;
    const reply = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: agent.headers, payload: { body: 'Olá {{firstName}}, sou {{user}}. Protocolo {{protocol}} {{desconhecida}}' } });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().body).toBe(`Olá Helena, sou ${agentName}. Protocolo ${protocol} {{desconhecida}}`);
    const note = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: agent.headers, payload: { body: 'lembrar {{name}}', isNote: true } });
    expect(note.json().body).toBe('lembrar {{name}}');
    const outbox = await until(async () => (await t.sql.query(`SELECT body FROM channel_sandbox_outbox WHERE body LIKE 'Olá Helena%'`)).rows[0]);
    expect(outbox.body).toContain('Olá Helena');
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'closed', sendFarewell: true, farewellMessage: 'Até logo, {{name}}!' } });
    const bye = await until(async () => (await t.sql.query(`SELECT body FROM messages WHERE ticket_id = $1 AND data ? 'farewell'`, [ticketId])).rows[0]);
    expect(bye.body).toBe('Até logo, Helena Prado!');
  });

  it('a rating request keeps the ticket open until the customer answers 0–5', async () => {
    const w = await webhook({ id: 'wamid-rate', from: { id: 'c-rate', name: 'Bia' }, body: 'oi' });
    const ticketId = w.json().ticketId;
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: admin.headers, payload: { status: 'open' } });
    const r = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: admin.headers, payload: { status: 'closed', sendRating: true } });
    expect(r.json().status).toBe('open');
    expect(r.json().ratingRequested).toBe(true);
    await webhook({ id: 'wamid-rate-2', from: { id: 'c-rate', name: 'Bia' }, body: '5' });
    const after = await t.sql.query(`SELECT status, rating FROM tickets WHERE id = $1`, [ticketId]);
    expect(after.rows[0]).toEqual({ status: 'closed', rating: 5 });
  });

  it('a plain user cannot take over a ticket another agent is attending; an admin can', async () => {
    const other = await t.loginAs('user', admin.tenantId);
    const w = await webhook({ id: 'wamid-take', from: { id: 'c-take', name: 'Téo' }, body: 'oi' });
    const ticketId = w.json().ticketId;
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open' } });
    const take = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: other.headers, payload: { userId: other.id } });
    expect(take.statusCode).toBe(403);
    const force = await t.app.inject({ method: 'PUT', url: `/api/ticketsForce/${ticketId}`, headers: other.headers });
    expect(force.statusCode).toBe(403);
    const adminForce = await t.app.inject({ method: 'PUT', url: `/api/ticketsForce/${ticketId}`, headers: admin.headers });
    expect(adminForce.json().status).toBe('closed');
  });

  it('another tenant sees none of it', async () => {
    const stranger = await t.loginAs('admin');
    const list = await t.app.inject({ method: 'GET', url: '/api/tickets?status=open,pending,closed&showAll=true', headers: stranger.headers });
    expect(list.json().tickets).toEqual([]);
    const anyTicket = (await t.sql.query(`SELECT id FROM tickets LIMIT 1`)).rows[0].id;
    for (const url of [`/api/tickets/${anyTicket}`, `/api/messages/${anyTicket}`, `/api/tickets/${anyTicket}/logs`]) {
      const r = await t.app.inject({ method: 'GET', url, headers: stranger.headers });
      expect(r.statusCode).toBe(404);
    }
    const put = await t.app.inject({ method: 'PUT', url: `/api/tickets/${anyTicket}`, headers: stranger.headers, payload: { status: 'closed' } });
    expect(put.statusCode).toBe(404);
    const send = await t.app.inject({ method: 'POST', url: `/api/messages/${anyTicket}`, headers: stranger.headers, payload: { body: 'x' } });
    expect(send.statusCode).toBe(404);
    const outbox = await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: stranger.headers });
    expect(outbox.statusCode).toBe(404);
  });
});

describe('interactive and forward rules', () => {
  it('validates button messages and forward limits', async () => {
    const w = await webhook({ id: 'wamid-btn', from: { id: 'c-btn', name: 'Nina' }, body: 'oi' });
    const ticketId = w.json().ticketId;
    const long = await t.app.inject({ method: 'POST', url: '/api/sendButton', headers: admin.headers, payload: { ticketId, body: 'x'.repeat(61), buttons: [{ label: 'Sim', value: 's' }] } });
    expect(long.statusCode).toBe(400);
    const dupe = await t.app.inject({ method: 'POST', url: '/api/sendButton', headers: admin.headers, payload: { ticketId, body: 'Confirma?', buttons: [{ label: 'Sim', value: 's' }, { label: 'Claro', value: 's' }] } });
    expect(dupe.statusCode).toBe(400);
    const ok = await t.app.inject({ method: 'POST', url: '/api/sendButton', headers: admin.headers, payload: { ticketId, body: 'Confirma?', buttons: [{ label: 'Sim', value: 's' }, { label: 'Não', value: 'n' }] } });
    expect(ok.statusCode).toBe(201);
    const ids = Array.from({ length: 11 }, () => ok.json().id);
    const fwd = await t.app.inject({ method: 'POST', url: '/api/forward-messages', headers: admin.headers, payload: { messages: ids, contact: 1 } });
    expect(fwd.statusCode).toBe(400);
    expect(fwd.json().error).toBe('ERR_FORWARD_LIMIT');
  });

  it('a forwarded message reads as forwarded; the original does not', async () => {
    const w = await webhook({ id: 'wamid-fwd-src', from: { id: 'c-fwd-1', name: 'Otto' }, body: 'Segue o boleto' });
    const src = (await t.app.inject({ method: 'GET', url: `/api/messages/${w.json().ticketId}`, headers: admin.headers })).json().messages[0];
    expect(src.forwarded).toBe(false);
    const other = await webhook({ id: 'wamid-fwd-dst', from: { id: 'c-fwd-2', name: 'Paula' }, body: 'oi' });
    const contactId = (await t.sql.query('SELECT contact_id FROM tickets WHERE id = $1', [other.json().ticketId])).rows[0].contact_id;
    const fwd = await t.app.inject({ method: 'POST', url: '/api/forward-messages', headers: admin.headers, payload: { messages: [src.id], contact: contactId } });
    expect(fwd.statusCode, fwd.body).toBe(200);
    expect(fwd.json().messages[0]).toMatchObject({ body: 'Segue o boleto', forwarded: true });
    const listed = (await t.app.inject({ method: 'GET', url: `/api/messages/${fwd.json().ticketId}`, headers: admin.headers })).json().messages;
    expect(listed.find((m: { body: string }) => m.body === 'Segue o boleto')).toMatchObject({ forwarded: true, fromMe: true });
  });

  it('a reply the provider refused shows its reason and code, and is sent again on request, once', async () => {
    const w = await webhook({ id: 'wamid-retry', from: { id: '5511977771234', name: 'Quitéria' }, body: 'oi' });
    const ticketId = w.json().ticketId;
    expect((await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: agent.headers, payload: { status: 'open' } })).statusCode).toBe(200);
    const refuse = (text: string | undefined) => t.app.inject({ method: 'PUT', url: `/api/channels/${channelId}`, headers: admin.headers, payload: { config: { failWhenBodyContains: text } } });
    expect((await refuse('PROMO')).statusCode).toBe(200);
    const sock = await t.openSocket(agent.token);
    await sock.next((f) => f.event === 'hello');
    const sent = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: agent.headers, payload: { body: 'PROMO de hoje' } });
    expect(sent.statusCode).toBe(201);
    const failed = await sock.next((f) => f.event === 'message.ack_updated' && f.data.message.id === sent.json().id && f.data.message.status === 'failed');
    expect(failed.data.message).toMatchObject({ failureReason: 'O provedor simulado recusou a mensagem', errorCode: 'ERR_SENDING_WAPP_MSG' });

    // Still refused: a retry fails again with its reason; then, the provider accepting, the same message goes out once.
    const before = sock.frames.length;
    const again = await t.app.inject({ method: 'POST', url: `/api/messages/${sent.json().id}/retry`, headers: agent.headers });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: sent.json().id, status: 'pending', failureReason: null, errorCode: null });
    // The retry's own failure (frames are kept from the start: the first refusal would match at once).
    await sock.next((f) => sock.frames.indexOf(f) >= before && f.event === 'message.ack_updated' && f.data.message.id === sent.json().id && f.data.message.status === 'failed');
    expect((await refuse(undefined)).statusCode).toBe(200);
    const [first, second] = await Promise.all([1, 2].map(() => t.app.inject({ method: 'POST', url: `/api/messages/${sent.json().id}/retry`, headers: agent.headers })));
    // Two clicks (or two tabs) at once: one retry, the other refused.
    expect([first!.statusCode, second!.statusCode].sort()).toEqual([200, 400]);
    await sock.next((f) => f.event === 'message.ack_updated' && f.data.message.id === sent.json().id && f.data.message.status === 'sent');
    const outbox = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/outbox`, headers: admin.headers })).json() as { body: string }[];
    expect(outbox.filter((m) => m.body === 'PROMO de hoje')).toHaveLength(1);
    const row = await t.sql.query('SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me', [ticketId]);
    expect(row.rows[0].n).toBe(1);

    // Only a failed reply: a sent one, a customer's message, one of another tenant (as not found) are refused.
    expect((await t.app.inject({ method: 'POST', url: `/api/messages/${sent.json().id}/retry`, headers: agent.headers })).json().error).toBe('ERR_INVALID_MESSAGE');
    const theirs = (await t.sql.query(`SELECT id FROM messages WHERE ticket_id = $1 AND NOT from_me`, [ticketId])).rows[0].id;
    expect((await t.app.inject({ method: 'POST', url: `/api/messages/${theirs}/retry`, headers: agent.headers })).json().error).toBe('ERR_INVALID_MESSAGE');
    const stranger = await t.loginAs('admin');
    expect((await t.app.inject({ method: 'POST', url: `/api/messages/${sent.json().id}/retry`, headers: stranger.headers })).statusCode).toBe(404);
  });
});

describe('scheduled messages and list cost', () => {
  it('a scheduled message goes out at its time, once, and its recurrence schedules the next one', async () => {
    const { dispatchScheduled } = await import('./scheduled.ts');
    const w = await webhook({ id: 'wamid-sched', from: { id: 'c-sched', name: 'Ivo' }, body: 'oi' });
    const ticketId = w.json().ticketId;
    const at = new Date(Date.now() + 5 * 60_000);
    const r = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: admin.headers, payload: { body: 'Lembrete da consulta', scheduleDate: at.toISOString(), recurrence: 5, repetitions: 2 } });
    expect(r.statusCode).toBe(201);
    const listed = await t.app.inject({ method: 'GET', url: `/api/messages/${ticketId}`, headers: admin.headers });
    expect(listed.json().messagesOffLine.map((m: { body: string }) => m.body)).toEqual(['Lembrete da consulta']);
    expect(listed.json().messages.map((m: { body: string }) => m.body)).not.toContain('Lembrete da consulta');
    expect((await dispatchScheduled(t.app.kernel, new Date(Date.now() + 60_000))).dispatched).toBe(0);
    const [first, second] = await Promise.all([dispatchScheduled(t.app.kernel, new Date(at.getTime() + 1000)), dispatchScheduled(t.app.kernel, new Date(at.getTime() + 1000))]);
    expect(first.dispatched + second.dispatched).toBe(1);
    const sent = await until(async () => (await t.sql.query(`SELECT count(*)::int AS n FROM channel_sandbox_outbox WHERE body = 'Lembrete da consulta'`)).rows[0].n === 1);
    expect(sent).toBe(true);
    // The one sent may still read 'pending' for a moment after the provider has it (its ack is written after), so it is told apart by its claim.
    const next = await t.sql.query(`SELECT schedule_date, repetitions FROM messages WHERE ticket_id = $1 AND status = 'pending' AND schedule_date IS NOT NULL AND NOT (data ? 'dispatchedAt')`, [ticketId]);
    expect(next.rows).toHaveLength(1);
    expect(next.rows[0].repetitions).toBe(1);
    expect(new Date(next.rows[0].schedule_date).getTime() - at.getTime()).toBe(5 * 86_400_000);
  });

  it('the ticket list costs the same number of queries however many tickets it shows', async () => {
    const pool = t.app.kernel.db.pool;
    const orig = pool.query.bind(pool);
    let n = 0;
    (pool as unknown as { query: typeof orig }).query = ((...a: Parameters<typeof orig>) => {
      n++;
      return orig(...a);
    }) as typeof orig;
    try {
      await t.app.inject({ method: 'GET', url: '/api/tickets?showAll=true&status=open,pending,closed&limit=1', headers: admin.headers });
      n = 0;
      await t.app.inject({ method: 'GET', url: '/api/tickets?showAll=true&status=open,pending,closed&limit=1', headers: admin.headers });
      const few = n;
      n = 0;
      const many = await t.app.inject({ method: 'GET', url: '/api/tickets?showAll=true&status=open,pending,closed&limit=100', headers: admin.headers });
      expect(many.json().tickets.length).toBeGreaterThan(5);
      expect(n).toBe(few);
      // Plus one load per plugin that keeps fields for tickets (a ticket's `kanban`), for the whole page.
      expect(few).toBeLessThanOrEqual(4 + t.app.kernel.records.plugins('ticket').length);
    } finally {
      (pool as unknown as { query: typeof orig }).query = orig;
    }
  });
});

describe('spec audit: ticket and message routes', () => {
  /** A second tenant with its own sandbox channel, so its settings do not leak into the tests above. */
  async function tenantWithChannel() {
    const boss = await t.loginAs('admin');
    const worker = await t.loginAs('user', boss.tenantId);
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: boss.headers, payload: { type: 'sandbox', name: 'Sandbox 2' } });
    const id = ch.json().id as number;
    const key = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${id}/secret`, headers: boss.headers })).json().secret as string;
    const inbound = (payload: unknown) => {
      const raw = JSON.stringify(payload);
      return t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${id}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(key, raw) }, payload: raw });
    };
    return { boss, worker, inbound };
  }

  it('with ForceAdminPendingAssignment on, an agent can neither start, answer nor take a pending ticket; an admin assigns it', async () => {
    const { boss, worker, inbound } = await tenantWithChannel();
    const set = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: boss.headers, payload: { ForceAdminPendingAssignment: 'enabled' } });
    expect(set.statusCode).toBe(200);
    const ticketId = (await inbound({ id: 'force-1', from: { id: 'c-force', name: 'Otávio' }, body: 'oi' })).json().ticketId;
    // Settings are cached per node for up to 2 s.
    const start = await until(async () => {
      const r = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: worker.headers, payload: { status: 'open' } });
      return r.statusCode === 403 ? r : undefined;
    });
    expect(start.json().error).toBe('ERR_NO_PERMISSION');
    const reply = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: worker.headers, payload: { body: 'posso ajudar?' } });
    expect(reply.statusCode).toBe(403);
    const self = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: worker.headers, payload: { userId: worker.id } });
    expect(self.statusCode).toBe(403);
    const stored = await t.sql.query(`SELECT status, user_id, (SELECT count(*)::int FROM messages m WHERE m.ticket_id = t.id AND m.from_me) AS replies FROM tickets t WHERE id = $1`, [ticketId]);
    expect(stored.rows[0]).toEqual({ status: 'pending', user_id: null, replies: 0 });
    // An internal note is not an assignment.
    const note = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: worker.headers, payload: { body: 'cliente VIP', isNote: true } });
    expect(note.statusCode).toBe(201);

    const assign = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { userId: worker.id } });
    expect(assign.json()).toMatchObject({ status: 'open', userId: worker.id });
    const answer = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: worker.headers, payload: { body: 'Olá, sou seu atendente' } });
    expect(answer.statusCode).toBe(201);
  });

  it('refuses a transfer to the queue an unassigned ticket already waits in, and moves it to another queue', async () => {
    const { boss, inbound } = await tenantWithChannel();
    const [q1, q2] = await Promise.all(['Vendas', 'Suporte'].map(async (name) => (await t.app.inject({ method: 'POST', url: '/api/queues', headers: boss.headers, payload: { name } })).json().id as number));
    const ticketId = (await inbound({ id: 'tq-1', from: { id: 'c-tq', name: 'Mário' }, body: 'oi' })).json().ticketId;
    expect((await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { userId: null, queueId: q1 } })).json()).toMatchObject({ queueId: q1, userId: null, status: 'pending' });
    const again = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { userId: null, queueId: q1 } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'ERR_TRANSFER', message: 'Não foi possível transferir' });
    expect((await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { userId: null, queueId: q2 } })).json()).toMatchObject({ queueId: q2, status: 'pending' });
  });

  it('a transfer of a resolved ticket reopens it, logged as reopened then transferred; refused while the contact has another active ticket', async () => {
    const { boss, worker, inbound } = await tenantWithChannel();
    const ticketId = (await inbound({ id: 'tc-1', from: { id: 'c-tc', name: 'Lia' }, body: 'oi' })).json().ticketId;
    expect((await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { status: 'closed' } })).json()).toMatchObject({ status: 'closed' });
    const moved = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { userId: worker.id } });
    expect(moved.json()).toMatchObject({ status: 'open', userId: worker.id, closedAt: null });
    const logs = await t.app.inject({ method: 'GET', url: `/api/tickets/${ticketId}/logs`, headers: boss.headers });
    // Newest first, as the logs drawer shows them.
    const types = logs.json().map((l: { type: string }) => l.type).reverse();
    expect(types.indexOf('reopened')).toBeGreaterThan(types.indexOf('closed'));
    expect(types.indexOf('transferred')).toBeGreaterThan(types.indexOf('reopened'));

    // Closed again; the customer writes and gets a new ticket; the old one cannot come back beside it.
    await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { status: 'closed' } });
    const second = (await inbound({ id: 'tc-2', from: { id: 'c-tc', name: 'Lia' }, body: 'de novo' })).json().ticketId;
    expect(second).not.toBe(ticketId);
    const refused = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: boss.headers, payload: { userId: boss.id } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: second });
    expect((await t.sql.query('SELECT status, closed_at IS NOT NULL AS closed FROM tickets WHERE id = $1', [ticketId])).rows[0]).toEqual({ status: 'closed', closed: true });
  });

  it('with the setting off (default), an agent starts a pending ticket himself', async () => {
    const { worker, inbound } = await tenantWithChannel();
    const ticketId = (await inbound({ id: 'free-1', from: { id: 'c-free', name: 'Rosa' }, body: 'oi' })).json().ticketId;
    const start = await t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: worker.headers, payload: { status: 'open' } });
    expect(start.json()).toMatchObject({ status: 'open', userId: worker.id });
  });

  it('PUT /ticketsChatBot, DELETE /messages?id= and POST /pending/resolvePending work without a body', async () => {
    const { boss, inbound } = await tenantWithChannel();
    const bot = (await inbound({ id: 'nobody-1', from: { id: 'c-nobody-1', name: 'Caio' }, body: 'oi' })).json().ticketId;
    const toBot = await t.app.inject({ method: 'PUT', url: `/api/ticketsChatBot/${bot}`, headers: boss.headers });
    expect(toBot.statusCode).toBe(200);
    expect(toBot.json()).toMatchObject({ chatbot: true, userId: null, status: 'pending' });

    const open = (await inbound({ id: 'nobody-2', from: { id: 'c-nobody-2', name: 'Duda' }, body: 'oi' })).json().ticketId;
    const sent = await t.app.inject({ method: 'POST', url: `/api/messages/${open}`, headers: boss.headers, payload: { body: 'mensagem errada' } });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/messages?id=${sent.json().id}`, headers: boss.headers });
    expect(del.statusCode).toBe(200);
    expect(del.json().isDeleted).toBe(true);

    const resolve = await t.app.inject({ method: 'POST', url: '/api/pending/resolvePending', headers: boss.headers });
    expect(resolve.statusCode).toBe(200);
    expect(resolve.json().resolved).toBe(1);
    const left = await t.sql.query(`SELECT status FROM tickets WHERE id = $1`, [bot]);
    expect(left.rows[0].status).toBe('closed');
  });

  it('signs a reply on request, and always while ForceSignature is on; notes are never signed', async () => {
    const { boss, worker, inbound } = await tenantWithChannel();
    const name = (await t.sql.query(`SELECT name FROM users WHERE id = $1`, [worker.id])).rows[0].name;
    const ticketId = (await inbound({ id: 'sign-1', from: { id: 'c-sign', name: 'Lara' }, body: 'oi' })).json().ticketId;
    const send = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: worker.headers, payload });
    expect((await send({ body: 'sem assinatura' })).json().body).toBe('sem assinatura');
    expect((await send({ body: 'com assinatura', signMessage: true })).json().body).toBe(`*${name}*:\ncom assinatura`);
    const set = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: boss.headers, payload: { ForceSignature: 'enabled' } });
    expect(set.statusCode).toBe(200);
    // Settings are cached per node for up to 2 s.
    const forced = await until(async () => {
      const r = await send({ body: 'tentei tirar', signMessage: false });
      return r.json().body !== 'tentei tirar' ? r : undefined;
    });
    expect(forced.json().body).toBe(`*${name}*:\ntentei tirar`);
    expect((await send({ body: 'nota interna', isNote: true })).json().body).toBe('nota interna');
    // What the customer receives is the signed text.
    const out = await until(async () => (await t.sql.query(`SELECT count(*)::int AS n FROM channel_sandbox_outbox WHERE body = $1`, [`*${name}*:\ntentei tirar`])).rows[0].n > 0);
    expect(out).toBe(true);
  });

  it('a file scheduled through multipart keeps its recurrence and repetitions', async () => {
    const { boss, inbound } = await tenantWithChannel();
    const ticketId = (await inbound({ id: 'mp-1', from: { id: 'c-mp', name: 'Edu' }, body: 'oi' })).json().ticketId;
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const boundary = '----atendeaudit';
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(field('body', 'Boleto do mês') + field('scheduleDate', at) + field('recurrence', '30') + field('repetitions', '3')),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="boleto.txt"\r\nContent-Type: text/plain\r\n\r\nlinha digitável\r\n--${boundary}--\r\n`),
    ]);
    const r = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: { ...boss.headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(r.statusCode).toBe(201);
    const listed = await t.app.inject({ method: 'GET', url: `/api/messages/${ticketId}`, headers: boss.headers });
    expect(listed.json().messagesOffLine).toEqual([expect.objectContaining({ body: 'Boleto do mês', mediaName: expect.stringContaining('boleto'), recurrence: 30, repetitions: 3 })]);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: { ...boss.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(field('body', 'x') + field('scheduleDate', at) + field('recurrence', '7') + `--${boundary}--\r\n`),
    });
    expect(bad.statusCode).toBe(400);
  });
  it('GET /ticketsMarkAllUnread clears the unread badge of every visible ticket, past the first page of 200', async () => {
    const sent = await Promise.all(Array.from({ length: 205 }, (_, i) => webhook({ id: `unread-${i}`, from: { id: `unread-c${i}`, name: `Cliente ${i}` }, body: 'oi' })));
    expect(sent.every((r) => r.statusCode === 200)).toBe(true);
    const ids = sent.map((r) => r.json().ticketId as number);
    const before = await t.sql.query('SELECT count(*)::int AS n FROM tickets WHERE id = ANY($1::int[]) AND unread_messages > 0', [ids]);
    expect(before.rows[0].n).toBe(205);
    const res = await t.app.inject({ method: 'GET', url: '/api/ticketsMarkAllUnread', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().marked).toBeGreaterThanOrEqual(205);
    const after = await t.sql.query('SELECT count(*)::int AS n FROM tickets WHERE id = ANY($1::int[]) AND unread_messages > 0', [ids]);
    expect(after.rows[0].n).toBe(0);
    const list = await t.app.inject({ method: 'GET', url: '/api/tickets?withUnreadMessages=true', headers: admin.headers });
    expect(list.json().tickets).toHaveLength(0);
  });
});
