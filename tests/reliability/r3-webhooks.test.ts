/**
 * R3 webhook authenticity (docs/reliability.md): a webhook that cannot prove it comes
 * from the provider is refused with 401 and a catalogue code, and leaves no
 * trace: the counts of messages, contacts and tickets are the same before
 * and after. The comparisons themselves are constant time; that is checked
 * by reading the verifying code (a timing measurement would be noise on a
 * shared machine), below.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { signSandbox, SIGNATURE_HEADER } from '../../plugins/channel-sandbox/src/index.ts';
import { SECRET_HEADER, secretMatches } from '../../plugins/channel-telegram/src/index.ts';
import { FakeBotApi } from '../../plugins/channel-telegram/src/fake-bot-api.ts';

let t: TestApp;
let admin: TestUser;
let botApi: FakeBotApi;
const ROOT = path.resolve(import.meta.dirname, '..', '..');

const counts = async () =>
  (await t.sql.query(`SELECT (SELECT count(*) FROM messages)::int AS messages, (SELECT count(*) FROM contacts)::int AS contacts, (SELECT count(*) FROM tickets)::int AS tickets`)).rows[0];

beforeAll(async () => {
  botApi = await FakeBotApi.start();
  t = await createTestApp({ plugins: ['channel-sandbox', 'channel-telegram'] });
  admin = await t.loginAs('admin');
});
afterAll(async () => {
  await t?.close();
  await botApi?.close();
});

function expectRefused(res: { statusCode: number; json(): { error?: string } }, where: string) {
  expect([401, 403], where).toContain(res.statusCode);
  expect(res.json().error, where).toBe('ERR_WEBHOOK_SIGNATURE');
}

describe('R3 webhook authenticity: signed sandbox webhook', () => {
  it('missing, wrong, foreign and tampered signatures are refused with nothing written', async () => {
    const mk = async (name: string) => {
      const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name } })).json();
      const secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${ch.id}/secret`, headers: admin.headers })).json().secret as string;
      return { id: ch.id as number, secret };
    };
    const a = await mk('R3 A');
    const b = await mk('R3 B');
    const raw = JSON.stringify({ id: 'r3-1', from: { id: 'r3-customer', name: 'Invasor' }, body: 'mensagem forjada' });
    const send = (channelId: number, body: string, sig?: string) =>
      t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${channelId}`, headers: { 'content-type': 'application/json', ...(sig !== undefined ? { [SIGNATURE_HEADER]: sig } : {}) }, payload: body });
    const before = await counts();
    const good = signSandbox(a.secret, raw);
    const cases: [string, number, string, string | undefined][] = [
      ['missing signature', a.id, raw, undefined],
      ['empty signature', a.id, raw, ''],
      ['wrong signature', a.id, raw, `sha256=${'0'.repeat(64)}`],
      ['truncated signature', a.id, raw, good.slice(0, -2)],
      ['signature without prefix', a.id, raw, good.slice('sha256='.length)],
      ['another channel’s secret', a.id, raw, signSandbox(b.secret, raw)],
      ['right signature, other channel', b.id, raw, good],
      ['tampered body', a.id, raw.replace('forjada', 'alterada'), good],
      ['extra whitespace in body', a.id, `${raw} `, good],
      ['unknown channel', 2_000_000_000, raw, good],
    ];
    for (const [what, channelId, body, sig] of cases) expectRefused(await send(channelId, body, sig), what);
    expect(await counts()).toEqual(before);
    // The genuine request still works, so the refusals above were about authenticity alone.
    expect((await send(a.id, raw, good)).statusCode).toBe(200);
    expect((await counts()).messages).toBe(before.messages + 1);
  });
});

describe('R3 webhook authenticity: Telegram secret token', () => {
  it('missing or wrong X-Telegram-Bot-Api-Secret-Token is refused with nothing written', async () => {
    const base = await t.baseUrl();
    const mk = async (name: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/channels',
        headers: admin.headers,
        payload: { type: 'telegram', name, secrets: { token: botApi.token }, config: { apiRoot: botApi.url, mode: 'webhook', webhookBaseUrl: base, healthIntervalMs: 60_000 } },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as number;
      await until(async () => (await t.sql.query('SELECT status FROM channels WHERE id = $1', [id])).rows[0].status === 'connected');
      return { id, secret: (await t.sql.query('SELECT secrets FROM channels WHERE id = $1', [id])).rows[0].secrets.webhookSecret as string };
    };
    const a = await mk('Telegram R3 A');
    const b = await mk('Telegram R3 B');
    const update = JSON.stringify({ update_id: 9001, message: { message_id: 1, date: 1700000000, chat: { id: 424242, type: 'private', first_name: 'Invasor' }, from: { id: 424242, first_name: 'Invasor' }, text: 'forjado' } });
    const send = (channelId: number, token?: string) =>
      t.app.inject({ method: 'POST', url: `/api/plugins/channel-telegram/webhook/${channelId}`, headers: { 'content-type': 'application/json', ...(token !== undefined ? { [SECRET_HEADER]: token } : {}) }, payload: update });
    const before = await counts();
    const cases: [string, number, string | undefined][] = [
      ['missing token', a.id, undefined],
      ['empty token', a.id, ''],
      ['wrong token', a.id, 'x'.repeat(a.secret.length)],
      ['token with a suffix', a.id, `${a.secret}a`],
      ['token missing a character', a.id, a.secret.slice(1)],
      ['another channel’s token', a.id, b.secret],
      ['the bot token instead', a.id, botApi.token],
      ['unknown channel', 2_000_000_000, a.secret],
    ];
    for (const [what, channelId, token] of cases) expectRefused(await send(channelId, token), what);
    expect(await counts()).toEqual(before);
    expect((await send(a.id, a.secret)).statusCode).toBe(200);
    expect((await counts()).messages).toBe(before.messages + 1);
  });
});

describe('R3 webhook authenticity: constant-time comparison (by reading the code)', () => {
  it('the sandbox signature check compares with crypto.timingSafeEqual, after a length check only', () => {
    const src = fs.readFileSync(path.join(ROOT, 'plugins/channel-sandbox/src/index.ts'), 'utf8');
    const fn = /function signatureValid[\s\S]*?\n}/.exec(src)?.[0] ?? '';
    expect(fn).toMatch(/timingSafeEqual\(expected, given\)/);
    expect(fn).not.toMatch(/===\s*(given|header|expected)\b(?!\.length)/);
  });

  it('the Telegram secret token is hashed to equal lengths and compared with crypto.timingSafeEqual', () => {
    const src = fs.readFileSync(path.join(ROOT, 'plugins/channel-telegram/src/index.ts'), 'utf8');
    const fn = /export function secretMatches[\s\S]*?\n}/.exec(src)?.[0] ?? '';
    expect(fn).toMatch(/timingSafeEqual\(a, b\)/);
    expect(fn).toMatch(/createHash\('sha256'\)\.update\(expected\)/);
    expect(fn).toMatch(/createHash\('sha256'\)\.update\(given\)/);
    expect(fn).not.toMatch(/expected\s*===\s*given|given\s*===\s*expected/);
    // And it behaves: equal only for the exact secret.
    expect([secretMatches('abc', 'abc'), secretMatches('abc', 'abd'), secretMatches('abc', 'ab'), secretMatches('abc', undefined)]).toEqual([true, false, false, false]);
  });
});
