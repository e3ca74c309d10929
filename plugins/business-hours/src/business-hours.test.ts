import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
let admin: TestUser;
const TZ = 'America/Sao_Paulo';

const inject = (user: TestUser, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const hm = (d: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', minute: '2-digit', hour12: false }).format(d).replace(/^24/, '00');
const weekday = (d: Date) => ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(new Intl.DateTimeFormat('en-US', { timeZone: TZ, weekday: 'short' }).format(d));
const week = (today: Record<string, unknown>) => [0, 1, 2, 3, 4, 5, 6].map((day) => (day === weekday(new Date()) ? { day, ...today } : { day, type: 'O' }));

beforeAll(async () => {
  t = await createTestApp({ plugins: ['business-hours', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
});
afterAll(async () => {
  await t?.close();
});

describe('business hours', () => {
  it("saves each weekday's type and two ranges, and says whether the tenant is open now in its own time zone", async () => {
    const now = new Date();
    const before = hm(new Date(now.getTime() - 2 * 3_600_000));
    const after = hm(new Date(now.getTime() + 2 * 3_600_000));
    // Skip the edge where ±2 h wraps past midnight: ranges must stay inside one day.
    if (before < hm(now) && hm(now) < after) {
      const inSecond = await inject(admin, 'PUT', '/api/tenants/business-hours', week({ type: 'H', start: '00:00', end: before, start2: hm(new Date(now.getTime() - 60_000)), end2: after }));
      expect(inSecond.statusCode).toBe(200);
      expect(inSecond.json()).toMatchObject({ timezone: TZ, openNow: true });
      const gap = await inject(admin, 'PUT', '/api/tenants/business-hours', week({ type: 'H', start: '00:00', end: before, start2: after, end2: '23:59' }));
      expect(gap.json().openNow).toBe(false);
    }
    const saved = (await inject(admin, 'GET', '/api/tenants/business-hours')).json();
    expect(saved.businessHours).toHaveLength(7);
    expect(saved.businessHours.map((d: { day: number }) => d.day)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('refuses ranges that are incomplete, reversed or overlapping, and weeks without 7 days', async () => {
    const bad = [
      week({ type: 'H', start: '08:00' }),
      week({ type: 'H', start: '18:00', end: '08:00' }),
      week({ type: 'H', start: '08:00', end: '12:00', start2: '11:00', end2: '18:00' }),
      week({ type: 'H', start: '08:00', end: '12:00', start2: '13:00' }),
      week({ type: 'H', start: '8h', end: '12:00' }),
      week({ type: 'X' }),
      week({ type: 'O' }).slice(0, 6),
    ];
    for (const b of bad) {
      const r = await inject(admin, 'PUT', '/api/tenants/business-hours', b);
      expect([r.statusCode, r.json().error], JSON.stringify(b.find((d) => d.type !== 'O') ?? b.length)).toEqual([400, 'ERR_VALIDATION']);
    }
  });

  it('closed all day: the absence message (with its variables) answers a customer; supervisors edit, agents cannot', async () => {
    const sup = await t.loginAs('super', admin.tenantId);
    expect((await inject(sup, 'PUT', '/api/tenants/business-hours', { businessHours: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, type: 'C' })) })).json().openNow).toBe(false);
    expect((await inject(sup, 'PUT', '/api/tenants/message-business-hours', { messageBusinessHours: 'Olá {{firstName}}, estamos fora do horário.' })).statusCode).toBe(200);
    const agent = await t.loginAs('user', admin.tenantId);
    expect((await inject(agent, 'PUT', '/api/tenants/message-business-hours', { messageBusinessHours: 'x' })).json().error).toBe('ERR_NO_PERMISSION');

    const channelId = (await inject(admin, 'POST', '/api/channels', { type: 'sandbox', name: 'Sandbox' })).json().id;
    await inject(admin, 'POST', `/api/plugins/channel-sandbox/channels/${channelId}/simulate`, { from: { id: '5511944445555', name: 'Rita Alves' }, body: 'Alguém aí?' });
    const end = Date.now() + 15_000;
    let out: { body: string }[] = [];
    while (Date.now() < end && !out.length) {
      out = (await inject(admin, 'GET', `/api/plugins/channel-sandbox/channels/${channelId}/outbox`)).json();
      if (!out.length) await new Promise((r) => setTimeout(r, 150));
    }
    expect(out.map((m) => m.body)).toEqual(['Olá Rita, estamos fora do horário.']);
  });

  it("keeps tenants apart: another tenant's hours are its own", async () => {
    const other = await t.loginAs('admin');
    const r = (await inject(other, 'GET', '/api/tenants/business-hours')).json();
    expect(r.messageBusinessHours).toBe('');
    expect(r.businessHours.find((d: { day: number }) => d.day === 1)).toMatchObject({ type: 'H', start: '08:00', end: '18:00' });
  });
});
