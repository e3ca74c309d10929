import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@atende/core/testing';

let t: TestApp;
beforeAll(async () => {
  // The install this plugin lives in (plugins/__ID__/src → three levels up).
  t = await createTestApp({ plugins: ['__ID__'], config: { rootDir: fileURLToPath(new URL('../../..', import.meta.url)) } });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const items = (contactId: number) => `/api/plugins/__ID__/contacts/${contactId}/items`;

it('an agent adds an item to a contact and the tenant hears about it live; another tenant sees nothing', async () => {
  const agent = await t.loginAs('user');
  const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: agent.headers, payload: { name: 'Maria Souza', number: '5511987654321' } })).json();
  const socket = await t.openSocket(agent.token);
  const res = await t.app.inject({ method: 'POST', url: items(contact.id), headers: agent.headers, payload: { text: ' Ligar amanhã às 10h ' } });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toMatchObject({ contactId: contact.id, userId: agent.id, text: 'Ligar amanhã às 10h' });
  expect((await socket.next((f) => f.event === '__EVENT__.item_created')).data.text).toBe('Ligar amanhã às 10h');
  const list = await t.app.inject({ method: 'GET', url: items(contact.id), headers: agent.headers });
  expect(list.json().map((i: { text: string }) => i.text)).toEqual(['Ligar amanhã às 10h']);

  const other = await t.loginAs('admin');
  expect((await t.app.inject({ method: 'GET', url: items(contact.id), headers: other.headers })).json()).toEqual([]);
  const theirs = await t.app.inject({ method: 'POST', url: items(contact.id), headers: other.headers, payload: { text: 'Intruso' } });
  expect(theirs.statusCode).toBe(404);
  expect(theirs.json().error).toBe('ERR_NO_CONTACT_FOUND');
  await socket.close();
});

it('refuses an empty item with a catalogue code', async () => {
  const agent = await t.loginAs('user');
  const contact = (await t.app.inject({ method: 'POST', url: '/api/contacts', headers: agent.headers, payload: { name: 'João Lima', number: '5511987654322' } })).json();
  const res = await t.app.inject({ method: 'POST', url: items(contact.id), headers: agent.headers, payload: { text: '  ' } });
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toBe('ERR_VALIDATION');
  expect((await t.app.inject({ method: 'GET', url: items(contact.id), headers: agent.headers })).json()).toEqual([]);
});
