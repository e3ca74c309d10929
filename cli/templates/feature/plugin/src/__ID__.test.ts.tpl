import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@atende/core/testing';

let t: TestApp;
const url = '/api/plugins/__ID__/items';
const settingsUrl = '/api/plugins/__ID__/settings';

beforeAll(async () => {
  // The install this plugin lives in (plugins/__ID__/src → three levels up).
  t = await createTestApp({ plugins: ['__ID__'], config: { rootDir: fileURLToPath(new URL('../../..', import.meta.url)) } });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

it('a user creates an item, the tenant hears about it live, and the list names its author; another tenant sees nothing', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const socket = await t.openSocket(admin.token);
  const res = await t.app.inject({ method: 'POST', url, headers: agent.headers, payload: { title: '  Ligar para o fornecedor ', note: 'Antes das 10h' } });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toMatchObject({ title: 'Ligar para o fornecedor', note: 'Antes das 10h', authorId: agent.id });
  const frame = await socket.next((f) => f.event === '__EVENT__.item_created');
  expect(frame.data).toMatchObject({ id: res.json().id, title: 'Ligar para o fornecedor' });

  const page = (await t.app.inject({ method: 'GET', url, headers: admin.headers })).json();
  expect(page).toMatchObject({ count: 1, hasMore: false });
  expect(page.rows[0]).toMatchObject({ title: 'Ligar para o fornecedor', authorName: expect.stringContaining('user') });

  const other = await t.loginAs('admin');
  expect((await t.app.inject({ method: 'GET', url, headers: other.headers })).json()).toMatchObject({ rows: [], count: 0 });
  expect((await t.app.inject({ method: 'DELETE', url: `${url}/${res.json().id}`, headers: other.headers })).statusCode).toBe(404);

  expect((await t.app.inject({ method: 'DELETE', url: `${url}/${res.json().id}`, headers: agent.headers })).statusCode).toBe(204);
  expect((await socket.next((f) => f.event === '__EVENT__.item_deleted')).data).toEqual({ id: res.json().id });
  expect((await t.app.inject({ method: 'GET', url, headers: admin.headers })).json().count).toBe(0);
});

it('refuses a repeated title with the plugin’s own error, in the client’s language, and a blank one with the field’s message', async () => {
  const admin = await t.loginAs('admin');
  expect((await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { title: 'Revisar contrato' } })).statusCode).toBe(201);
  const dup = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { title: 'REVISAR CONTRATO' } });
  expect(dup.statusCode).toBe(409);
  expect(dup.json()).toEqual({ error: 'ERR___CODE___ITEM_EXISTS', message: 'Já existe um item com este título' });
  const es = await t.app.inject({ method: 'POST', url, headers: { ...admin.headers, 'accept-language': 'es-419,es;q=0.9' }, payload: { title: 'revisar contrato' } });
  expect(es.json().message).toBe('Ya existe un elemento con este título');
  const blank = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { title: '   ' } });
  expect(blank.statusCode).toBe(400);
  expect(blank.json()).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringContaining('O campo título é obrigatório') });
});

it('searches and pages the list', async () => {
  const admin = await t.loginAs('admin');
  for (const title of ['Pedido 10% off', 'Pedido normal', 'Trocar senha']) await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { title } });
  const found = (await t.app.inject({ method: 'GET', url: `${url}?search=pedido`, headers: admin.headers })).json();
  expect(found.rows.map((r: { title: string }) => r.title)).toEqual(['Pedido normal', 'Pedido 10% off']);
  // `%` is matched literally, not as a wildcard.
  expect((await t.app.inject({ method: 'GET', url: `${url}?search=${encodeURIComponent('10%')}`, headers: admin.headers })).json().count).toBe(1);
  const first = (await t.app.inject({ method: 'GET', url: `${url}?limit=2`, headers: admin.headers })).json();
  expect(first).toMatchObject({ count: 3, hasMore: true });
  expect((await t.app.inject({ method: 'GET', url: `${url}?limit=2&pageNumber=2`, headers: admin.headers })).json()).toMatchObject({ hasMore: false, rows: [{ title: 'Pedido 10% off' }] });
});

it('an admin requires a note for the tenant; a user cannot change that; the rule holds from then on', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  expect((await t.app.inject({ method: 'GET', url: settingsUrl, headers: agent.headers })).json()).toEqual({ requireNote: false });
  expect((await t.app.inject({ method: 'PUT', url: settingsUrl, headers: agent.headers, payload: { requireNote: true } })).statusCode).toBe(403);
  const saved = await t.app.inject({ method: 'PUT', url: settingsUrl, headers: admin.headers, payload: { requireNote: true } });
  expect(saved.json()).toEqual({ requireNote: true });

  const bare = await t.app.inject({ method: 'POST', url, headers: agent.headers, payload: { title: 'Sem observação' } });
  expect(bare.statusCode).toBe(400);
  expect(bare.json()).toEqual({ error: 'ERR_REQUIRED_FIELD', message: 'O campo observação é obrigatório' });
  expect((await t.app.inject({ method: 'POST', url, headers: agent.headers, payload: { title: 'Com observação', note: 'Detalhes' } })).statusCode).toBe(201);
  // Another tenant keeps the default.
  const other = await t.loginAs('admin');
  expect((await t.app.inject({ method: 'POST', url, headers: other.headers, payload: { title: 'Sem observação' } })).statusCode).toBe(201);
});

it('the menu follows the profile, the tenant’s menu flag and the user’s own toggle', async () => {
  const admin = await t.loginAs('admin');
  const hidden = await t.loginAs('user', admin.tenantId, { menus: { __KEY__: false } });
  expect((await t.app.inject({ method: 'GET', url, headers: hidden.headers })).statusCode).toBe(403);
  const access = (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: hidden.headers })).json();
  expect(access.menus.__KEY__).toBe(false);
  expect((await t.app.inject({ method: 'GET', url: '/api/me/access', headers: admin.headers })).json().menus.__KEY__).toBe(true);

  const off = await t.loginAs('admin', await t.createTenant({ menus: { __KEY__: false } }));
  expect((await t.app.inject({ method: 'GET', url, headers: off.headers })).statusCode).toBe(403);
});
