import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ plugins: ['notes', 'channel-sandbox'] });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A ticket of a new contact, opened by `who`. */
async function ticket(who: TestUser, name: string, number: string): Promise<{ id: number; protocol: string }> {
  const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: who.headers, payload: { type: 'sandbox', name: `Canal ${name}` } })).json();
  const c = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: who.headers, payload: { name, number } })).json();
  const r = await t.app.inject({ method: 'POST', url: '/api/tickets', headers: who.headers, payload: { contactId: c.id, channelId: ch.id, status: 'open' } });
  expect(r.statusCode, r.body).toBeLessThan(300);
  return r.json();
}

async function note(who: TestUser, ticketId: number, body: string) {
  const r = await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: who.headers, payload: { body, isNote: true } });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
}

const list = (who: TestUser, query = '') => t.app.inject({ method: 'GET', url: `/api/plugins/notes/notes${query}`, headers: who.headers });

it('lists the kernel’s note messages across tickets with ticket, user and date, and searches them', async () => {
  const admin = await t.loginAs('admin');
  const sup = await t.loginAs('super', admin.tenantId);
  const t1 = await ticket(admin, 'Ana Souza', '5511987650001');
  const t2 = await ticket(admin, 'Bruno Lima', '5511987650002');
  await note(admin, t1.id, 'Cliente pediu segunda via do boleto');
  await note(sup, t2.id, 'Retornar na sexta-feira');
  // An ordinary reply is a message, not a note.
  await t.app.inject({ method: 'POST', url: `/api/messages/${t1.id}`, headers: admin.headers, payload: { body: 'Olá, tudo bem?' } });

  const all = (await list(sup)).json();
  expect(all.count).toBe(2);
  expect(all.notes.map((n: { body: string }) => n.body)).toEqual(['Retornar na sexta-feira', 'Cliente pediu segunda via do boleto']);
  expect(all.notes[1]).toMatchObject({ ticketId: t1.id, protocol: t1.protocol, contactName: 'Ana Souza', userId: admin.id, createdAt: expect.any(String) });

  expect((await list(sup, '?search=boleto')).json().notes.map((n: { ticketId: number }) => n.ticketId)).toEqual([t1.id]);
  expect((await list(sup, '?search=Bruno')).json().count).toBe(1);
  expect((await list(sup, `?search=${t1.protocol}`)).json().notes[0].ticketId).toBe(t1.id);
  expect((await list(sup, `?userId=${sup.id}`)).json().notes.map((n: { body: string }) => n.body)).toEqual(['Retornar na sexta-feira']);
  expect((await list(sup, `?ticketId=${t2.id}`)).json().count).toBe(1);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  expect((await list(sup, `?from=${tomorrow}`)).json().count).toBe(0);
  expect((await list(sup, `?limit=1`)).json()).toMatchObject({ hasMore: true, nextBefore: expect.any(String) });
  const page2 = (await list(sup, `?limit=1&before=${(await list(sup, '?limit=1')).json().nextBefore}`)).json();
  expect(page2.notes.map((n: { body: string }) => n.body)).toEqual(['Cliente pediu segunda via do boleto']);

  // A note deleted through the kernel leaves the list.
  const deleted = all.notes[0].id as string;
  expect((await t.app.inject({ method: 'DELETE', url: `/api/messages/${deleted}`, headers: sup.headers })).statusCode).toBe(200);
  expect((await list(sup)).json().count).toBe(1);
});

it('refuses bad filters with catalogue codes, agents without the menu, and other tenants', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const other = await t.loginAs('admin');
  const tk = await ticket(admin, 'Carla Dias', '5531987650003');
  await note(admin, tk.id, 'Nota confidencial de A');

  const bad = await list(admin, '?from=ontem');
  expect(bad.statusCode).toBe(400);
  expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringContaining('Data inválida') });
  expect((await list(admin, `?from=${new Date().toISOString()}&to=2020-01-01T00:00:00Z`)).json().error).toBe('ERR_INVALID_DATE');
  const denied = await list(agent);
  expect([denied.statusCode, denied.json().error]).toEqual([403, 'ERR_NO_PERMISSION']);

  const b = await list(other, `?ticketId=${tk.id}&search=confidencial`);
  expect(b.statusCode).toBe(200);
  expect(b.json().count).toBe(0);
  expect((await list(other)).body).not.toContain('confidencial');
  expect((await t.app.inject({ method: 'GET', url: '/api/plugins/notes/tickets?search=Carla', headers: other.headers })).json()).toEqual([]);
});

it('a supervisor demoted by supervisorAdmin, or with the notes toggle off, loses /notas', async () => {
  const admin = await t.loginAs('admin');
  const off = await t.loginAs('super', admin.tenantId, { menus: { notes: false } });
  expect((await list(off)).statusCode).toBe(403);
  const acc = (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: off.headers })).json();
  expect(acc.menus.notes).toBe(false);
});

it('disabling notes for one tenant hides its menu, remote and routes there only', async () => {
  const a = await t.loginAs('admin');
  const b = await t.loginAs('admin');
  await t.app.inject({ method: 'PUT', url: '/api/plugins/notes/enabled', headers: a.headers, payload: { enabled: false } });
  expect((await list(a)).json().error).toBe('ERR_ROUTE_NOT_FOUND');
  expect((await t.app.inject({ method: 'GET', url: '/api/me/access', headers: a.headers })).json().menus.notes).toBe(false);
  expect((await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: a.headers })).json().map((p: { id: string }) => p.id)).not.toContain('notes');
  expect((await list(b)).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: '/api/me/access', headers: b.headers })).json().menus.notes).toBe(true);
});
