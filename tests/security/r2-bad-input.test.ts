/**
 * R2 bad input, generated from the route table: every route gets wrong types,
 * huge strings, odd Unicode, `__proto__` keys and extra fields. Passing means
 * a 4xx with a catalogue code — never a 5xx, never a stack trace.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { catalogueEntry } from '../../core/src/errors.ts';
import { seedTenant, type SeededTenant } from './tenants.ts';
import { signSandbox } from '../../plugins/channel-sandbox/src/index.ts';

let t: TestApp;
let A: SeededTenant;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  A = await seedTenant(t, 'A');
  admin = await t.loginAs('admin', A.tenantId);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const HUGE = 'x'.repeat(300_000);
const ODD = '\u0000\uFFFF\u202E𝕏\uD800 ☃ \' " ; -- <script>';
/** The same oddities minus the lone surrogate, which cannot be percent-encoded into a URL at all. */
const ODD_URL = ODD.replace('\uD800', '');

/** Field names the route's zod body schema declares, so each gets a wrong-typed value. */
function bodyKeys(schema: Record<string, unknown> | undefined): string[] {
  const body = schema?.body as { shape?: Record<string, unknown>; def?: { shape?: Record<string, unknown> } } | undefined;
  const shape = body?.shape ?? body?.def?.shape;
  return shape ? Object.keys(shape) : ['name', 'body', 'id'];
}

function payloads(keys: string[]): unknown[] {
  const out: unknown[] = [
    [],
    'texto',
    42,
    null,
    { __proto__: { admin: true }, constructor: { prototype: { polluted: true } } },
    JSON.parse('{"__proto__": {"profile": "superadmin"}}'),
    { extraField: ODD, [ODD]: 1 },
  ];
  for (const k of keys) {
    out.push({ [k]: HUGE }, { [k]: ODD }, { [k]: { nested: [1, 2, 3] } }, { [k]: -1e308 }, { [k]: [null] }, { [k]: true });
  }
  return out;
}

