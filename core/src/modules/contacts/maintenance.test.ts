import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: who.headers, payload: payload as never });
const create = async (who: TestUser, body: Record<string, unknown>) => {
  const res = await call(who, 'POST', '/api/contacts', body);
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; number: string };
};
const ticket = async (tenantId: number, contactId: number, status: string, channelId: number | null = null) =>
  (await t.sql.query<{ id: number }>('INSERT INTO tickets (tenant_id, contact_id, status, channel_id) VALUES ($1, $2, $3, $4) RETURNING id', [tenantId, contactId, status, channelId])).rows[0].id;
const channel = async (tenantId: number, type: string, status: string) =>
  (await t.sql.query<{ id: number }>('INSERT INTO channels (tenant_id, type, name, status) VALUES ($1, $2, $3, $4) RETURNING id', [tenantId, type, `${type} ${status}`, status])).rows[0].id;
/** Stands in for a contact stored by ingestion or an older version, bypassing the API's checks. */
const rawContact = async (tenantId: number, name: string, number: string | null, email: string | null = null) =>
  (await t.sql.query<{ id: number }>('INSERT INTO contacts (tenant_id, name, number, email) VALUES ($1, $2, $3, $4) RETURNING id', [tenantId, name, number, email])).rows[0].id;

describe('duplicates', () => {
  it('groups contacts with the same number (ninth digit restored) or the same e-mail, within the tenant', async () => {
    const admin = await t.loginAs('admin');
    const other = await t.loginAs('admin');
    const a = await create(admin, { name: 'Ana', number: '5511987654321', email: 'Ana@Mail.com' });
    const b = await create(admin, { name: 'Ana antiga', number: '551187654321' });
    const c = await create(admin, { name: 'Ana e-mail', number: '5521999990000', email: 'ana@mail.com' });
    await create(admin, { name: 'Outro', number: '5531999990000' });
    await create(other, { name: 'Ana', number: '5511987654320', email: 'ana@mail.com' });
    const res = (await call(admin, 'GET', '/api/contacts/duplicates')).json();
    expect(res.groups).toHaveLength(2);
    expect(res.groups[0]).toMatchObject({ reason: 'number', key: '5511987654321' });
    expect(res.groups[0].contacts.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
    expect(res.groups[1]).toMatchObject({ reason: 'email', key: 'ana@mail.com' });
    expect(res.groups[1].contacts.map((x: { id: number }) => x.id)).toEqual([a.id, c.id]);
    expect((await call(other, 'GET', '/api/contacts/duplicates')).json().groups).toEqual([]);
  });
});

describe('merge', () => {
  it('moves tickets, messages, identities, tags and wallets to the kept contact, fills its empty fields and deletes the others', async () => {
    const admin = await t.loginAs('admin');
    const agent = await t.loginAs('user', admin.tenantId);
    const socket = await t.openSocket(agent.token);
    const vip = (await call(admin, 'POST', '/api/tags', { name: 'VIP' })).json().id;
    const lead = (await call(admin, 'POST', '/api/tags', { name: 'Lead' })).json().id;
    const keep = await create(admin, { name: 'Ana', number: '5511987654321', tags: [vip], extraInfo: [{ name: 'Plano', value: 'Ouro' }] });
    const old = await create(admin, { name: 'Ana antiga', number: '551187654321', email: 'ana@mail.com', birthday: '02/03/1991', tags: [vip, lead], wallets: [agent.id], extraInfo: [{ name: 'plano', value: 'Prata' }, { name: 'Cidade', value: 'Santos' }] });
    const third = await create(admin, { name: 'Ana 3', email: 'outra@mail.com', identity: '529.982.247-25' });
    const t1 = await ticket(admin.tenantId, old.id, 'closed');
    const t2 = await ticket(admin.tenantId, third.id, 'open');
    const msg = await t.sql.query<{ id: string }>('INSERT INTO messages (tenant_id, ticket_id, contact_id, body) VALUES ($1, $2, $3, $4) RETURNING id', [admin.tenantId, t1, old.id, 'oi']);

    const res = await call(admin, 'POST', '/api/contacts/merge', { keepId: keep.id, mergeIds: [old.id, third.id] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ mergedIds: [old.id, third.id], ticketsMoved: 2 });
    expect(body.ticketIds.sort()).toEqual([t1, t2].sort());
    expect(body.contact).toMatchObject({
      id: keep.id,
      name: 'Ana',
      number: '5511987654321',
      email: 'ana@mail.com',
      identity: '529.982.247-25',
      birthday: '1991-03-02',
      extraInfo: [{ name: 'Plano', value: 'Ouro' }, { name: 'Cidade', value: 'Santos' }],
      wallets: [{ id: agent.id }],
    });
    expect(body.contact.tags.map((x: { name: string }) => x.name)).toEqual(['Lead', 'VIP']);

    const tickets = await t.sql.query('SELECT DISTINCT contact_id FROM tickets WHERE id = ANY($1::int[])', [[t1, t2]]);
    expect(tickets.rows).toEqual([{ contact_id: keep.id }]);
    expect((await t.sql.query('SELECT contact_id FROM messages WHERE id = $1', [msg.rows[0].id])).rows[0].contact_id).toBe(keep.id);
    const identities = await t.sql.query('SELECT external_id, contact_id FROM contact_identities WHERE tenant_id = $1 ORDER BY external_id', [admin.tenantId]);
    expect(identities.rows).toEqual([
      { external_id: '551187654321', contact_id: keep.id },
      { external_id: '5511987654321', contact_id: keep.id },
    ]);
    const left = await t.sql.query('SELECT id FROM contacts WHERE tenant_id = $1', [admin.tenantId]);
    expect(left.rows).toEqual([{ id: keep.id }]);

    expect((await socket.next((f) => f.event === 'contact.deleted' && f.data.id === old.id)).data.name).toBe('Ana antiga');
    expect((await socket.next((f) => f.event === 'contact.merged')).data).toMatchObject({ keepId: keep.id, mergedIds: [old.id, third.id] });
    expect((await socket.next((f) => f.event === 'contact.updated' && f.data.id === keep.id)).data.email).toBe('ana@mail.com');
  });

  it('refuses a merge that would leave two open tickets on one channel, changing nothing', async () => {
    const admin = await t.loginAs('admin');
    const ch = await channel(admin.tenantId, 'sandbox', 'connected');
    const a = await create(admin, { name: 'A', number: '5511911112222' });
    const b = await create(admin, { name: 'B', number: '5511911113333', email: 'b@b.com' });
    const ta = await ticket(admin.tenantId, a.id, 'open', ch);
    const tb = await ticket(admin.tenantId, b.id, 'pending', ch);
    const res = await call(admin, 'POST', '/api/contacts/merge', { keepId: a.id, mergeIds: [b.id] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: ta, ticketIds: [ta, tb] });
    expect((await t.sql.query('SELECT contact_id FROM tickets WHERE id = $1', [tb])).rows[0].contact_id).toBe(b.id);
    expect((await call(admin, 'GET', `/api/contacts/${b.id}`)).json()).toMatchObject({ email: 'b@b.com' });
    expect((await call(admin, 'GET', `/api/contacts/${a.id}`)).json().email).toBeNull();
  });

  it('needs an admin or supervisor, and an admin when it changes the wallets of a contact being attended', async () => {
    const admin = await t.loginAs('admin');
    const sup = await t.loginAs('super', admin.tenantId);
    const agent = await t.loginAs('user', admin.tenantId);
    const a = await create(admin, { name: 'A', number: '5511922223333' });
    const b = await create(admin, { name: 'B', number: '5511922224444', wallets: [agent.id] });
    await ticket(admin.tenantId, a.id, 'open');
    expect((await call(agent, 'POST', '/api/contacts/merge', { keepId: a.id, mergeIds: [b.id] })).json().error).toBe('ERR_NO_PERMISSION');
    const bySuper = await call(sup, 'POST', '/api/contacts/merge', { keepId: a.id, mergeIds: [b.id] });
    expect(bySuper.statusCode).toBe(403);
    expect(bySuper.json().error).toBe('ERR_NO_PERMISSION');
    expect((await call(admin, 'GET', `/api/contacts/${b.id}`)).statusCode).toBe(200);
    const byAdmin = await call(admin, 'POST', '/api/contacts/merge', { keepId: a.id, mergeIds: [b.id] });
    expect(byAdmin.json().contact.wallets).toEqual([{ id: agent.id, name: expect.any(String) }]);
    expect((await call(admin, 'POST', '/api/contacts/merge', { keepId: a.id, mergeIds: [a.id] })).json().error).toBe('ERR_VALIDATION');
  });

  it("treats another tenant's ids as not found and changes nothing", async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const mine = await create(a, { name: 'Meu', number: '5511933334444' });
    const theirs = await create(b, { name: 'Deles', number: '5511933335555' });
    const tb = await ticket(b.tenantId, theirs.id, 'open');
    for (const body of [{ keepId: mine.id, mergeIds: [theirs.id] }, { keepId: theirs.id, mergeIds: [mine.id] }]) {
      const res = await call(a, 'POST', '/api/contacts/merge', body);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('ERR_NO_CONTACT_FOUND');
    }
    expect((await call(b, 'GET', `/api/contacts/${theirs.id}`)).statusCode).toBe(200);
    expect((await t.sql.query('SELECT contact_id FROM tickets WHERE id = $1', [tb])).rows[0].contact_id).toBe(theirs.id);
    expect((await call(a, 'GET', `/api/contacts/${mine.id}`)).statusCode).toBe(200);
  });
});

