import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '@atende/core/testing';
import { localClock } from './index.ts';

let t: TestApp;
let admin: TestUser;
let channelId: number;
const TZ = 'America/Sao_Paulo';

const inject = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const outbox = async () => (await inject(admin, 'GET', `/api/plugins/channel-sandbox/channels/${channelId}/outbox`)).json() as { to: string; body: string }[];
const runHourlyJob = () => t.app.kernel.jobs.enqueue('birthdays.hourly', {}, { jobId: `hourly-${Math.random()}` });

/** yyyy-MM-dd of `daysAhead` days from today in the tenant's zone, moved to `year`. */
function birthdayIn(daysAhead: number, year: number): string {
  const d = new Date(Date.now() + daysAhead * 86_400_000);
  const [m, day] = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, month: '2-digit', day: '2-digit' }).format(d).split('-');
  return `${year}-${m}-${day}`;
}

let today: { id: number };
beforeAll(async () => {
  t = await createTestApp({ plugins: ['birthdays', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
  const ch = await inject(admin, 'POST', '/api/channels', { type: 'sandbox', name: 'Sandbox', birthdayMessage: 'Feliz aniversário, {{firstName}}!{{protocol}}{{user}}{{kanban}}', birthdayHour: 0 });
  expect(ch.statusCode).toBe(201);
  channelId = ch.json().id;
  today = (await inject(admin, 'POST', '/api/contacts', { name: 'Ana Lima', number: '5511911112222', birthday: birthdayIn(0, 1990) })).json();
  await inject(admin, 'POST', '/api/contacts', { name: 'Bruno Reis', number: '5511933334444', birthday: birthdayIn(3, 1985) });
  await inject(admin, 'POST', '/api/contacts', { name: 'Carla Dias', number: '5511955556666', birthday: birthdayIn(200, 2000) });
  await inject(admin, 'POST', '/api/contacts', { name: 'Sem Data', number: '5511977778888' });
});
afterAll(async () => {
  await t?.close();
});

describe('birthdays', () => {
  it("lists today's and upcoming birthdays in the tenant's time zone, with each channel's message and hour", async () => {
    const r = await inject(admin, 'GET', '/api/plugins/birthdays/birthdays?days=30');
    expect(r.statusCode).toBe(200);
    const b = r.json();
    expect(b.timeZone).toBe(TZ);
    expect(b.today.map((c: { name: string }) => c.name)).toEqual(['Ana Lima']);
    expect(b.today[0]).toMatchObject({ daysUntil: 0, age: localClock(TZ).year - 1990, sentStatus: null });
    expect(b.upcoming.map((c: { name: string; daysUntil: number }) => [c.name, c.daysUntil])).toEqual([['Bruno Reis', 3]]);
    expect(b.channels).toEqual([expect.objectContaining({ id: channelId, hour: 0, message: expect.stringContaining('Feliz aniversário') })]);
    expect(b.variables).not.toContain('protocol');
    expect((await inject(admin, 'GET', '/api/plugins/birthdays/birthdays?days=366')).json().upcoming).toHaveLength(2);
    expect((await inject(admin, 'GET', '/api/plugins/birthdays/birthdays?days=400')).json().error).toBe('ERR_VALIDATION');
  });

  it('the hourly job sends once per contact per year, without protocol, kanban or user; reruns and the manual action do not repeat it', async () => {
    await runHourlyJob();
    const sent = await until(async () => (await outbox()).find((m) => m.to === '5511911112222'));
    expect(sent.body).toBe('Feliz aniversário, Ana!');
    const ledger = await t.sql.query('SELECT status, year FROM birthdays_sent WHERE tenant_id = $1 AND contact_id = $2', [admin.tenantId, today.id]);
    expect(ledger.rows).toEqual([{ status: 'sent', year: localClock(TZ).year }]);

    // Again, concurrently, by job and by hand: the ledger row keeps it to one.
    await runHourlyJob();
    const manual = await Promise.all([1, 2, 3].map(() => inject(admin, 'POST', '/api/messages/sendBirthday', {})));
    for (const m of manual) expect(m.json().results).toEqual([{ contactId: today.id, name: 'Ana Lima', status: 'already_sent' }]);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await outbox()).filter((m) => m.to === '5511911112222')).toHaveLength(1);
    expect((await inject(admin, 'GET', '/api/plugins/birthdays/birthdays')).json().today[0].sentStatus).toBe('sent');
    // Nobody else got one: the upcoming birthdays wait for their day.
    expect((await outbox()).map((m) => m.to)).toEqual(['5511911112222']);
  });

  it("waits for the channel's hour, and skips channels without a birthday message", async () => {
    const hour = localClock(TZ).hour;
    const c = (await inject(admin, 'POST', '/api/contacts', { name: 'Davi Melo', number: '5511900001111', birthday: birthdayIn(0, 1970) })).json();
    if (hour < 23) {
      await inject(admin, 'PUT', `/api/channels/${channelId}`, { birthdayHour: hour + 1 });
      await runHourlyJob();
      await new Promise((r) => setTimeout(r, 1500));
      expect((await outbox()).some((m) => m.to === '5511900001111')).toBe(false);
    }
    await inject(admin, 'PUT', `/api/channels/${channelId}`, { birthdayMessage: null });
    const r = await inject(admin, 'POST', '/api/messages/sendBirthday', { contactIds: [c.id] });
    expect(r.json().results).toEqual([{ contactId: c.id, name: 'Davi Melo', status: 'no_message' }]);
    await inject(admin, 'PUT', `/api/channels/${channelId}`, { birthdayMessage: 'Parabéns, {{name}}!', birthdayHour: hour });
    const ok = await inject(admin, 'POST', '/api/messages/sendBirthday', { contactIds: [c.id] });
    expect(ok.json()).toMatchObject({ sent: 1 });
    expect((await until(async () => (await outbox()).find((m) => m.to === '5511900001111'))).body).toBe('Parabéns, Davi Melo!');
  });

  it('is for supervisors and up, and keeps tenants apart', async () => {
    const agent = await t.loginAs('user', admin.tenantId);
    expect((await inject(agent, 'GET', '/api/plugins/birthdays/birthdays')).json().error).toBe('ERR_NO_PERMISSION');
    expect((await inject(agent, 'POST', '/api/messages/sendBirthday', {})).statusCode).toBe(403);
    const sup = await t.loginAs('super', admin.tenantId);
    expect((await inject(sup, 'GET', '/api/plugins/birthdays/birthdays')).statusCode).toBe(200);

    const other = await t.loginAs('admin');
    const list = await inject(other, 'GET', '/api/plugins/birthdays/birthdays?days=366');
    expect(list.json()).toMatchObject({ today: [], upcoming: [], channels: [] });
    expect(list.body).not.toContain('Ana Lima');
    const send = await inject(other, 'POST', '/api/messages/sendBirthday', { contactIds: [today.id] });
    expect(send.json()).toMatchObject({ sent: 0, results: [] });
    expect((await inject(other, 'POST', '/api/messages/sendBirthday', { contactIds: [] })).json().error).toBe('ERR_VALIDATION');
  });
});
