import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/index.ts';
import { readServices } from './index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ plugins: [] });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

it('read services answer only the asking tenant’s rows, never secrets', async () => {
  const read = readServices(t.app.kernel.db.pool);
  const a = await t.loginAs('admin');
  const b = await t.loginAs('admin');
  const agent = await t.loginAs('user', a.tenantId);
  const users = await read.users.list(a.tenantId);
  expect(users.map((u) => u.id).sort()).toEqual([a.id, agent.id].sort());
  expect(Object.keys(users[0]!).sort()).toEqual(['active', 'email', 'id', 'isOnline', 'name', 'profile']);
  expect(await read.users.get(a.tenantId, b.id)).toBeUndefined();
  expect(await read.users.list(a.tenantId, { ids: [b.id, agent.id] })).toHaveLength(1);

  const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: a.headers, payload: { name: 'Ana', number: '5511987650001' } })).json();
  expect((await read.contacts.get(a.tenantId, contact.id))?.name).toBe('Ana');
  expect(await read.contacts.get(b.tenantId, contact.id)).toBeUndefined();
  expect(await read.contacts.list(b.tenantId, [contact.id])).toEqual([]);
  expect((await read.tenants.get(a.tenantId))?.id).toBe(a.tenantId);
});

it('the read-only views leave out password hashes and channel credentials', async () => {
  const cols = async (view: string) => (await t.sql.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = $1`, [view])).rows.map((r) => r.column_name);
  expect(await cols('v_users')).not.toContain('password_hash');
  expect(await cols('v_users')).not.toContain('token_version');
  expect(await cols('v_channels')).not.toContain('secrets');
  expect(await cols('v_tenants')).not.toContain('asaas_token');
  for (const v of ['v_tenants', 'v_users', 'v_queues', 'v_tags', 'v_channels', 'v_contacts', 'v_contact_tags', 'v_contact_wallets', 'v_tickets', 'v_messages']) {
    expect((await cols(v)).length, v).toBeGreaterThan(0);
  }
});