describe('R2 bad input', () => {
  it('every route answers bad input with a 4xx catalogue code, never a 5xx or a stack', async () => {
    // The catalogue as the running app has it: the kernel's codes and those every mounted plugin's contract adds.
    const codes = { has: (code: string) => catalogueEntry(code) !== undefined };
    const problems: string[] = [];
    const routes = t.app.kernel.routes.filter((r) => r.url.startsWith('/api/') && !r.websocket && !/logout|\/enabled$|refresh_token/.test(r.url));
    for (const r of routes) {
      const path = r.url.replace(/:(\w+)/g, (_m, p: string) => (p.toLowerCase().includes('id') ? encodeURIComponent(ODD_URL.slice(0, 3)) : 'x')).replace(/\*$/, '..%2F..%2Fetc%2Fpasswd');
      const attempts: { url: string; payload?: unknown }[] = [
        { url: path },
        { url: `${path}?pageNumber=-1&limit=abc&status=${encodeURIComponent(ODD_URL)}&searchParam=${encodeURIComponent(HUGE.slice(0, 5000))}&__proto__[x]=1` },
      ];
      if (r.method !== 'GET' && r.method !== 'DELETE') for (const p of payloads(bodyKeys(r.schema))) attempts.push({ url: encodeURI(r.url.replace(/:(\w+)/g, '1')), payload: p });
      for (const a of attempts) {
        const res = await t.app.inject({
          method: r.method as 'POST',
          url: a.url,
          headers: { ...admin.headers, ...(a.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(a.payload !== undefined ? { payload: JSON.stringify(a.payload) } : {}),
        });
        const where = `${r.method} ${r.url} ${a.url.slice(0, 60)} ${JSON.stringify(a.payload)?.slice(0, 60)}`;
        if (res.statusCode >= 500) problems.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (/\n\s+at .+:\d+:\d+/.test(res.body)) problems.push(`${where}: stack trace in answer`);
        if (res.statusCode >= 400) {
          const body = res.json() as { error?: string; message?: string };
          if (!body.error || !codes.has(body.error) || typeof body.message !== 'string') problems.push(`${where}: answer without a catalogue code: ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    const polluted = ({} as Record<string, unknown>).polluted ?? ({} as Record<string, unknown>).admin;
    expect(polluted).toBeUndefined();
  }, 300_000);

  it('X1-16: malformed multipart on every route that takes a body is a 4xx catalogue answer, never a 500', async () => {
    // The catalogue as the running app has it: the kernel's codes and those every mounted plugin's contract adds.
    const codes = { has: (code: string) => catalogueEntry(code) !== undefined };
    const problems: string[] = [];
    const idFor = (segment: string, param: string) => {
      if (param !== 'id') return A.ids[param.replace(/Id$/, '')] ?? 1;
      const key = segment.replace(/s$/, '').replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
      return A.ids[key] ?? 1;
    };
    const B = 'atendeR2boundary';
    const bodies: { name: string; type: string; body: Buffer }[] = [
      { name: 'no boundary', type: 'multipart/form-data', body: Buffer.from('--x\r\n\r\n') },
      { name: 'empty boundary', type: 'multipart/form-data; boundary=', body: Buffer.from('----\r\n') },
      { name: 'empty body', type: `multipart/form-data; boundary=${B}`, body: Buffer.alloc(0) },
      { name: 'truncated', type: `multipart/form-data; boundary=${B}`, body: Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`) },
      { name: 'bad part header', type: `multipart/form-data; boundary=${B}`, body: Buffer.from(`--${B}\r\nContent-Disposition form-data\r\n\r\nx\r\n--${B}--\r\n`) },
      { name: 'other boundary', type: `multipart/form-data; boundary=${B}`, body: Buffer.from(`--outro\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nx\r\n--outro--\r\n`) },
      { name: 'huge part header', type: `multipart/form-data; boundary=${B}`, body: Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="${'a'.repeat(200_000)}.txt"\r\n\r\nx\r\n--${B}--\r\n`) },
      { name: 'file without name', type: `multipart/form-data; boundary=${B}`, body: Buffer.from(`--${B}\r\nContent-Disposition: form-data; filename=""\r\n\r\n\r\n--${B}--\r\n`) },
      { name: 'many fields', type: `multipart/form-data; boundary=${B}`, body: Buffer.from(Array.from({ length: 60 }, (_, i) => `--${B}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('') + `--${B}--\r\n`) },
      { name: 'two files', type: `multipart/form-data; boundary=${B}`, body: Buffer.from([1, 2].map((i) => `--${B}\r\nContent-Disposition: form-data; name="file"; filename="${i}.txt"\r\nContent-Type: text/plain\r\n\r\nola\r\n`).join('') + `--${B}--\r\n`) },
    ];
    const routes = t.app.kernel.routes.filter((r) => r.url.startsWith('/api/') && !r.websocket && ['POST', 'PUT', 'PATCH'].includes(r.method) && !/logout|refresh_token/.test(r.url));
    for (const r of routes) {
      const url = r.url.replace(/([\w-]+)\/:(\w+)/g, (_m, seg: string, p: string) => `${seg}/${idFor(seg, p)}`);
      for (const b of bodies) {
        const res = await t.app.inject({ method: r.method as 'POST', url, headers: { ...admin.headers, 'content-type': b.type }, payload: b.body });
        const where = `${r.method} ${url} (${b.name})`;
        if (res.statusCode >= 500) problems.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400) {
          const body = res.json() as { error?: string; message?: string };
          if (!body.error || !codes.has(body.error) || typeof body.message !== 'string') problems.push(`${where}: answer without a catalogue code: ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('X1-16: a media path that is not valid percent-encoding, without a session, is a 4xx catalogue answer, never a 500', async () => {
    // `%25` decodes to a lone `%` that the media route decoded again: it names no file.
    const res = await t.app.inject({ method: 'GET', url: '/media/%25' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NOT_FOUND');
    for (const url of ['/media/%25%25?s=x', '/media/a%2525ZZ', '/media/%25E0%25A4%25A', '/media/a%25ZZb?s=x']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, url).toBeLessThan(500);
      expect(catalogueEntry(r.json().error), url).toBeDefined();
    }
  });

  it('X1-20: a URL that is not valid percent-encoding (FST_ERR_BAD_URL) or a path parameter past the router\'s limit answers the catalogue\'s shape, in the caller\'s language, with a request id', async () => {
    const urls = ['/media/%', '/api/%', '/api/tickets/%E0%A4%A', '/ws/%', `/api/tickets/${'9'.repeat(300)}`];
    for (const url of urls) {
      for (const [lang, text] of [['pt-BR', 'Rota não encontrada'], ['en', 'Route not found']] as const) {
        const r = await t.app.inject({ method: 'GET', url, headers: { ...admin.headers, 'accept-language': lang } });
        expect(r.statusCode, url).toBe(404);
        expect(r.json(), url).toEqual({ error: 'ERR_ROUTE_NOT_FOUND', message: text });
        expect(r.headers['x-request-id'], url).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
  });

  it('X1-20: every other framework error (bad JSON, empty JSON, body too large, wrong length, unsupported type, unknown route) answers a catalogue code and message without echoing Fastify\'s text', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: { name: string; req: InjectOptions; status: number; error: string }[] = [
      { name: 'bad JSON', req: { method: 'POST', url: '/api/auth/login', headers: json, payload: '{"email":' }, status: 400, error: 'ERR_VALIDATION' },
      { name: 'prototype key', req: { method: 'POST', url: '/api/auth/login', headers: json, payload: '{"__proto__":{"admin":true}}' }, status: 400, error: 'ERR_VALIDATION' },
      { name: 'empty JSON', req: { method: 'POST', url: '/api/queues', headers: { ...admin.headers, ...json, 'content-length': '0' }, payload: '' }, status: 400, error: 'ERR_VALIDATION' },
      { name: 'too large', req: { method: 'POST', url: '/api/auth/login', headers: json, payload: JSON.stringify({ email: 'x'.repeat(3_000_000) }) }, status: 413, error: 'ERR_PAYLOAD_TOO_LARGE' },
      { name: 'wrong length', req: { method: 'POST', url: '/api/auth/login', headers: { ...json, 'content-length': '5' }, payload: '{}' }, status: 400, error: 'ERR_VALIDATION' },
      { name: 'XML', req: { method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'text/xml' }, payload: '<a/>' }, status: 415, error: 'ERR_UNSUPPORTED_MEDIA_TYPE' },
      { name: 'unknown route', req: { method: 'GET', url: '/api/nada-aqui' }, status: 404, error: 'ERR_ROUTE_NOT_FOUND' },
      { name: 'unknown method', req: { method: 'PATCH', url: '/api/tickets', headers: admin.headers }, status: 404, error: 'ERR_ROUTE_NOT_FOUND' },
    ];
    for (const c of cases) {
      const r = await t.app.inject(c.req);
      expect(r.statusCode, c.name).toBe(c.status);
      const body = r.json();
      expect(Object.keys(body).sort(), c.name).toEqual(['error', 'message']);
      expect(body.error, c.name).toBe(c.error);
      expect(body.message, c.name).toBe(body.message.trim());
      expect(body.message, c.name).not.toMatch(/is set to|did not match|Body is not|FST_/);
      expect(r.headers['x-request-id'], c.name).toBeTruthy();
    }
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: json, payload: '{"email":' });
    expect(bad.json().message).toBe('Verifique os erros: o corpo não é um JSON válido');
  });

  it('X1-20: a client\'s x-request-id is kept only when it is a plain token; anything else (markup, log-line breaks, too long) is replaced', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/nada-aqui', headers: { 'x-request-id': 'trace-01HZX.ab:9' } });
    expect(ok.headers['x-request-id']).toBe('trace-01HZX.ab:9');
    for (const given of ['<script>alert(1)</script>', 'a b', '{"level":60}', 'x'.repeat(65), '-starts-with-dash', 'ok\u0007bell']) {
      for (const url of ['/api/nada-aqui', '/api/%']) {
        const r = await t.app.inject({ method: 'GET', url, headers: { 'x-request-id': given } });
        expect(r.headers['x-request-id'], `${url} ${given}`).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      }
    }
  });

  it('X1-16: a signed webhook with a timestamp at or past the edge of dates is refused or stored, never a 500', async () => {
    const secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${A.ids.channel}/secret`, headers: admin.headers })).json().secret as string;
    for (const [i, timestamp] of ['+275760-09-13T00:00:00Z', '-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00.001Z', '9999999999999999', '0001-01-01T00:00:00Z'].entries()) {
      const raw = JSON.stringify({ id: `r2-ts-${i}`, from: { id: 'r2-ts', name: 'Datas' }, body: 'quando?', timestamp });
      const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${A.ids.channel}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw });
      expect(res.statusCode, timestamp).toBeLessThan(500);
      if (res.statusCode >= 400) expect(res.json().error, timestamp).toBe('ERR_VALIDATION');
    }
    // Whatever was stored reads back: the ticket list still answers.
    expect((await t.app.inject({ method: 'GET', url: '/api/tickets?status=pending', headers: admin.headers })).statusCode).toBe(200);
  });
});
