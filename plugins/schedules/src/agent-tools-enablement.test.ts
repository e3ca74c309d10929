import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

/**
 * The five agent-tool plugins are each enabled per tenant: switching one off
 * removes, for that tenant only, its menu, its route in the access map, its
 * remote and its API routes (404 like a route that does not exist).
 */
const TOOLS = [
  { id: 'schedules', menu: 'schedules', route: '/agendamentos', api: '/api/scheduleMessages' },
  { id: 'birthdays', menu: 'birthdays', route: '/aniversarios', api: '/api/plugins/birthdays/birthdays' },
  { id: 'farewells', menu: 'closing', route: '/fechamento', api: '/api/plugins/farewells/farewells' },
  { id: 'ratings', menu: 'evaluations', route: '/avaliacoes', api: '/api/plugins/ratings/ratings' },
  { id: 'business-hours', menu: 'businessHours', route: '/horario-atendimento', api: undefined },
] as const;

let t: TestApp;
let a: TestUser;
let b: TestUser;

beforeAll(async () => {
  t = await createTestApp({ plugins: TOOLS.map((x) => x.id) });
  a = await t.loginAs('admin');
  b = await t.loginAs('admin');
});
afterAll(async () => {
  await t?.close();
});

const access = async (u: TestUser) => (await t.app.inject({ method: 'GET', url: '/api/me/access', headers: u.headers })).json() as { menus: Record<string, boolean>; routes: Record<string, string> };
const remotes = async (u: TestUser) => ((await t.app.inject({ method: 'GET', url: '/api/plugins/ui', headers: u.headers })).json() as { id: string }[]).map((r) => r.id);

describe.each(TOOLS)('$id per tenant', (tool) => {
  it('is on by default with its menu, route and remote, and off for one tenant only', async () => {
    expect((await access(a)).menus[tool.menu]).toBe(true);
    expect((await access(a)).routes[tool.route]).toBe(tool.menu);
    expect(await remotes(a)).toContain(tool.id);

    const off = await t.app.inject({ method: 'PUT', url: `/api/plugins/${tool.id}/enabled`, headers: a.headers, payload: { enabled: false } });
    expect(off.statusCode).toBe(200);
    const accA = await access(a);
    expect(accA.menus[tool.menu]).toBe(false);
    expect(accA.routes[tool.route]).toBeUndefined();
    expect(await remotes(a)).not.toContain(tool.id);
    if (tool.api) {
      const r = await t.app.inject({ method: 'GET', url: tool.api, headers: a.headers });
      expect([r.statusCode, r.json().error]).toEqual([404, 'ERR_ROUTE_NOT_FOUND']);
    }

    // Tenant B keeps everything.
    expect((await access(b)).menus[tool.menu]).toBe(true);
    expect(await remotes(b)).toContain(tool.id);
    if (tool.api) expect((await t.app.inject({ method: 'GET', url: tool.api, headers: b.headers })).statusCode).toBe(200);

    await t.app.inject({ method: 'PUT', url: `/api/plugins/${tool.id}/enabled`, headers: a.headers, payload: { enabled: true } });
    expect((await access(a)).menus[tool.menu]).toBe(true);
  });
});
