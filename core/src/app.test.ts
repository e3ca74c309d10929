import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('kernel', () => {
  it('reports health of database, jobs and events', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.checks.database).toBe('ok');
    expect(body.checks.jobs).toBe('ok');
    expect(body.checks.events).toBe('ok');
    expect(body.plugins.map((p: { id: string }) => p.id)).toContain('demands');
  });

  it('answers errors as {error, message} in Portuguese, with no stack', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/plugins/ui' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_LOGIN_REQUIRED', message: 'Necessário realizar login' });
    const bad = await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: { authorization: 'Bearer nope' } });
    expect(bad.json().error).toBe('ERR_INVALID_TOKEN');
    const missing = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('ERR_ROUTE_NOT_FOUND');
  });

  it('refuses malformed JSON with a catalogue code, not a 500', async () => {
    const admin = await t.loginAs('admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/plugins/demands/demands', headers: { ...admin.headers, 'content-type': 'application/json' }, payload: '{"name":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect(res.body).not.toMatch(/at .*\.ts/);
  });

  it('a disabled plugin answers 404 for that tenant only', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const created = await t.app.inject({ method: 'POST', url: '/api/plugins/demands/demands', headers: a.headers, payload: { name: 'Dúvida' } });
    expect(created.statusCode).toBe(201);
    const off = await t.app.inject({ method: 'PUT', url: '/api/plugins/demands/enabled', headers: a.headers, payload: { enabled: false } });
    expect(off.statusCode).toBe(200);
    const listA = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: a.headers });
    expect(listA.statusCode).toBe(404);
    expect(listA.json().error).toBe('ERR_ROUTE_NOT_FOUND');
    const listB = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: b.headers });
    expect(listB.statusCode).toBe(200);
    const remotesA = await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: a.headers });
    expect(remotesA.json().map((r: { id: string }) => r.id)).not.toContain('demands');
    const remotesB = await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: b.headers });
    expect(remotesB.json().map((r: { id: string }) => r.id)).toContain('demands');
  });

  it('keeps tenants apart: another tenant cannot read or change a record', async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const created = await t.app.inject({ method: 'POST', url: '/api/plugins/demands/demands', headers: a.headers, payload: { name: 'Financeiro' } });
    const id = created.json().id;
    const list = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: b.headers });
    expect(list.json()).toEqual([]);
    const put = await t.app.inject({ method: 'PUT', url: `/api/plugins/demands/demands/${id}`, headers: b.headers, payload: { name: 'x' } });
    expect(put.statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/plugins/demands/demands/${id}`, headers: b.headers });
    expect(del.statusCode).toBe(404);
    const still = await t.app.inject({ method: 'GET', url: '/api/plugins/demands/demands', headers: a.headers });
    expect(still.json().map((d: { name: string }) => d.name)).toEqual(['Financeiro']);
  });

  it('a plain user cannot use a menu it does not have', async () => {
    const u = await t.loginAs('user');
    const res = await t.app.inject({ method: 'POST', url: '/api/plugins/demands/demands', headers: u.headers, payload: { name: 'X' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ERR_NO_PERMISSION');
  });
});

describe('real time', () => {
  it('refuses a socket without a valid token', async () => {
    await expect(t.openSocket('invalid')).rejects.toMatchObject({ statusCode: 401 });
  });

  it('delivers an event published by a plugin to the tenant sockets only, with seq', async () => {
    const a = await t.loginAs('admin');
    const a2 = await t.loginAs('user', a.tenantId);
    const b = await t.loginAs('admin');
    const sa = await t.openSocket(a2.token);
    const sb = await t.openSocket(b.token);
    await sa.next((f) => f.event === 'hello');
    await sb.next((f) => f.event === 'hello');
    await t.app.inject({ method: 'POST', url: '/api/plugins/demands/demands', headers: a.headers, payload: { name: 'Suporte' } });
    const f = await sa.next((x) => x.event === 'demand.created');
    expect(f.data.name).toBe('Suporte');
    expect(typeof f.seq).toBe('number');
    await new Promise((r) => setTimeout(r, 200));
    expect(sb.frames.some((x) => x.event === 'demand.created')).toBe(false);
  });

  it('resumes from the last seq and serves the polling fallback', async () => {
    const a = await t.loginAs('admin');
    const s1 = await t.openSocket(a.token);
    const hello = await s1.next((f) => f.event === 'hello');
    await s1.close();
    await t.app.inject({ method: 'POST', url: '/api/plugins/demands/demands', headers: a.headers, payload: { name: 'Perdido 1' } });
    await t.app.inject({ method: 'POST', url: '/api/plugins/demands/demands', headers: a.headers, payload: { name: 'Perdido 2' } });
    const s2 = await t.openSocket(a.token, { epoch: hello.epoch, since: hello.seq as number });
    const missed = await s2.next((f) => f.event === 'demand.created' && f.data.name === 'Perdido 2');
    expect(s2.frames.filter((f) => f.event === 'demand.created').map((f) => f.data.name)).toEqual(['Perdido 1', 'Perdido 2']);
    const poll = await t.app.inject({ method: 'GET', url: `/api/events?epoch=${hello.epoch}&since=${hello.seq}`, headers: a.headers });
    // Other events (presence: the user went online) may sit between them; the demands must come in order.
    expect(poll.json().events.filter((e: { event: string }) => e.event === 'demand.created').map((e: { data: { name: string } }) => e.data.name)).toEqual(['Perdido 1', 'Perdido 2']);
    expect(poll.json().seq).toBeGreaterThanOrEqual(missed.seq as number);
    const stale = await t.app.inject({ method: 'GET', url: `/api/events?epoch=other&since=1`, headers: a.headers });
    expect(stale.json().resync).toBe(true);
  });
});
