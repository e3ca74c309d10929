import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...who.headers, ...headers }, payload: payload as never });

const newTag = async (who: TestUser, name: string) => (await call(who, 'POST', '/api/tags', { name })).json().id as number;
const openTicket = async (tenantId: number, contactId: number, status = 'open') =>
  (await t.sql.query<{ id: number }>('INSERT INTO tickets (tenant_id, contact_id, status) VALUES ($1, $2, $3) RETURNING id', [tenantId, contactId, status])).rows[0].id;

describe('creating contacts', () => {
  it('stores every spec field, answers the birthday as ISO, links tags and wallets and a WhatsApp identity, and publishes contact.created', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const socket = await t.openSocket(agent.token);
    const vip = await newTag(admin, 'VIP');
    // `kanban` is a field of the spec's contact whose lanes the kanban plugin keeps (ctx.records.extend).
    const lane = (await call(admin, 'POST', '/api/plugins/kanban/lanes', { name: 'Novos' })).json().id as number;
    const res = await call(agent, 'POST', '/api/contacts', {
      name: 'Maria Souza',
      number: '+55 (11) 98765-4321',
      email: 'maria@exemplo.com.br',
      identity: '529.982.247-25',
      birthday: '31/12/1990',
      firstName: 'Maria',
      lastName: 'Souza',
      businessName: 'Souza Ltda',
      messengerId: 'm-1',
      instagramId: 'ig-1',
      hubId: 'hub-1',
      kanban: lane,
      state: 'SP',
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      blocked: false,
      chatbotBlocked: true,
      wallets: [agent.id],
      tags: [vip],
    });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      name: 'Maria Souza',
      number: '5511987654321',
      email: 'maria@exemplo.com.br',
      identity: '529.982.247-25',
      birthday: '1990-12-31',
      firstName: 'Maria',
      lastName: 'Souza',
      businessName: 'Souza Ltda',
      messengerId: 'm-1',
      instagramId: 'ig-1',
      hubId: 'hub-1',
      kanban: lane,
      state: 'SP',
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      blocked: false,
      chatbotBlocked: true,
      isGroup: false,
      tags: [{ id: vip, name: 'VIP' }],
      wallets: [{ id: agent.id }],
    });
    const identity = await t.sql.query('SELECT contact_id FROM contact_identities WHERE tenant_id = $1 AND kind = $2 AND external_id = $3', [admin.tenantId, 'whatsapp', '5511987654321']);
    expect(identity.rows).toEqual([{ contact_id: c.id }]);
    expect((await socket.next((f) => f.event === 'contact.created')).data).toMatchObject({ id: c.id, tags: [{ id: vip }] });
    expect((await call(agent, 'GET', `/api/contacts/${c.id}`)).json()).toEqual(c);
  });

  it('reads the birthday month-first for English clients and answers errors in English', async () => {
    const admin = await t.loginAs('admin');
    const en = { 'accept-language': 'en-US,en;q=0.9' };
    const ok = await call(admin, 'POST', '/api/contacts', { name: 'John', number: '14155552671', birthday: '12/31/1990' }, en);
    expect(ok.json().birthday).toBe('1990-12-31');
    const bad = await call(admin, 'POST', '/api/contacts', { name: 'Jane', number: '14155552672', birthday: '31/12/1990' }, en);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'ERR_INVALID_DATE', message: 'Invalid date' });
    const pt = await call(admin, 'POST', '/api/contacts', { name: 'Jane', number: '14155552672', birthday: '30/02/1990' });
    expect(pt.json()).toEqual({ error: 'ERR_INVALID_DATE', message: 'Data inválida' });
  });

  it('refuses a number without country code, a bad CPF/CNPJ or its missing punctuation, a bad e-mail and a duplicate number', async () => {
    const admin = await t.loginAs('admin');
    const post = (body: Record<string, unknown>) => call(admin, 'POST', '/api/contacts', { name: 'Teste', ...body });
    expect((await post({ number: '11987654321' })).json().error).toBe('ERR_INVALID_NUMBER');
    expect((await post({ number: 'meu zap' })).json().error).toBe('ERR_INVALID_NUMBER');
    expect((await post({ number: '5511912340001', identity: '52998224725' })).json().error).toBe('ERR_INVALID_CPF_CNPJ');
    expect((await post({ number: '5511912340001', identity: '529.982.247-24' })).json().error).toBe('ERR_INVALID_CPF_CNPJ');
    expect((await post({ number: '5511912340001', identity: '11.222.333/0001-80' })).json().error).toBe('ERR_INVALID_CPF_CNPJ');
    expect((await post({ number: '5511912340001', email: 'sem-arroba' })).json().error).toBe('ERR_INVALID_EMAIL');
    expect((await post({ name: '   ', number: '5511912340001' })).json().error).toBe('ERR_VALIDATION');
    expect((await post({ number: '5511912340001', identity: '11.222.333/0001-81' })).statusCode).toBe(201);
    const dup = await post({ number: '+55 11 91234-0001' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe('ERR_DUPLICATED_CONTACT');
    const count = await t.sql.query('SELECT count(*)::int AS n FROM contacts WHERE tenant_id = $1', [admin.tenantId]);
    expect(count.rows[0].n).toBe(1);
  });

  it('keeps two racing creations of one number to one contact', async () => {
    const admin = await t.loginAs('admin');
    const results = await Promise.all([1, 2, 3].map((i) => call(admin, 'POST', '/api/contacts', { name: `Corrida ${i}`, number: '5521990000001' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });
});

describe('listing and searching', () => {
  let admin: TestUser;
  let agent: TestUser;
  let vip: number;
  beforeAll(async () => {
    admin = await t.loginAs('admin');
    agent = await t.loginAs('user', admin.tenantId);
    vip = await newTag(admin, 'VIP');
    const people = [
      ['Ana Lima', '5511900000001', 'ana@lima.com', true, false],
      ['Bruno Alves', '5511900000002', null, false, true],
      ['Carla Dias', '5521900000003', 'carla@dias.com', true, true],
      ['Daniel Rocha', '351912345678', null, false, false],
      ['Érica Nunes', '5531900000005', 'erica@n.com', false, false],
    ] as const;
    for (const [name, number, email, tagged, owned] of people)
      await call(admin, 'POST', '/api/contacts', { name, number, email, tags: tagged ? [vip] : [], wallets: owned ? [agent.id] : [] });
  });

  it('searches name, number and e-mail case-insensitively from one character', async () => {
    const names = async (q: string) => (await call(agent, 'GET', `/api/contacts?searchParam=${encodeURIComponent(q)}`)).json().contacts.map((c: { name: string }) => c.name);
    expect(await names('d')).toEqual(['Carla Dias', 'Daniel Rocha']);
    expect(await names('LIMA')).toEqual(['Ana Lima']);
    expect(await names('(21) 9000')).toEqual(['Carla Dias']);
    expect(await names('351')).toEqual(['Daniel Rocha']);
    expect(await names('@n.com')).toEqual(['Érica Nunes']);
    expect(await names('%')).toEqual([]);
  });

  it('filters by tags and by wallets', async () => {
    const byTag = (await call(agent, 'GET', `/api/contacts?tags=${vip}`)).json();
    expect(byTag.contacts.map((c: { name: string }) => c.name)).toEqual(['Ana Lima', 'Carla Dias']);
    expect(byTag.count).toBe(2);
    const byWallet = (await call(agent, 'GET', `/api/contacts?wallets=${agent.id}`)).json();
    expect(byWallet.contacts.map((c: { name: string }) => c.name)).toEqual(['Bruno Alves', 'Carla Dias']);
    const both = (await call(agent, 'GET', `/api/contacts?wallets=${agent.id}&tags=${vip}`)).json();
    expect(both.contacts.map((c: { name: string }) => c.name)).toEqual(['Carla Dias']);
  });

  it('pages by keyset cursor and by page number, with count and hasMore', async () => {
    const p1 = (await call(agent, 'GET', '/api/contacts?limit=2')).json();
    expect(p1).toMatchObject({ count: 5, hasMore: true });
    expect(p1.contacts.map((c: { name: string }) => c.name)).toEqual(['Ana Lima', 'Bruno Alves']);
    const p2 = (await call(agent, 'GET', `/api/contacts?limit=2&cursor=${p1.nextCursor}`)).json();
    expect(p2.contacts.map((c: { name: string }) => c.name)).toEqual(['Carla Dias', 'Daniel Rocha']);
    const p3 = (await call(agent, 'GET', `/api/contacts?limit=2&cursor=${p2.nextCursor}`)).json();
    expect(p3).toMatchObject({ hasMore: false, nextCursor: null });
    expect(p3.contacts.map((c: { name: string }) => c.name)).toEqual(['Érica Nunes']);
    const page2 = (await call(agent, 'GET', '/api/contacts?limit=2&pageNumber=2')).json();
    expect(page2.contacts.map((c: { name: string }) => c.name)).toEqual(['Carla Dias', 'Daniel Rocha']);
    expect((await call(agent, 'GET', '/api/contacts?cursor=lixo')).json().error).toBe('ERR_VALIDATION');
  });

  it('shows another tenant nothing', async () => {
    const other = await t.loginAs('admin');
    expect((await call(other, 'GET', '/api/contacts')).json()).toMatchObject({ contacts: [], count: 0, hasMore: false });
    expect((await call(other, 'GET', `/api/contacts?tags=${vip}`)).json().count).toBe(0);
  });
});

describe('updating, blocking and deleting', () => {
  it('updates fields, moves the WhatsApp identity with a changed number and refuses a number another contact has', async () => {
    const admin = await t.loginAs('admin');
    const socket = await t.openSocket(admin.token);
    const a = (await call(admin, 'POST', '/api/contacts', { name: 'A', number: '5511911110001' })).json();
    await call(admin, 'POST', '/api/contacts', { name: 'B', number: '5511911110002' });
    const dup = await call(admin, 'PUT', `/api/contacts/${a.id}`, { number: '5511911110002' });
    expect(dup.json().error).toBe('ERR_DUPLICATED_CONTACT');
    const upd = await call(admin, 'PUT', `/api/contacts/${a.id}`, { name: 'A Silva', number: '5511911110003', email: '', birthday: '01/01/1980' });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ name: 'A Silva', number: '5511911110003', email: null, birthday: '1980-01-01' });
    const ids = await t.sql.query('SELECT external_id FROM contact_identities WHERE tenant_id = $1 AND contact_id = $2', [admin.tenantId, a.id]);
    expect(ids.rows).toEqual([{ external_id: '5511911110003' }]);
    expect((await socket.next((f) => f.event === 'contact.updated' && f.data.id === a.id)).data.name).toBe('A Silva');
  });

  it('blocks and chatbot-blocks a contact, publishing contact.updated', async () => {
    const agent = await t.loginAs('user');
    const socket = await t.openSocket(agent.token);
    const c = (await call(agent, 'POST', '/api/contacts', { name: 'Chato', number: '5511922220001' })).json();
    const blocked = await call(agent, 'PUT', `/api/contacts/${c.id}/block`, { blocked: true });
    expect(blocked.json()).toMatchObject({ blocked: true, chatbotBlocked: false });
    expect((await socket.next((f) => f.event === 'contact.updated' && f.data.blocked === true)).data.id).toBe(c.id);
    const bot = await call(agent, 'PUT', `/api/contacts/${c.id}/chatbot-block`, { chatbotBlocked: true });
    expect(bot.json()).toMatchObject({ blocked: true, chatbotBlocked: true });
    expect((await call(agent, 'PUT', `/api/contacts/${c.id}/block`, { blocked: 'sim' })).json().error).toBe('ERR_VALIDATION');
  });

  it('lets only admins and supervisors delete, publishing contact.deleted', async () => {
    const sup = await t.loginAs('super');
    const agent = await t.loginAs('user', sup.tenantId);
    const socket = await t.openSocket(agent.token);
    const c = (await call(agent, 'POST', '/api/contacts', { name: 'Apagar', number: '5511933330001' })).json();
    const refused = await call(agent, 'DELETE', `/api/contacts/${c.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(sup, 'DELETE', `/api/contacts/${c.id}`)).statusCode).toBe(204);
    expect((await socket.next((f) => f.event === 'contact.deleted')).data).toMatchObject({ id: c.id, name: 'Apagar' });
    expect((await call(agent, 'GET', `/api/contacts/${c.id}`)).json().error).toBe('ERR_NO_CONTACT_FOUND');
  });
});

describe('wallets of a contact being attended', () => {
  it('only an admin may change them while the contact has an open or pending ticket', async () => {
    const admin = await t.loginAs('admin');
    const sup = await t.loginAs('super', admin.tenantId);
    const agent = await t.loginAs('user', admin.tenantId);
    const c = (await call(agent, 'POST', '/api/contacts', { name: 'Cliente', number: '5511944440001', wallets: [agent.id] })).json();
    // No ticket yet: anyone with the contacts menu may reassign.
    expect((await call(agent, 'PUT', `/api/contacts/${c.id}`, { wallets: [agent.id, sup.id] })).statusCode).toBe(200);

    const ticket = await openTicket(admin.tenantId, c.id, 'pending');
    for (const who of [agent, sup]) {
      const res = await call(who, 'PUT', `/api/contacts/${c.id}`, { wallets: [who.id] });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    // Other fields, and the same wallets sent back by a form, are still fine.
    expect((await call(agent, 'PUT', `/api/contacts/${c.id}`, { name: 'Cliente 2', wallets: [sup.id, agent.id] })).statusCode).toBe(200);
    const byAdmin = await call(admin, 'PUT', `/api/contacts/${c.id}`, { wallets: [admin.id] });
    expect(byAdmin.json().wallets).toEqual([{ id: admin.id, name: expect.any(String) }]);

    await t.sql.query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [ticket]);
    expect((await call(agent, 'PUT', `/api/contacts/${c.id}`, { wallets: [] })).json().wallets).toEqual([]);
  });
});

describe('tenant isolation', () => {
  it("another tenant's contact is not found on any route and stays unchanged", async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const c = (await call(a, 'POST', '/api/contacts', { name: 'Segredo', number: '5511955550001' })).json();
    const attempts = [
      await call(b, 'GET', `/api/contacts/${c.id}`),
      await call(b, 'PUT', `/api/contacts/${c.id}`, { name: 'Roubado' }),
      await call(b, 'PUT', `/api/contacts/${c.id}/block`, { blocked: true }),
      await call(b, 'PUT', `/api/contacts/${c.id}/chatbot-block`, { chatbotBlocked: true }),
      await call(b, 'DELETE', `/api/contacts/${c.id}`),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_CONTACT_FOUND');
    }
    expect((await call(a, 'GET', `/api/contacts/${c.id}`)).json()).toEqual(c);
  });

  it("refuses another tenant's tag and user ids in the body as not found, changing nothing", async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const foreignTag = await newTag(b, 'Deles');
    const mine = (await call(a, 'POST', '/api/contacts', { name: 'Meu', number: '5511966660001' })).json();
    const withTag = await call(a, 'PUT', `/api/contacts/${mine.id}`, { name: 'Mudou', tags: [foreignTag] });
    expect(withTag.statusCode).toBe(404);
    expect(withTag.json().error).toBe('ERR_NOT_FOUND');
    const withUser = await call(a, 'PUT', `/api/contacts/${mine.id}`, { name: 'Mudou', wallets: [b.id] });
    expect(withUser.statusCode).toBe(404);
    expect(withUser.json().error).toBe('ERR_NO_USER_FOUND');
    const create = await call(a, 'POST', '/api/contacts', { name: 'Novo', number: '5511966660002', tags: [foreignTag] });
    expect(create.statusCode).toBe(404);
    expect((await call(a, 'GET', `/api/contacts/${mine.id}`)).json()).toEqual(mine);
    const rows = await t.sql.query('SELECT count(*)::int AS n FROM contacts WHERE tenant_id = $1', [a.tenantId]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('a tenant may hold the same number as another tenant', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    expect((await call(a, 'POST', '/api/contacts', { name: 'X', number: '5511977770001' })).statusCode).toBe(201);
    expect((await call(b, 'POST', '/api/contacts', { name: 'X', number: '5511977770001' })).statusCode).toBe(201);
  });
});