describe('Brazilian ninth digit', () => {
  it('lists the mobiles missing the 9 (dry run), then fixes them, keeping the old form as an identity and skipping taken numbers', async () => {
    const sup = await t.loginAs('super');
    const agent = await t.loginAs('user', sup.tenantId);
    const socket = await t.openSocket(agent.token);
    const a = await create(sup, { name: 'Sem nove', number: '551187654321' });
    const b = await create(sup, { name: 'Sem nove 2', number: '558196543210' });
    const taken = await create(sup, { name: 'Tem', number: '5521987654321' });
    const clash = await create(sup, { name: 'Conflito', number: '552187654321' });
    await create(sup, { name: 'Fixo', number: '551132654321' });
    await create(sup, { name: 'Portugal', number: '351912345678' });

    const preview = (await call(agent, 'GET', '/api/contacts/ninth-digit')).json();
    expect(preview).toMatchObject({ officialApi: false, count: 3 });
    expect(preview.candidates).toEqual([
      { id: a.id, name: 'Sem nove', number: '551187654321', fixedNumber: '5511987654321', conflictContactId: null },
      { id: b.id, name: 'Sem nove 2', number: '558196543210', fixedNumber: '5581996543210', conflictContactId: null },
      { id: clash.id, name: 'Conflito', number: '552187654321', fixedNumber: '5521987654321', conflictContactId: taken.id },
    ]);
    expect((await call(sup, 'GET', `/api/contacts/${a.id}`)).json().number).toBe('551187654321');

    expect((await call(agent, 'POST', '/api/contacts/ninth-digit')).json().error).toBe('ERR_NO_PERMISSION');
    const fixed = await call(sup, 'POST', '/api/contacts/ninth-digit');
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json()).toMatchObject({ checked: 3, fixed: 2, conflicts: 1 });
    expect((await call(sup, 'GET', `/api/contacts/${a.id}`)).json().number).toBe('5511987654321');
    expect((await call(sup, 'GET', `/api/contacts/${b.id}`)).json().number).toBe('5581996543210');
    expect((await call(sup, 'GET', `/api/contacts/${clash.id}`)).json().number).toBe('552187654321');
    const ids = await t.sql.query('SELECT external_id FROM contact_identities WHERE tenant_id = $1 AND contact_id = $2 ORDER BY external_id', [sup.tenantId, a.id]);
    expect(ids.rows.map((r) => r.external_id)).toEqual(['551187654321', '5511987654321']);
    expect((await socket.next((f) => f.event === 'contact.updated' && f.data.id === a.id)).data.number).toBe('5511987654321');
    expect((await call(sup, 'GET', '/api/contacts/ninth-digit')).json().count).toBe(1);
  });

  it('refuses to run while an official-API channel is connected, changing nothing', async () => {
    const admin = await t.loginAs('admin');
    await channel(admin.tenantId, 'waba', 'disconnected');
    const c = await create(admin, { name: 'Sem nove', number: '551187654321' });
    // A disconnected WABA channel does not bind the numbers.
    expect((await call(admin, 'GET', '/api/contacts/ninth-digit')).json().officialApi).toBe(false);
    await channel(admin.tenantId, 'waba', 'connected');
    expect((await call(admin, 'GET', '/api/contacts/ninth-digit')).json()).toMatchObject({ officialApi: true, count: 1 });
    const res = await call(admin, 'POST', '/api/contacts/ninth-digit');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ERR_NINTH_DIGIT_OFFICIAL_API');
    expect((await call(admin, 'GET', `/api/contacts/${c.id}`)).json().number).toBe('551187654321');
  });

  it("never touches another tenant's contacts", async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const theirs = await create(b, { name: 'Deles', number: '551187654321' });
    expect((await call(a, 'POST', '/api/contacts/ninth-digit')).json()).toMatchObject({ checked: 0, fixed: 0 });
    expect((await call(b, 'GET', `/api/contacts/${theirs.id}`)).json().number).toBe('551187654321');
  });
});

