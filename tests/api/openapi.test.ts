/**
 * The API contract ([K4]): every route of the kernel and of every plugin
 * declares an operation id and a response schema, and the OpenAPI 3.1
 * document generated from them at `/api/docs/json` is valid. Logged-in users
 * reach the docs through a cookie from `POST /api/me/docs-session`; without it
 * `/api/docs` shows how to get in, and never the document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../core/src/testing/index.ts';

let t: TestApp;
/** The API's routes (static files of the web app are not part of it). */
const apiRoutes = () => t.app.kernel.routes.filter((r) => !r.websocket && r.url.startsWith('/api/'));
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('OpenAPI', () => {
  it('every route declares an operation id and a response schema', () => {
    const missing = apiRoutes()
      .filter((r) => {
        const s = r.schema as { operationId?: string; response?: Record<string, unknown> } | undefined;
        return !s?.operationId || !s.response || Object.keys(s.response).length === 0;
      })
      .map((r) => `${r.method} ${r.url}${r.pluginId ? ` (${r.pluginId})` : ''}`);
    expect(missing).toEqual([]);
  });

  it('operation ids are unique', () => {
    const ids = apiRoutes().map((r) => (r.schema as { operationId?: string } | undefined)?.operationId).filter(Boolean);
    const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(dup).toEqual([]);
  });

  it('the document at /api/docs/json is valid OpenAPI 3.1 and lists every route', async () => {
    const user = await t.loginAs('admin');
    const refused = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).not.toContain('"openapi"');

    const session = await t.app.inject({ method: 'POST', url: '/api/me/docs-session', headers: user.headers });
    expect(session.statusCode).toBe(200);
    const cookie = String(session.headers['set-cookie']).split(';')[0]!;
    expect(String(session.headers['set-cookie'])).toMatch(/HttpOnly/);
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);

    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const routes = apiRoutes().map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
  });

  it('a forged or expired docs cookie is refused', async () => {
    const forged = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: 'atende_docs=1-9999999999.AAAA' } });
    expect(forged.statusCode).toBe(401);
  });
});
