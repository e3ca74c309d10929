import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp({ plugins: ['kanban', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
  agent = await t.loginAs('user', admin.tenantId);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const call = (who: TestUser, method: string, url: string, payload?: object) =>
  t.app.inject({ method: method as 'GET', url: `/api/plugins/kanban${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload }) });

async function lane(who: TestUser, name: string): Promise<{ id: number; position: number }> {
  const r = await call(who, 'POST', '/lanes', { name });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
}

async function contact(who: TestUser, name: string, number?: string): Promise<number> {
  const r = await t.app.inject({ method: 'POST', url: '/api/contacts', headers: who.headers, payload: { name, ...(number ? { number } : {}) } });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id;
}

describe('lanes', () => {
  it('an admin creates, renames, reorders and deletes lanes; positions stay 0..n-1', async () => {
    const a = await lane(admin, 'Novo lead');
    const b = await lane(admin, 'Negociação');
    const c = await lane(admin, 'Fechado');
    expect([a.position, b.position, c.position]).toEqual([0, 1, 2]);

    const moved = await call(admin, 'PUT', `/lanes/${a.id}`, { position: 2 });
    expect(moved.json().position).toBe(2);
    expect((await call(admin, 'GET', '/lanes')).json().map((l: { name: string }) => l.name)).toEqual(['Negociação', 'Fechado', 'Novo lead']);

    const ordered = await call(admin, 'PUT', '/lanes/order', { ids: [c.id, a.id, b.id] });
    expect(ordered.json().map((l: { id: number; position: number }) => [l.id, l.position])).toEqual([[c.id, 0], [a.id, 1], [b.id, 2]]);

    expect((await call(admin, 'PUT', `/lanes/${b.id}`, { name: 'Proposta' })).json().name).toBe('Proposta');
    expect((await call(admin, 'DELETE', `/lanes/${a.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', '/lanes')).json().map((l: { name: string; position: number }) => [l.name, l.position])).toEqual([['Fechado', 0], ['Proposta', 1]]);
  });

  it('refuses a duplicate or empty name, an incomplete order and an agent editing lanes, with catalogue codes', async () => {
    await lane(admin, 'Suporte');
    const dup = await call(admin, 'POST', '/lanes', { name: 'suporte' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'ERR_LANE_EXISTS', message: 'Já existe uma lane com este nome' });
    const dupEn = await t.app.inject({ method: 'POST', url: '/api/plugins/kanban/lanes', headers: { ...admin.headers, 'accept-language': 'es' }, payload: { name: 'Suporte' } });
    expect(dupEn.json().message).toBe('Ya existe una columna con este nombre');
    const empty = await call(admin, 'POST', '/lanes', { name: '  ' });
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringContaining('O campo nome é obrigatório') });
    expect((await call(admin, 'PUT', '/lanes/order', { ids: [1] })).json().error).toBe('ERR_NOT_FOUND');
    const byAgent = await call(agent, 'POST', '/lanes', { name: 'Minha lane' });
    expect(byAgent.statusCode).toBe(403);
    expect(byAgent.json().error).toBe('ERR_NO_PERMISSION');
    // Agents read lanes (they use the board).
    expect((await call(agent, 'GET', '/lanes')).statusCode).toBe(200);
  });
});

