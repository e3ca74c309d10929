/**
 * X1 low items on who may do what: the sandbox's simulate route (19), editing
 * and deleting other users' messages and notes (9), colleagues' e-mails in
 * the private chat (11).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';

let t: TestApp;
let admin: TestUser;
let sup: TestUser;
let agent: TestUser;
let channelId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  sup = await t.loginAs('super', admin.tenantId);
  agent = await t.loginAs('user', admin.tenantId);
  channelId = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox' } })).json().id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const simulate = (who: TestUser, body: string) =>
  t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, headers: who.headers, payload: { from: { id: '5511987650901', name: 'Cliente Inventado', number: '5511987650901' }, body } });

describe('X1-19: sandbox', () => {
  it('X1-19: only an admin may post as a customer through the simulate route', async () => {
    for (const who of [agent, sup]) {
      const res = await simulate(who, 'sou o cliente?');
      expect(res.statusCode).toBe(403);
    }
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM messages WHERE tenant_id = $1 AND body = 'sou o cliente?'`, [admin.tenantId])).rows[0].n).toBe(0);
    expect((await simulate(admin, 'sou o cliente')).statusCode).toBe(200);
  });

  it('X1-19: a company created by the superadmin has no sandbox channel type', async () => {
    const root = await t.loginAs('superadmin');
    const created = await t.app.inject({ method: 'POST', url: '/api/tenants', headers: root.headers, payload: { name: 'Empresa Nova X1' } });
    expect(created.statusCode).toBe(201);
    const tenantId = created.json().id as number;
    expect(await t.app.kernel.enablement.isEnabled(tenantId, 'channel-sandbox')).toBe(false);
    const newAdmin = await t.loginAs('admin', tenantId);
    // The kit turns the sandbox on for the companies it makes; this one was made through the API.
    await t.sql.query(`DELETE FROM tenant_plugins WHERE tenant_id = $1 AND plugin_id = 'channel-sandbox'`, [tenantId]);
    const res = await t.app.inject({ method: 'POST', url: '/api/channels', headers: newAdmin.headers, payload: { type: 'sandbox', name: 'Sandbox' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('X1-9: other users\' messages and notes', () => {
  it('X1-9: a colleague who sees the ticket can neither edit the reply nor delete the note someone else wrote; the author can', async () => {
    const ticketId = (await simulate(admin, 'preciso de ajuda')).json().ticketId as number;
    const send = (who: TestUser, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: who.headers, payload });
    const reply = await send(admin, { body: 'Olá, sou a admin' });
    expect(reply.statusCode).toBe(201);
    const note = await send(admin, { body: 'nota interna da admin', isNote: true });
    expect(note.statusCode).toBe(201);
    const replyId = reply.json().id as string;
    const noteId = note.json().id as string;
    // The supervisor sees the ticket (the list of its messages answers) but is not the author.
    expect((await t.app.inject({ method: 'GET', url: `/api/messages/${ticketId}`, headers: sup.headers })).statusCode).toBe(200);
    const all = await Promise.all([
      t.app.inject({ method: 'PATCH', url: `/api/messages/${replyId}`, headers: sup.headers, payload: { body: 'texto trocado' } }),
      t.app.inject({ method: 'POST', url: '/api/messages/editMessage', headers: sup.headers, payload: { messageId: noteId, body: 'nota trocada' } }),
      t.app.inject({ method: 'DELETE', url: `/api/messages/${noteId}`, headers: sup.headers }),
      t.app.inject({ method: 'DELETE', url: `/api/messages?id=${replyId}`, headers: sup.headers }),
    ]);
    for (const res of all) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    const rows = await t.sql.query('SELECT body, deleted_at FROM messages WHERE id = ANY($1::bigint[]) ORDER BY id', [[replyId, noteId]]);
    expect(rows.rows).toEqual([{ body: 'Olá, sou a admin', deleted_at: null }, { body: 'nota interna da admin', deleted_at: null }]);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/messages/${noteId}`, headers: admin.headers, payload: { body: 'nota corrigida' } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/messages/${noteId}`, headers: admin.headers })).statusCode).toBe(200);
  });
});

describe('X1-11: colleagues\' e-mails', () => {
  it('X1-11: an agent finds no colleague by a piece of their e-mail and sees no e-mail in the users list or the private chat', async () => {
    const colleague = await t.loginAs('user', admin.tenantId, { email: `segredo.x1.${Date.now()}@empresa-oculta.com.br` });
    const marker = colleague.email.split('@')[0];
    const search = await t.app.inject({ method: 'GET', url: `/api/users?searchParam=${encodeURIComponent('empresa-oculta')}`, headers: agent.headers });
    expect(search.statusCode).toBe(200);
    expect(search.json().users).toEqual([]);
    // The admin still searches by e-mail.
    expect((await t.app.inject({ method: 'GET', url: `/api/users?searchParam=${encodeURIComponent('empresa-oculta')}`, headers: admin.headers })).json().users.map((u: { id: number }) => u.id)).toEqual([colleague.id]);
    const answers = await Promise.all(
      ['/api/users', '/api/users/chat-privado', '/api/plugins/private-chat/conversations', `/api/plugins/private-chat/users/${colleague.id}/messages`].map((url) => t.app.inject({ method: 'GET', url, headers: agent.headers })),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(marker);
    }
    const sent = await t.app.inject({ method: 'POST', url: `/api/plugins/private-chat/users/${colleague.id}/messages`, headers: agent.headers, payload: { body: 'oi' } });
    expect(sent.statusCode).toBeLessThan(300);
    expect(sent.body).not.toContain(marker);
  });
});
