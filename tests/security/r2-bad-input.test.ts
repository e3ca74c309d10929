/**
 * R2 bad input, generated from the route table: every route gets wrong types,
 * huge strings, odd Unicode, `__proto__` keys and extra fields. Passing means
 * a 4xx with a catalogue code — never a 5xx, never a stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { ERRORS } from '../../core/src/errors.ts';
import { seedTenant, type SeededTenant } from './tenants.ts';

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
    const codes = new Set(Object.keys(ERRORS));
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
});
