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
});
