/**
 * X1 item 15: media URLs expire, are handed only to the file's tenant, and are
 * served with the type they were stored with, `nosniff`, and as a download
 * unless they are an image, audio or video.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { signSandbox } from '../../plugins/channel-sandbox/src/index.ts';
import { PNG_BYTES } from '../../core/src/modules/catalog/test-helpers.ts';

let t: TestApp;
let admin: TestUser;
let other: TestUser;
let ticketId: number;

const inbound = async (who: TestUser, channelId: number, id: string, media: { name: string; mimetype: string; data: Buffer }) => {
  const secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channelId}/secret`, headers: who.headers })).json().secret as string;
  const raw = JSON.stringify({ id, from: { id: 'cliente-midia', name: 'Cliente', number: '5511987650777' }, body: media.name, media: { ...media, data: media.data.toString('base64') } });
  const res = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${channelId}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw });
  expect(res.statusCode).toBe(200);
  return res.json() as { ticketId: number };
};
const messages = async (who: TestUser, ticket: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/messages/${ticket}`, headers: who.headers })).json().messages as { body: string; mediaUrl: string | null }[];

beforeAll(async () => {
  t = await createTestApp({ plugins: ['channel-sandbox'] });
  admin = await t.loginAs('admin');
  other = await t.loginAs('admin');
  const channel = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Mídia' } })).json();
  ticketId = (await inbound(admin, channel.id, 'm-png', { name: 'foto.png', mimetype: 'image/png', data: PNG_BYTES })).ticketId;
  await inbound(admin, channel.id, 'm-html', { name: 'pagina.html', mimetype: 'text/plain', data: Buffer.from('<html><script>alert(1)</script></html>') });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('X1-15: media URLs', () => {
  it('X1-15: the URL a user gets carries an expiry and serves the stored type with nosniff; the unexpiring stored URL is not served', async () => {
    const list = await messages(admin, ticketId);
    const png = list.find((m) => m.body === 'foto.png')!;
    expect(png.mediaUrl).toMatch(/^\/media\/\d+\/.+\?e=\d+&s=[\w-]+$/);
    const served = await t.app.inject({ method: 'GET', url: png.mediaUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBe('inline');
    expect(served.rawPayload.equals(PNG_BYTES)).toBe(true);

    const stored = (await t.sql.query<{ media_url: string }>(`SELECT media_url FROM messages WHERE ticket_id = $1 AND body = 'foto.png'`, [ticketId])).rows[0].media_url;
    expect(stored).toMatch(/\?s=/);
    expect((await t.app.inject({ method: 'GET', url: stored })).statusCode).toBe(404);
    // Moving the expiry breaks the signature.
    const [, exp] = /e=(\d+)/.exec(png.mediaUrl!)!;
    expect((await t.app.inject({ method: 'GET', url: png.mediaUrl!.replace(`e=${exp}`, `e=${Number(exp) + 3600}`) })).statusCode).toBe(404);
  });

  it('X1-15: a URL issued hours ago has expired', async () => {
    const stored = (await t.sql.query<{ media_url: string }>(`SELECT media_url FROM messages WHERE ticket_id = $1 AND body = 'foto.png'`, [ticketId])).rows[0].media_url;
    const old = t.app.kernel.storage.clientUrl(stored, admin.tenantId, Date.now() - 6 * 60 * 60 * 1000)!;
    expect(old).toMatch(/\?e=/);
    const res = await t.app.inject({ method: 'GET', url: old });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NOT_FOUND');
  });

  it('X1-15: anything that is not an image, audio or video is a download, whatever its name says', async () => {
    const html = (await messages(admin, ticketId)).find((m) => m.body === 'pagina.html')!;
    const res = await t.app.inject({ method: 'GET', url: html.mediaUrl! });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="pagina.html"/);
  });

  it('X1-15: a media URL is only ever signed for the tenant that owns the file', async () => {
    const stored = (await t.sql.query<{ media_url: string }>(`SELECT media_url FROM messages WHERE ticket_id = $1 AND body = 'foto.png'`, [ticketId])).rows[0].media_url;
    expect(t.app.kernel.storage.clientUrl(stored, other.tenantId)).toBeUndefined();
    expect(t.app.kernel.storage.clientJson(JSON.stringify({ mediaUrl: stored }), other.tenantId)).toBe('{"mediaUrl":null}');
    expect((await t.app.inject({ method: 'GET', url: `/api/messages/${ticketId}`, headers: other.headers })).statusCode).toBe(404);
  });

  it('X1-15: the socket frame of a new message carries the expiring URL too', async () => {
    const sock = await t.openSocket(admin.token);
    await sock.next((f) => f.event === 'hello');
    const channel = (await t.sql.query<{ id: number }>('SELECT id FROM channels WHERE tenant_id = $1', [admin.tenantId])).rows[0].id;
    await inbound(admin, channel, 'm-png-2', { name: 'outra.png', mimetype: 'image/png', data: PNG_BYTES });
    const frame = await sock.next((f) => f.event === 'message.created' && (f.data as { message?: { body?: string } }).message?.body === 'outra.png');
    const url = (frame.data as { message: { mediaUrl: string } }).message.mediaUrl;
    expect(url).toMatch(/\?e=\d+&s=/);
    expect((await t.app.inject({ method: 'GET', url })).headers['content-type']).toBe('image/png');
  });
});
