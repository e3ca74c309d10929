/**
 * R3 webhook authenticity for the WhatsApp Cloud API channel (docs/reliability.md):
 * a notification that cannot prove it comes from Meta — `X-Hub-Signature-256`
 * missing, malformed, wrong, made with another channel's app secret, or a
 * body changed after signing — is refused with 401 and changes nothing; a
 * verification handshake with the wrong verify token is a 403. The compare
 * itself is constant time: checked by reading the verifying code (a timing
 * measurement would be noise on a shared machine) and by refusing wrong
 * signatures of exactly the right length.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { FakeGraphApi } from '../../plugins/channel-waba/src/fake-graph-api.ts';
import { SIGNATURE_HEADER, signWebhook, signatureValid } from '../../plugins/channel-waba/src/index.ts';

let t: TestApp;
let admin: TestUser;
let api: FakeGraphApi;
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Every row a webhook could touch: messages (and their statuses), contacts, identities, tickets and the plugin's own table. */
const snapshot = async () =>
  (
    await t.sql.query(`SELECT
      (SELECT count(*) FROM messages)::int AS messages,
      (SELECT coalesce(string_agg(id || ':' || status, ',' ORDER BY id), '') FROM messages) AS statuses,
      (SELECT count(*) FROM contacts)::int AS contacts,
      (SELECT count(*) FROM contact_identities)::int AS identities,
      (SELECT count(*) FROM tickets)::int AS tickets,
      (SELECT count(*) FROM channel_waba_messages)::int AS peers`)
  ).rows[0];

