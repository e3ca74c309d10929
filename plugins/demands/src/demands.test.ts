import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@atende/core/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ plugins: ['demands'] });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const url = '/api/plugins/demands/demands';

it('an admin creates, renames and deletes reasons; agents read the list; names are unique per tenant, in any case', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const created = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name: '  Segunda via de boleto ' } });
  expect(created.statusCode, created.body).toBe(201);
  expect(created.json()).toMatchObject({ name: 'Segunda via de boleto' });
  const { id } = created.json();

  const dup = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name: 'SEGUNDA VIA DE BOLETO' } });
  expect(dup.statusCode).toBe(409);
  expect(dup.json()).toEqual({ error: 'ERR_DEMAND_EXISTS', message: 'Já existe um motivo com este nome' });
  // The plugin's own error speaks the client's language from its contract.
  const es = await t.app.inject({ method: 'POST', url, headers: { ...admin.headers, 'accept-language': 'es-419,es;q=0.9' }, payload: { name: 'segunda via de boleto' } });
  expect(es.json().message).toBe('Ya existe un motivo con este nombre');

  expect((await t.app.inject({ method: 'POST', url, headers: agent.headers, payload: { name: 'Outro' } })).statusCode).toBe(403);
  const list = await t.app.inject({ method: 'GET', url, headers: agent.headers });
  expect(list.json().map((d: { name: string }) => d.name)).toEqual(['Segunda via de boleto']);

  const renamed = await t.app.inject({ method: 'PUT', url: `${url}/${id}`, headers: admin.headers, payload: { name: 'Boleto' } });
  expect(renamed.json()).toMatchObject({ id, name: 'Boleto' });
  const blank = await t.app.inject({ method: 'PUT', url: `${url}/${id}`, headers: admin.headers, payload: { name: '   ' } });
  expect(blank.statusCode).toBe(400);
  expect(blank.json().error).toBe('ERR_VALIDATION');

  // Another tenant neither sees nor touches it.
  const other = await t.loginAs('admin');
  expect((await t.app.inject({ method: 'GET', url, headers: other.headers })).json()).toEqual([]);
  expect((await t.app.inject({ method: 'DELETE', url: `${url}/${id}`, headers: other.headers })).statusCode).toBe(404);

  expect((await t.app.inject({ method: 'DELETE', url: `${url}/${id}`, headers: admin.headers })).statusCode).toBe(204);
  expect((await t.app.inject({ method: 'GET', url, headers: admin.headers })).json()).toEqual([]);
});