describe('board', () => {
  it('moving a card sets the contact’s lane (its `kanban` in the contacts API) and every board of the tenant hears it', async () => {
    const tenantAdmin = await t.loginAs('admin');
    const watcher = await t.loginAs('user', tenantAdmin.tenantId);
    const l1 = await lane(tenantAdmin, 'Prospecção');
    const l2 = await lane(tenantAdmin, 'Ganho');
    const ana = await contact(tenantAdmin, 'Ana Souza', '5511987650001');
    await contact(tenantAdmin, 'Bruno Lima', '5511987650002');

    const before = (await call(watcher, 'GET', '/board')).json();
    expect(before.columns.map((c: { key: string; count: number }) => [c.key, c.count])).toEqual([['lane:0', 2], [`lane:${l1.id}`, 0], [`lane:${l2.id}`, 0]]);

    const socket = await t.openSocket(watcher.token);
    const moved = await call(watcher, 'PUT', `/cards/${ana}/lane`, { laneId: l2.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: ana, laneId: l2.id, name: 'Ana Souza' });
    const frame = await socket.next((f) => f.event === 'kanban.card_moved');
    expect(frame.data).toMatchObject({ card: { id: ana, laneId: l2.id }, before: { laneId: null } });
    await socket.close();

    const stored = await t.app.inject({ method: 'GET', url: `/api/contacts/${ana}`, headers: watcher.headers });
    expect(stored.json().kanban).toBe(l2.id);
    const after = (await call(watcher, 'GET', '/board')).json();
    const col = after.columns.find((c: { id: number }) => c.id === l2.id);
    expect(col.count).toBe(1);
    expect(col.cards[0].name).toBe('Ana Souza');

    // Out of every lane again, and a lane that does not exist is refused.
    expect((await call(watcher, 'PUT', `/cards/${ana}/lane`, { laneId: null })).json().laneId).toBeNull();
    expect((await call(watcher, 'PUT', `/cards/${ana}/lane`, { laneId: 2_000_000_000 })).json().error).toBe('ERR_NOT_FOUND');
    expect((await call(watcher, 'PUT', `/cards/2000000000/lane`, { laneId: l1.id })).json().error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await call(watcher, 'PUT', `/cards/${ana}/lane`, { laneId: 'x' })).json().error).toBe('ERR_VALIDATION');
  });

  it('pages a lane of 75 cards by keyset without gaps or repeats, and a deleted lane’s cards fall back to "Sem lane"', async () => {
    const a = await t.loginAs('admin');
    const big = await lane(a, 'Muitos');
    await t.sql.query(
      `WITH c AS (INSERT INTO contacts (tenant_id, name) SELECT $1, 'Contato ' || lpad(g::text, 3, '0') FROM generate_series(1, 75) g RETURNING id)
       INSERT INTO kanban_contact_lanes (tenant_id, contact_id, lane_id) SELECT $1, id, $2 FROM c`,
      [a.tenantId, big.id],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await call(a, 'GET', `/lanes/${big.id}/cards${cursor ? `?cursor=${cursor}` : ''}`);
      const body = r.json() as { cards: { name: string }[]; nextCursor: string | null };
      seen.push(...body.cards.map((c) => c.name));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(75);
    expect(new Set(seen).size).toBe(75);
    expect(seen).toEqual([...seen].sort());
    expect((await call(a, 'GET', `/lanes/${big.id}/cards?search=Contato%2007`)).json().cards.map((c: { name: string }) => c.name)).toEqual(
      ['Contato 070', 'Contato 071', 'Contato 072', 'Contato 073', 'Contato 074', 'Contato 075'],
    );
    expect((await call(a, 'GET', `/lanes/${big.id}/cards?cursor=bad`)).json().error).toBe('ERR_VALIDATION');

    await call(a, 'DELETE', `/lanes/${big.id}`);
    const board = (await call(a, 'GET', '/board')).json();
    expect(board.columns[0]).toMatchObject({ key: 'lane:0', count: 75 });
    expect(board.columns[0].cards).toHaveLength(30);
  });

  it('shows the contact’s open ticket and agent on its card', async () => {
    const a = await t.loginAs('admin');
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: a.headers, payload: { type: 'sandbox', name: 'Canal' } });
    const c = await contact(a, 'Carla Dias', '5531987650003');
    const tk = await t.app.inject({ method: 'POST', url: '/api/tickets', headers: a.headers, payload: { contactId: c, channelId: ch.json().id, status: 'open' } });
    expect(tk.statusCode, tk.body).toBeLessThan(300);
    const card = (await call(a, 'GET', '/board')).json().columns[0].cards.find((x: { id: number }) => x.id === c);
    expect(card.ticket).toMatchObject({ id: tk.json().id, status: 'open', userId: a.id });
  });

  it('the tags view swaps a tag when a card moves between tag columns', async () => {
    const a = await t.loginAs('admin');
    const vip = (await t.app.inject({ method: 'POST', url: '/api/tags', headers: a.headers, payload: { name: 'VIP', color: '#9333ea' } })).json().id as number;
    const lead = (await t.app.inject({ method: 'POST', url: '/api/tags', headers: a.headers, payload: { name: 'Lead', color: '#2563eb' } })).json().id as number;
    const c = await contact(a, 'Daniel Rocha');
    await t.app.inject({ method: 'PUT', url: `/api/contacts/${c}`, headers: a.headers, payload: { tags: [lead] } });
    const r = await call(a, 'PUT', `/cards/${c}/tag`, { from: lead, to: vip });
    expect(r.json().tags.map((x: { name: string }) => x.name)).toEqual(['VIP']);
    const view = (await call(a, 'GET', '/board?view=tags')).json();
    expect(view.columns.map((col: { key: string; count: number }) => [col.key, col.count])).toEqual([['tag:0', 0], [`tag:${lead}`, 0], [`tag:${vip}`, 1]]);
    expect((await call(a, 'GET', `/tags/${vip}/cards`)).json().cards[0].id).toBe(c);
  });

  it('only an admin assigns a contact to its owner (wallet)', async () => {
    const a = await t.loginAs('admin');
    const sup = await t.loginAs('super', a.tenantId);
    const u = await t.loginAs('user', a.tenantId);
    const c = await contact(a, 'Elisa Prado');
    for (const who of [u, sup]) {
      const refused = await call(who, 'PUT', `/cards/${c}/owner`, { userId: who.id });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('ERR_NO_PERMISSION');
      expect((await call(who, 'GET', '/owners')).statusCode).toBe(403);
    }
    expect((await t.sql.query('SELECT count(*)::int AS n FROM contact_wallets WHERE contact_id = $1', [c])).rows[0].n).toBe(0);
    const ok = await call(a, 'PUT', `/cards/${c}/owner`, { userId: u.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().owners).toEqual([{ id: u.id, name: expect.any(String) }]);
    expect((await call(a, 'GET', '/owners')).json().map((x: { id: number }) => x.id)).toContain(u.id);
    expect((await call(a, 'PUT', `/cards/${c}/owner`, { userId: 2_000_000_000 })).json().error).toBe('ERR_NO_USER_FOUND');
  });
});

