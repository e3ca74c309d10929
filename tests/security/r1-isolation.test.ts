/**
 * R1 tenant isolation, generated from the route table: every route the app
 * registered (kernel and plugins, so new routes are covered automatically),
 * called by every profile of tenant A with tenant B's ids in the path, the
 * query and the body. Passing means: B's marker never appears in an answer,
 * no 5xx, a B id in the path answers exactly like an id that does not exist,
 * and B's data is byte-for-byte unchanged afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../core/src/testing/index.ts';
import { fingerprint, seedTenant, type SeededTenant } from './tenants.ts';

let t: TestApp;
let A: SeededTenant;
let B: SeededTenant;
const MISSING = 2_000_000_000;

beforeAll(async () => {
  t = await createTestApp();
  A = await seedTenant(t, 'A');
  B = await seedTenant(t, 'B');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Which of B's ids a path parameter names, from the parameter and the segment before it. */
function idFor(url: string, param: string, ids: Record<string, number | string>): number | string {
  const direct: Record<string, string> = { ticketId: 'ticket', contactId: 'contact', channelId: 'channel', userId: 'user', messageId: 'message', queueId: 'queue', tagId: 'tag', tenantId: 'tenant' };
  if (direct[param] && ids[direct[param]] !== undefined) return ids[direct[param]];
  const seg = url.split('/').filter(Boolean);
  const before = seg[seg.indexOf(`:${param}`) - 1] ?? '';
  const bySegment: [RegExp, string][] = [
    [/^tickets|^ticketsForce|^ticketsNull|^ticketsChatBot|^ticketsChannelId/, 'ticket'],
    [/^messages$/, 'message'],
    [/^contacts/, 'contact'],
    [/^users|^usersIsOnline|^userTenants/, 'user'],
    [/^queues/, 'queue'],
    [/^tags/, 'tag'],
    [/^quick-messages/, 'quickMessage'],
    [/^channels|^webhook/, 'channel'],
    [/^demands/, 'demand'],
    [/^tenants/, 'tenant'],
  ];
  for (const [re, key] of bySegment) if (re.test(before) && ids[key] !== undefined) return ids[key];
  return ids.ticket;
}

function buildUrl(url: string, ids: Record<string, number | string> | 'missing') {
  let out = url.replace(/\*$/, 'x');
  for (const m of url.matchAll(/:(\w+)/g)) out = out.replace(`:${m[1]}`, String(ids === 'missing' ? MISSING : idFor(url, m[1], ids)));
  return out;
}

function bQuery(ids: Record<string, number | string>) {
  const q = new URLSearchParams({
    ticketId: String(ids.ticket), contactId: String(ids.contact), userId: String(ids.user), queueId: String(ids.queue ?? ids.ticket),
    channelId: String(ids.channel), whatsappId: String(ids.channel), tenantId: String(ids.tenant), selectedUser: String(ids.user),
    queuesIds: String(ids.queue ?? 1), whatsappIds: String(ids.channel), searchParam: 'Cliente', id: String(ids.ticket), messageId: String(ids.message),
  });
  return q.toString();
}

function bBody(ids: Record<string, number | string>) {
  return {
    tenantId: ids.tenant, ticketId: ids.ticket, contactId: ids.contact, userId: ids.user, queueId: ids.queue, channelId: ids.channel, whatsappId: ids.channel,
    messageId: String(ids.message), id: ids.ticket, contact: ids.contact, messages: [String(ids.message)], ticketIds: [ids.ticket], body: 'teste', name: 'teste',
  };
}

const LAST = /logout|\/enabled$|terms|refresh_token/;

describe('R1 tenant isolation', () => {
  it('no route gives tenant A any of tenant B', async () => {
    const before = await fingerprint(t, B.tenantId);
    const routes = t.app.kernel.routes
      .filter((r) => r.url.startsWith('/api/') && !r.websocket && r.url !== '/api/ws')
      .sort((a, b) => Number(LAST.test(a.url)) - Number(LAST.test(b.url)));
    expect(routes.length).toBeGreaterThan(40);
    const problems: string[] = [];
    for (const profile of ['user', 'super', 'admin'] as const) {
      // Each profile gets a fresh session: a logout route in the table must not end the sweep early.
      const me = await t.loginAs(profile, A.tenantId);
      for (const r of routes) {
        const url = buildUrl(r.url, B.ids);
        const res = await t.app.inject({ method: r.method as 'GET', url: `${url}${url.includes('?') ? '&' : '?'}${bQuery(B.ids)}`, headers: me.headers, ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: bBody(B.ids) }) });
        const where = `${profile} ${r.method} ${r.url} → ${res.statusCode}`;
        if (res.statusCode >= 500) problems.push(`${where}: 5xx ${res.body.slice(0, 200)}`);
        if (res.body.includes(B.marker)) problems.push(`${where}: leaked tenant B data`);
        if (r.url.includes(':') && r.method === 'GET' && res.statusCode < 400) problems.push(`${where}: answered 2xx for tenant B's id`);
        if (r.url.includes(':') && res.statusCode === 404) {
          const missing = await t.app.inject({ method: r.method as 'GET', url: buildUrl(r.url, 'missing'), headers: me.headers, ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: bBody(B.ids) }) });
          if (missing.statusCode !== 404 || missing.json().error !== res.json().error) problems.push(`${where}: B's id answers ${res.json().error}, a missing id answers ${missing.statusCode} ${missing.body.slice(0, 80)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await fingerprint(t, B.tenantId)).toBe(before);
  }, 180_000);

  it("a socket of tenant A cannot join tenant B's rooms nor receive B's events", async () => {
    const me = await t.loginAs('admin', A.tenantId);
    const s = await t.openSocket(me.token);
    await s.next((f) => f.event === 'hello');
    s.send({ type: 'join', room: `ticket:${B.ids.ticket}` });
    const answer = await s.next((f) => f.event === 'join_refused' || f.event === 'joined');
    expect(answer.event).toBe('join_refused');
    await t.app.inject({ method: 'POST', url: `/api/messages/${B.ids.ticket}`, headers: B.users.admin.headers, payload: { body: `Resposta ${B.marker}` } });
    await new Promise((r) => setTimeout(r, 400));
    expect(JSON.stringify(s.frames)).not.toContain(B.marker);
  });
});