async function wabaChannel(name: string, appSecret: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/channels',
    headers: admin.headers,
    payload: { type: 'waba', name, secrets: { accessToken: api.token, appSecret }, config: { phoneNumberId: api.phoneNumberId, businessAccountId: api.businessAccountId, graphBaseUrl: api.url } },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  await until(async () => (await t.app.inject({ method: 'GET', url: `/api/channels/${id}`, headers: admin.headers })).json().status === 'connected');
  const verifyToken = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${id}/webhook`, headers: admin.headers })).json().verifyToken as string;
  return { id, appSecret, verifyToken };
}

beforeAll(async () => {
  api = await FakeGraphApi.start();
  t = await createTestApp({ plugins: ['channel-waba'] });
  admin = await t.loginAs('admin');
});
afterAll(async () => {
  await t?.close();
  await api?.close();
});

const post = (channelId: number, body: string, sig?: string) =>
  t.app.inject({ method: 'POST', url: `/api/plugins/channel-waba/webhook/${channelId}`, headers: { 'content-type': 'application/json', ...(sig !== undefined ? { [SIGNATURE_HEADER]: sig } : {}) }, payload: body });

function expectRefused(res: { statusCode: number; json(): { error?: string } }, where: string) {
  expect([401, 403], where).toContain(res.statusCode);
  expect(res.json().error, where).toBe('ERR_WEBHOOK_SIGNATURE');
}

describe('R3 webhook authenticity: WhatsApp Cloud API', () => {
  it('missing, malformed, wrong, foreign and tampered signatures are refused with nothing written', async () => {
    const a = await wabaChannel('R3 WABA A', api.appSecret);
    const b = await wabaChannel('R3 WABA B', 'outro-segredo-do-app-b');
    // A message and a status for a message that exists, so a forged status would have something to change.
    const raw = JSON.stringify(api.inboundMessage({ from: '5511955550001', name: 'Invasor', text: 'mensagem forjada' }));
    const good = signWebhook(a.appSecret, raw);
    const before = await snapshot();
    const hex = good.slice('sha256='.length);
    const flipped = `sha256=${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;
    const cases: [string, number, string, string | undefined][] = [
      ['missing signature', a.id, raw, undefined],
      ['empty signature', a.id, raw, ''],
      ['zeros of the right length', a.id, raw, `sha256=${'0'.repeat(64)}`],
      ['last hex digit changed (same length)', a.id, raw, flipped],
      ['truncated signature', a.id, raw, good.slice(0, -2)],
      ['signature without prefix', a.id, raw, hex],
      ['sha1 prefix', a.id, raw, `sha1=${hex.slice(0, 40)}`],
      ['not hex', a.id, raw, `sha256=${'z'.repeat(64)}`],
      ['another channel’s app secret', a.id, raw, signWebhook(b.appSecret, raw)],
      ['right signature, other channel', b.id, raw, good],
      ['tampered body', a.id, raw.replace('forjada', 'alterada'), good],
      ['extra whitespace in body', a.id, `${raw} `, good],
      ['signed with the verify token instead of the app secret', a.id, raw, signWebhook(a.verifyToken, raw)],
      ['unknown channel', 2_000_000_000, raw, good],
    ];
    for (const [what, channelId, body, sig] of cases) expectRefused(await post(channelId, body, sig), what);
    expect(await snapshot()).toEqual(before);
    // The genuine request still works, so the refusals above were about authenticity alone.
    expect((await post(a.id, raw, good)).statusCode).toBe(200);
    expect((await snapshot()).messages).toBe(before.messages + 1);
  });

  it('forged status callbacks change no message', async () => {
    const c = await wabaChannel('R3 WABA C', api.appSecret);
    const raw = JSON.stringify(api.inboundMessage({ from: '5511955550003', text: 'olá' }));
    expect((await post(c.id, raw, signWebhook(c.appSecret, raw))).statusCode).toBe(200);
    const ticketId = (await t.sql.query(`SELECT ticket_id FROM messages WHERE body = 'olá' AND channel_id = $1`, [c.id])).rows[0].ticket_id;
    expect((await t.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: admin.headers, payload: { body: 'resposta R3' } })).statusCode).toBe(201);
    const providerId = await until(async () => (await t.sql.query(`SELECT provider_id FROM messages WHERE body = 'resposta R3' AND status = 'sent'`)).rows[0]?.provider_id as string | undefined);
    const before = await snapshot();
    const forged = JSON.stringify(api.statusUpdate(providerId, 'failed', '5511955550003', { code: 131026, title: 'forjado' }));
    expectRefused(await post(c.id, forged, signWebhook('segredo-errado', forged)), 'forged failed status');
    expectRefused(await post(c.id, forged), 'unsigned failed status');
    expect(await snapshot()).toEqual(before);
  });

  it('a verification handshake with a wrong or missing verify token is a 403 with nothing written', async () => {
    const d = await wabaChannel('R3 WABA D', api.appSecret);
    const before = await snapshot();
    const url = (q: string) => `/api/plugins/channel-waba/webhook/${d.id}?${q}`;
    for (const [what, q] of [
      // The last character changed for one it is not (a random token can end in 'x').
      ['wrong token', `hub.mode=subscribe&hub.verify_token=${encodeURIComponent(d.verifyToken.slice(0, -1) + (d.verifyToken.endsWith('x') ? 'y' : 'x'))}&hub.challenge=42`],
      ['missing token', 'hub.mode=subscribe&hub.challenge=42'],
      ['another channel’s shape, right length', `hub.mode=subscribe&hub.verify_token=${'a'.repeat(d.verifyToken.length)}&hub.challenge=42`],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: url(q) });
      expect(res.statusCode, what).toBe(403);
      expect(res.body, what).not.toContain('42');
    }
    const ok = await t.app.inject({ method: 'GET', url: url(`hub.mode=subscribe&hub.verify_token=${encodeURIComponent(d.verifyToken)}&hub.challenge=42`) });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('42');
    expect(await snapshot()).toEqual(before);
  });

  it('the comparisons are constant time (timingSafeEqual on fixed-length digests, no early-exit string compare)', () => {
    const src = fs.readFileSync(path.join(ROOT, 'plugins/channel-waba/src/webhook.ts'), 'utf8');
    const fn = (name: string) => src.slice(src.indexOf(`export function ${name}`), src.indexOf('\n}\n', src.indexOf(`export function ${name}`)));
    for (const name of ['signatureValid', 'verifyTokenMatches']) {
      const body = fn(name);
      expect(body, name).toMatch(/timingSafeEqual\(/);
      // No ===, !==, localeCompare or startsWith between the secret-derived and the given values.
      expect(body.replace(/typeof \w+ !== 'string'/g, ''), name).not.toMatch(/(expected|given|digest\(\))\s*[!=]==|localeCompare|\.equals\(/);
    }
    expect(fn('signatureValid')).toMatch(/createHmac\('sha256', appSecret\)\.update\(rawBody\)/);
    // Equal-length wrong signatures are refused by the same function the route uses.
    const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
    const right = createHmac('sha256', 'segredo').update(body).digest('hex');
    expect(signatureValid('segredo', body, `sha256=${right}`)).toBe(true);
    for (let i = 0; i < 64; i += 7) {
      const wrong = `${right.slice(0, i)}${right[i] === 'f' ? '0' : 'f'}${right.slice(i + 1)}`;
      expect(wrong).toHaveLength(64);
      expect(signatureValid('segredo', body, `sha256=${wrong}`)).toBe(false);
    }
    // The route checks the raw bytes, not a re-serialised body.
    const route = fs.readFileSync(path.join(ROOT, 'plugins/channel-waba/src/index.ts'), 'utf8');
    expect(route).toMatch(/signatureValid\([^)]*req\.rawBody/);
  });
});