describe('the contact’s lane on the kernel’s records', () => {
  it('PUT /api/contacts sets and clears the lane; an unknown or foreign lane is refused and changes nothing', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const mine = await lane(a, 'Qualificado');
    const theirs = await lane(b, 'Lane de B');
    const c = await contact(a, 'Fernanda Reis', '5511987650010');

    const set = await t.app.inject({ method: 'PUT', url: `/api/contacts/${c}`, headers: a.headers, payload: { kanban: mine.id } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().kanban).toBe(mine.id);
    const col = (await call(a, 'GET', '/board')).json().columns.find((x: { id: number }) => x.id === mine.id);
    expect(col.cards.map((x: { name: string }) => x.name)).toEqual(['Fernanda Reis']);
    const list = (await t.app.inject({ method: 'GET', url: '/api/contacts?searchParam=Fernanda', headers: a.headers })).json();
    expect(list.contacts[0].kanban).toBe(mine.id);

    for (const kanban of [theirs.id, 2_000_000_000]) {
      const refused = await t.app.inject({ method: 'PUT', url: `/api/contacts/${c}`, headers: a.headers, payload: { name: 'Outro nome', kanban } });
      expect([refused.statusCode, refused.json().error]).toEqual([404, 'ERR_NOT_FOUND']);
    }
    const after = (await t.app.inject({ method: 'GET', url: `/api/contacts/${c}`, headers: a.headers })).json();
    expect(after).toMatchObject({ name: 'Fernanda Reis', kanban: mine.id });

    // A group is never a card.
    const group = (await t.sql.query(`INSERT INTO contacts (tenant_id, name, is_group) VALUES ($1, 'Grupo Vendas', true) RETURNING id`, [a.tenantId])).rows[0].id;
    const toGroup = await t.app.inject({ method: 'PUT', url: `/api/contacts/${group}`, headers: a.headers, payload: { kanban: mine.id } });
    expect([toGroup.statusCode, toGroup.json()]).toEqual([400, { error: 'ERR_LANE_GROUP', message: 'Grupos não entram no kanban: só contatos têm lane' }]);

    const created = await t.app.inject({ method: 'POST', url: '/api/contacts', headers: a.headers, payload: { name: 'Gustavo Pires', kanban: mine.id } });
    expect(created.json().kanban).toBe(mine.id);
    expect((await t.app.inject({ method: 'PUT', url: `/api/contacts/${c}`, headers: a.headers, payload: { kanban: null } })).json().kanban).toBeNull();
  });

  it('a ticket carries its contact’s lane, and {{kanban}} names it in a reply', async () => {
    const a = await t.loginAs('admin');
    const l = await lane(a, 'Pós-venda');
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: a.headers, payload: { type: 'sandbox', name: 'Canal' } });
    const c = await contact(a, 'Helena Prado', '5531987650011');
    const tk = (await t.app.inject({ method: 'POST', url: '/api/tickets', headers: a.headers, payload: { contactId: c, channelId: ch.json().id, status: 'open' } })).json();
    expect(tk.kanban).toBeNull();
    await call(a, 'PUT', `/cards/${c}/lane`, { laneId: l.id });
    expect((await t.app.inject({ method: 'GET', url: `/api/tickets/${tk.id}`, headers: a.headers })).json().kanban).toBe(l.id);
    const page = (await t.app.inject({ method: 'GET', url: '/api/tickets?status=open&showAll=true', headers: a.headers })).json();
    expect(page.tickets.find((x: { id: number }) => x.id === tk.id).kanban).toBe(l.id);
    const reply = await t.app.inject({ method: 'POST', url: `/api/messages/${tk.id}`, headers: a.headers, payload: { body: 'Você está na etapa {{kanban}}.' } });
    expect(reply.json().body).toBe('Você está na etapa Pós-venda.');
  });

  it('the ticket in the events of an inbound message carries the contact’s lane', async () => {
    const a = await t.loginAs('admin');
    const l = await lane(a, 'Recorrente');
    const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: a.headers, payload: { type: 'sandbox', name: 'Canal' } })).json();
    const secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${ch.id}/secret`, headers: a.headers })).json().secret as string;
    const inbound = (body: string) => {
      const raw = JSON.stringify({ id: randomUUID(), from: { id: 'cliente-lane', name: 'Lara Teles' }, body });
      const signature = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
      return t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${ch.id}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature }, payload: raw });
    };
    const first = (await inbound('oi')).json();
    const contactId = (await t.app.inject({ method: 'GET', url: `/api/tickets/${first.ticketId}`, headers: a.headers })).json().contactId;
    await call(a, 'PUT', `/cards/${contactId}/lane`, { laneId: l.id });
    const socket = await t.openSocket(a.token);
    await inbound('tudo bem?');
    const frame = await socket.next((f) => f.event === 'message.created' && f.data.message.body === 'tudo bem?');
    expect(frame.data.ticket).toMatchObject({ id: first.ticketId, kanban: l.id });
    await socket.close();
  });

  it('merging contacts keeps the kept contact’s lane, or takes the merged one’s', async () => {
    const a = await t.loginAs('admin');
    const l = await lane(a, 'Negociando');
    const keep = await contact(a, 'Igor Matos', '5511987650012');
    const gone = await contact(a, 'Igor M.', '5511987650013');
    await call(a, 'PUT', `/cards/${gone}/lane`, { laneId: l.id });
    const merged = await t.app.inject({ method: 'POST', url: '/api/contacts/merge', headers: a.headers, payload: { keepId: keep, mergeIds: [gone] } });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json().contact.kanban).toBe(l.id);
    expect((await call(a, 'GET', `/lanes/${l.id}/cards`)).json().cards.map((x: { id: number }) => x.id)).toEqual([keep]);
  });
});

describe('tenants and enablement', () => {
  it('another tenant sees none of A’s lanes or cards, and A’s ids answer like missing ones', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const la = await lane(a, 'Lane secreta de A');
    const ca = await contact(a, 'Cliente secreto de A');
    const board = await call(b, 'GET', '/board');
    expect(board.body).not.toContain('secret');
    expect((await call(b, 'GET', '/lanes')).json()).toEqual([]);
    for (const [method, url, payload] of [
      ['GET', `/lanes/${la.id}/cards`, undefined],
      ['PUT', `/lanes/${la.id}`, { name: 'x' }],
      ['DELETE', `/lanes/${la.id}`, undefined],
      ['PUT', `/cards/${ca}/lane`, { laneId: null }],
      ['PUT', `/cards/${ca}/owner`, { userId: null }],
    ] as const) {
      const other = await call(b, method, url, payload);
      const missing = await call(b, method, url.replace(String(url.includes('/lanes/') ? la.id : ca), '2000000000'), payload);
      expect([other.statusCode, other.json().error]).toEqual([missing.statusCode, missing.json().error]);
      expect(other.statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/contacts/${ca}`, headers: a.headers })).json().kanban).toBeNull();
  });

  it('disabling kanban for one tenant removes its routes, menu and remote there only', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const off = await t.app.inject({ method: 'PUT', url: '/api/plugins/kanban/enabled', headers: a.headers, payload: { enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
    const access = async (who: TestUser) => (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: who.headers })).json();
    const remotes = async (who: TestUser) => (await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: who.headers })).json().map((p: { id: string }) => p.id);

    const lanesA = await call(a, 'GET', '/lanes');
    expect([lanesA.statusCode, lanesA.json().error]).toEqual([404, 'ERR_ROUTE_NOT_FOUND']);
    const accA = await access(a);
    expect(accA.menus.kanban).toBe(false);
    expect(Object.keys(accA.routes)).not.toContain('/lanes');
    expect(await remotes(a)).not.toContain('kanban');

    expect((await call(b, 'GET', '/lanes')).statusCode).toBe(200);
    const accB = await access(b);
    expect(accB.menus.kanban).toBe(true);
    expect(accB.routes['/lanes']).toBe('kanban');
    expect(await remotes(b)).toContain('kanban');

    await t.app.inject({ method: 'PUT', url: '/api/plugins/kanban/enabled', headers: a.headers, payload: { enabled: true } });
    expect((await call(a, 'GET', '/lanes')).statusCode).toBe(200);
  });

  it('while kanban is off for a tenant its contacts answer no lane and a lane sent with a contact is ignored', async () => {
    const a = await t.loginAs('admin');
    const l = await lane(a, 'Retenção');
    const c = await contact(a, 'Júlia Neves');
    await call(a, 'PUT', `/cards/${c}/lane`, { laneId: l.id });
    await t.app.inject({ method: 'PUT', url: '/api/plugins/kanban/enabled', headers: a.headers, payload: { enabled: false } });
    const get = async () => (await t.app.inject({ method: 'GET', url: `/api/contacts/${c}`, headers: a.headers })).json();
    expect((await get()).kanban).toBeNull();
    const put = await t.app.inject({ method: 'PUT', url: `/api/contacts/${c}`, headers: a.headers, payload: { kanban: 2_000_000_000, state: 'MG' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ state: 'MG', kanban: null });
    await t.app.inject({ method: 'PUT', url: '/api/plugins/kanban/enabled', headers: a.headers, payload: { enabled: true } });
    expect((await get()).kanban).toBe(l.id);
  });
});