describe('validate contacts', () => {
  it('reports stored numbers that are not valid for their country, without flagging official-API exact numbers', async () => {
    const admin = await t.loginAs('admin');
    const other = await t.loginAs('admin');
    await create(admin, { name: 'Bom', number: '5511987654321' });
    const missing9 = await create(admin, { name: 'Sem nove', number: '551187654321' });
    const bad = await rawContact(admin.tenantId, 'Sem país', '11987654321');
    const landline9 = await rawContact(admin.tenantId, 'Fixo com nove', '5511387654321');
    await rawContact(admin.tenantId, 'Instagram', null);
    await rawContact(other.tenantId, 'Alheio', '123');

    const report = (await call(admin, 'GET', '/api/contacts/validate')).json();
    expect(report).toMatchObject({ officialApi: false, checked: 4, valid: 1, invalidCount: 3, withoutNumber: 1 });
    expect(report.invalid).toEqual([
      { id: missing9.id, name: 'Sem nove', number: '551187654321', problem: 'missing_ninth_digit', fixedNumber: '5511987654321' },
      { id: bad, name: 'Sem país', number: '11987654321', problem: 'invalid' },
      { id: landline9, name: 'Fixo com nove', number: '5511387654321', problem: 'invalid' },
    ]);

    await channel(admin.tenantId, 'waba', 'connected');
    const withWaba = (await call(admin, 'GET', '/api/contacts/validate')).json();
    expect(withWaba).toMatchObject({ officialApi: true, invalidCount: 2 });
  });
});
