import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@atende/core/testing';

let t: TestApp;
// The install this plugin lives in (plugins/__ID__/src → three levels up).
beforeAll(async () => {
  t = await createTestApp({ plugins: ['__ID__'], config: { rootDir: fileURLToPath(new URL('../../..', import.meta.url)) } });
});
afterAll(async () => {
  await t.close();
});

it('an agent adds an item to a ticket and the tenant hears about it live; another tenant sees nothing', async () => {
  const agent = await t.loginAs('user');
  const socket = await t.openSocket(agent.token);
  const res = await t.app.inject({ method: 'POST', url: '/api/plugins/__ID__/tickets/7/items', headers: agent.headers, payload: { text: 'Ligar amanhã às 10h' } });
  expect(res.statusCode, res.body).toBe(201);
  expect((await socket.next((f) => f.event === '__EVENT__.created')).data.text).toBe('Ligar amanhã às 10h');
  const list = await t.app.inject({ method: 'GET', url: '/api/plugins/__ID__/tickets/7/items', headers: agent.headers });
  expect(list.json().map((i: { text: string }) => i.text)).toEqual(['Ligar amanhã às 10h']);
  const other = await t.loginAs('admin');
  const theirs = await t.app.inject({ method: 'GET', url: '/api/plugins/__ID__/tickets/7/items', headers: other.headers });
  expect(theirs.json()).toEqual([]);
  await socket.close();
});

it('refuses an empty item with a catalogue code', async () => {
  const agent = await t.loginAs('user');
  const res = await t.app.inject({ method: 'POST', url: '/api/plugins/__ID__/tickets/7/items', headers: agent.headers, payload: { text: '  ' } });
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toBe('ERR_VALIDATION');
});
