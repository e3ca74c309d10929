/**
 * Issue U2 "the agent's day": the server rules behind the defects seen in use
 * (the browser side is tests/e2e/tickets-day.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../testing/index.ts';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let channelId: number;

const simulate = (fromId: string, name: string, body: string) =>
  t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: admin.headers, payload: { from: { id: fromId, name }, body } });
const put = (user: TestUser, ticketId: number, payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, headers: user.headers, payload });
async function ticketOf(fromId: string, name: string, body = 'oi') {
  expect((await simulate(fromId, name, body)).statusCode).toBe(200);
  return until(async () => (await t.sql.query<{ id: number }>(`SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE c.name = $1 AND t.status <> 'closed'`, [name])).rows[0]?.id);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  agent = await t.loginAs('user', admin.tenantId);
  const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox', farewellMessage: 'Obrigado pelo contato!' } });
  expect(ch.statusCode).toBe(201);
  channelId = ch.json().id;
});
afterAll(async () => {
  await t?.close();
});

describe('the agent day, server side', () => {
  it('1. the ticket own agent and an admin on their own ticket reopen it, even naming themselves', async () => {
    for (const [who, fromId] of [[agent, 'r-1'], [admin, 'r-2']] as const) {
      const id = await ticketOf(fromId, `Reabre ${fromId}`);
      expect((await put(who, id, { status: 'open' })).statusCode).toBe(200);
      expect((await put(who, id, { status: 'closed' })).json().status).toBe('closed');
      // The shape the screen used to send (status and the user) and the plain one both reopen.
      const again = await put(who, id, { status: 'open', userId: who.id });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ status: 'open', userId: who.id });
      expect((await put(who, id, { status: 'closed' })).json().status).toBe('closed');
      const plain = await put(who, id, { status: 'open' });
      expect(plain.json()).toMatchObject({ status: 'open', userId: who.id });
    }
    // A transfer to the current owner is still refused.
    const id = await ticketOf('r-3', 'Reabre r-3');
    await put(agent, id, { status: 'open' });
    expect((await put(admin, id, { userId: agent.id })).json().error).toBe('ERR_TICKET_SAME_USER');
  });

  it('3. resolving with a farewell and a rating asks for the rating, then thanks with the farewell once answered', async () => {
    const id = await ticketOf('f-1', 'Fernanda Lima');
    await put(agent, id, { status: 'open' });
    const r = await put(agent, id, { status: 'closed', sendFarewell: true, farewellMessage: 'Obrigado, {{name}}! Até breve.', sendRating: true });
    expect(r.statusCode).toBe(200);
    expect(r.json().ratingRequested).toBe(true);
    const bodies = async () => (await t.sql.query<{ body: string }>(`SELECT body FROM messages WHERE ticket_id = $1 AND from_me ORDER BY id`, [id])).rows.map((m) => m.body);
    expect(await bodies()).toEqual([expect.stringContaining('Como você avalia')]);
    await simulate('f-1', 'Fernanda Lima', '5');
    await expect.poll(bodies).toEqual([expect.stringContaining('Como você avalia'), 'Obrigado, Fernanda Lima! Até breve.']);
    expect((await t.sql.query(`SELECT status, rating FROM tickets WHERE id = $1`, [id])).rows[0]).toEqual({ status: 'closed', rating: 5 });
    await expect.poll(async () => (await t.sql.query(`SELECT 1 FROM channel_sandbox_outbox WHERE body = 'Obrigado, Fernanda Lima! Até breve.'`)).rowCount).toBe(1);
    // A later message does not send it again.
    await simulate('f-1', 'Fernanda Lima', 'valeu');
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND data ? 'farewell'`, [id])).rows[0].n).toBe(1);
  });

  it('8. editing a signed message keeps the signature on the customer copy; under ForceSignature an edit cannot drop it', async () => {
    const id = await ticketOf('e-1', 'Edite Silva');
    await put(agent, id, { status: 'open' });
    const name = (await t.sql.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [agent.id])).rows[0]!.name;
    const sent = await t.app.inject({ method: 'POST', url: `/api/messages/${id}`, headers: agent.headers, payload: { body: 'Seu pedido sai hoje', signMessage: true } });
    expect(sent.json().body).toBe(`*${name}*:\nSeu pedido sai hoje`);
    const mid = sent.json().id;
    await until(async () => (await t.sql.query(`SELECT 1 FROM channel_sandbox_outbox WHERE body = $1`, [`*${name}*:\nSeu pedido sai hoje`])).rows[0]);
    const outboxBody = async () => (await t.sql.query<{ body: string }>(`SELECT o.body FROM channel_sandbox_outbox o JOIN messages m ON m.provider_id = o.provider_id WHERE m.id = $1`, [mid])).rows[0]?.body;
    // The edit carries the text only (the screen), or a forged signature line: the original one stays.
    const edited = await t.app.inject({ method: 'PATCH', url: `/api/messages/${mid}`, headers: agent.headers, payload: { body: 'Seu pedido sai amanhã' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().body).toBe(`*${name}*:\nSeu pedido sai amanhã`);
    expect(await outboxBody()).toBe(`*${name}*:\nSeu pedido sai amanhã`);
    const forged = await t.app.inject({ method: 'PATCH', url: `/api/messages/${mid}`, headers: agent.headers, payload: { body: '*Outra Pessoa*:\nSai depois' } });
    expect(forged.json().body).toBe(`*${name}*:\nSai depois`);

    // ForceSignature: an unsigned message (sent before it was switched on) is signed by its edit.
    const plain = await t.app.inject({ method: 'POST', url: `/api/messages/${id}`, headers: agent.headers, payload: { body: 'sem assinatura' } });
    expect(plain.json().body).toBe('sem assinatura');
    expect((await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { ForceSignature: 'enabled' } })).statusCode).toBe(200);
    // Settings are cached per node for up to 2 s.
    const signedNow = await until(async () => {
      const r = await t.app.inject({ method: 'PATCH', url: `/api/messages/${plain.json().id}`, headers: agent.headers, payload: { body: 'agora assinada' } });
      return r.json().body !== 'agora assinada' ? r : undefined;
    });
    expect(signedNow.json().body).toBe(`*${name}*:\nagora assinada`);
  });

  it('9. a scheduled message not sent yet is not found by the message search as if it had been sent', async () => {
    const id = await ticketOf('s-1', 'Sara Agenda');
    await put(agent, id, { status: 'open' });
    const when = new Date(Date.now() + 3_600_000).toISOString();
    const sched = await t.app.inject({ method: 'POST', url: `/api/messages/${id}`, headers: agent.headers, payload: { body: 'lembrete do boleto', scheduleDate: when } });
    expect(sched.statusCode, sched.body).toBe(201);
    await t.app.inject({ method: 'POST', url: `/api/messages/${id}`, headers: agent.headers, payload: { body: 'boleto enviado agora' } });
    const found = await t.app.inject({ method: 'GET', url: `/api/searchMessage?ticketId=${id}&searchParam=boleto`, headers: agent.headers });
    // (Signed or not: ForceSignature may be on from the test before.)
    expect(found.json().messages.map((m: { body: string }) => m.body)).toEqual([expect.stringMatching(/boleto enviado agora$/)]);
  });
});
