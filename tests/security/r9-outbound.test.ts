/**
 * R9 outbound (X1 items 1, 3, 4): every URL a tenant can make the server call
 * — a channel's provider base URL, the SMTP host, a provider's media URL and
 * the redirects of any of them — pointed at loopback, private, link-local,
 * IPv6, IPv4-mapped and decimal/hex/octal forms is refused, and no connection
 * reaches the target. The install allows `localhost` only (as a superadmin
 * would for an on-premise provider), so redirects start from somewhere legal.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';

let t: TestApp;
let admin: TestUser;
/** A loopback server nobody may reach: it counts every connection it gets. */
let target: net.Server;
let targetPort = 0;
let hits = 0;
/** An allowed (localhost) server that redirects wherever `?to=` says. */
let redirector: http.Server;
let redirectorPort = 0;

const listen = async <S extends net.Server>(s: S) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
};

beforeAll(async () => {
  t = await createTestApp({ config: { outboundAllow: ['localhost'] } });
  admin = await t.loginAs('admin');
  target = net.createServer((c) => {
    hits++;
    c.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
  });
  targetPort = await listen(target);
  redirector = http.createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    res.writeHead(302, { location: to ?? '/' }).end();
  });
  redirectorPort = await listen(redirector);
}, 120_000);
afterAll(async () => {
  await t?.close();
  target?.close();
  redirector?.close();
});

/** The forms of "this machine" and "the private network" a probe tries, with the target's port. */
const hostsOf = (port: number) => [
  `127.0.0.1:${port}`,
  `127.1:${port}`,
  `2130706433:${port}`,
  `0x7f000001:${port}`,
  `0177.0.0.1:${port}`,
  `0.0.0.0:${port}`,
  `[::1]:${port}`,
  `[::]:${port}`,
  `[::ffff:127.0.0.1]:${port}`,
  `[::ffff:7f00:1]:${port}`,
  `10.0.0.1:${port}`,
  `172.16.0.1:${port}`,
  `192.168.0.1:${port}`,
  `169.254.169.254:${port}`,
  `[fe80::1]:${port}`,
  `[fd00::1]:${port}`,
  `[::ffff:169.254.169.254]:${port}`,
  `224.0.0.1:${port}`,
];
const BAD_URLS = hostsOf(80).map((h) => `http://${h}/`);

describe('R9 outbound', () => {
  it('R9: a tenant admin cannot point a channel\'s provider base URL (WABA graphBaseUrl, Telegram apiRoot) at any private form', async () => {
    const before = (await t.sql.query('SELECT count(*)::int AS n FROM channels WHERE tenant_id = $1', [admin.tenantId])).rows[0].n;
    const problems: string[] = [];
    for (const url of BAD_URLS) {
      const attempts = [
        { type: 'waba', name: 'WABA', secrets: { accessToken: 'EAAGx', appSecret: 'segredo' }, config: { phoneNumberId: '1', businessAccountId: '2', graphBaseUrl: url } },
        { type: 'telegram', name: 'Telegram', secrets: { token: '123456:ABCdef' }, config: { apiRoot: url, mode: 'polling' } },
      ];
      for (const payload of attempts) {
        const res = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload });
        if (res.statusCode !== 403 && res.statusCode !== 400) problems.push(`${payload.type} ${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        else if (!['ERR_PROVIDER_URL_LOCKED', 'ERR_VALIDATION'].includes(res.json().error)) problems.push(`${payload.type} ${url}: ${res.body.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
    expect((await t.sql.query('SELECT count(*)::int AS n FROM channels WHERE tenant_id = $1', [admin.tenantId])).rows[0].n).toBe(before);
    expect(hits).toBe(0);
  });

  it('R9: the tenant-wide WABA Graph base URL (plugin settings) is held to the channel field\'s rule: official or allowed host, anything else only by the superadmin', async () => {
    const put = (who: TestUser, graphBaseUrl: string) => t.app.inject({ method: 'PUT', url: '/api/plugins/channel-waba/settings', headers: who.headers, payload: { graphBaseUrl } });
    const stored = async () => (await t.sql.query(`SELECT config FROM tenant_plugins WHERE tenant_id = $1 AND plugin_id = 'channel-waba'`, [admin.tenantId])).rows[0]?.config?.graphBaseUrl;
    for (const url of ['https://graph.atacante.example/', ...BAD_URLS.slice(0, 3)]) {
      const res = await put(admin, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error, url).toBe('ERR_PROVIDER_URL_LOCKED');
      expect(await stored(), url).not.toBe(url);
    }
    // The official host and a host the superadmin allowed are the admin's to choose.
    expect((await put(admin, 'https://graph.facebook.com')).statusCode).toBe(200);
    expect((await put(admin, `http://localhost:${redirectorPort}`)).statusCode).toBe(200);
    expect(await stored()).toBe(`http://localhost:${redirectorPort}`);
    const root = await t.loginAs('superadmin', admin.tenantId);
    expect((await put(root, 'https://graph.onpremise.example')).statusCode).toBe(200);
    expect(await stored()).toBe('https://graph.onpremise.example');
  });

  it('R9: the SMTP host cannot be any private form: refused when saved, or when it would connect, with no connection made', async () => {
    const problems: string[] = [];
    for (const h of hostsOf(targetPort)) {
      const host = h.slice(0, h.lastIndexOf(':')).replace(/^\[|\]$/g, '');
      const saved = await t.app.inject({ method: 'PUT', url: '/api/tenants/smtp', headers: admin.headers, payload: { host, port: targetPort, secure: false, from: 'x@empresa.com.br' } });
      if (saved.statusCode >= 500) problems.push(`${host}: ${saved.statusCode}`);
      if (saved.statusCode >= 400) continue;
      const test = await t.app.inject({ method: 'POST', url: '/api/tenants/smtp/test', headers: admin.headers, payload: { to: 'alguem@empresa.com.br' } });
      if (test.statusCode < 400 || test.statusCode >= 500 && test.json().error !== 'ERR_SMTP_SEND') problems.push(`${host}: test answered ${test.statusCode} ${test.body.slice(0, 100)}`);
    }
    expect(problems).toEqual([]);
    expect(hits).toBe(0);
  });

  it('R9: a redirect from an allowed host into any private form is refused before connecting', async () => {
    const problems: string[] = [];
    for (const h of hostsOf(targetPort)) {
      const to = `http://${h}/meta-data`;
      const res = await t.app.kernel.outbound.fetch(`http://localhost:${redirectorPort}/r?to=${encodeURIComponent(to)}`).then(
        (r) => `answered ${r.status}`,
        (err: { code?: string }) => err.code,
      );
      if (res !== 'ERR_OUTBOUND_BLOCKED') problems.push(`${to}: ${res}`);
    }
    expect(problems).toEqual([]);
    expect(hits).toBe(0);
    // The redirector itself is reachable: the refusals are about where it points.
    expect((await t.app.kernel.outbound.fetch(`http://localhost:${redirectorPort}/r`, {}, { maxRedirects: 0 })).status).toBe(302);
  });

  it('R9: a provider\'s media URL is followed only to the provider\'s hosts, on every hop', async () => {
    const media = (url: string, hosts: string[]) => t.app.kernel.outbound.fetch(url, {}, { allowHosts: hosts }).then((r) => `answered ${r.status}`, (err: { code?: string }) => err.code);
    // An allowed host that is not the provider's.
    expect(await media(`http://localhost:${redirectorPort}/r`, ['graph.facebook.com', '*.fbcdn.net'])).toBe('ERR_OUTBOUND_BLOCKED');
    for (const h of hostsOf(targetPort)) expect(await media(`http://${h}/x`, ['graph.facebook.com']), h).toBe('ERR_OUTBOUND_BLOCKED');
    // The provider's host redirecting elsewhere, even to a public-looking name.
    expect(await media(`http://localhost:${redirectorPort}/r?to=${encodeURIComponent('http://example.com/x')}`, ['localhost'])).toBe('ERR_OUTBOUND_BLOCKED');
    expect(hits).toBe(0);
  });

  it('X1-3: the SMTP test answers the same generic failure for a port with a talking server and a closed one, never its words', async () => {
    const banner = net.createServer((c) => c.end('220 segredo-do-banner.interno ESMTP Postfix\r\n554 nao\r\n'));
    const bannerPort = await listen(banner);
    const closed = net.createServer();
    const closedPort = await listen(closed);
    await new Promise((r) => closed.close(r));
    const answers: string[] = [];
    for (const port of [bannerPort, closedPort]) {
      const saved = await t.app.inject({ method: 'PUT', url: '/api/tenants/smtp', headers: admin.headers, payload: { host: 'localhost', port, secure: false, from: 'x@empresa.com.br' } });
      expect(saved.statusCode).toBe(200);
      const res = await t.app.inject({ method: 'POST', url: '/api/tenants/smtp/test', headers: admin.headers, payload: { to: 'alguem@empresa.com.br' } });
      expect(res.statusCode).toBe(502);
      answers.push(res.body);
    }
    banner.close();
    expect(answers[0]).toBe(answers[1]);
    expect(JSON.parse(answers[0])).toEqual({ error: 'ERR_SMTP_SEND', message: expect.any(String) });
    expect(answers[0]).not.toContain('segredo');
    expect(answers[0]).not.toContain('Postfix');
  }, 60_000);

  it('X1-4: a provider answering an error page leaves its status and a short reason as the channel\'s last error, not its body', async () => {
    const secret = `SEGREDO-REMOTO-${'x'.repeat(180)}`;
    const provider = http.createServer((_req, res) => res.writeHead(500, { 'content-type': 'text/html' }).end(`<html><body><h1>${secret}</h1><script>alert(1)</script></body></html>`));
    const port = await listen(provider);
    try {
      const res = await t.app.inject({
        method: 'POST', url: '/api/channels', headers: admin.headers,
        payload: { type: 'waba', name: 'WABA local', secrets: { accessToken: 'EAAGtoken-x1-000000000000', appSecret: 'segredo-do-app-0000' }, config: { phoneNumberId: '100000000000001', businessAccountId: '200000000000002', graphBaseUrl: `http://localhost:${port}`, healthIntervalMs: 60_000 } },
      });
      expect(res.statusCode, res.body).toBe(201);
      const row = await until(async () => {
        const r = (await t.app.inject({ method: 'GET', url: `/api/channels/${res.json().id}`, headers: admin.headers })).json();
        return r.lastError ? r : undefined;
      }, 30_000, 'the channel\'s last error');
      expect(row.lastError).toContain('HTTP 500');
      expect(row.lastError).not.toContain('SEGREDO');
      expect(row.lastError).not.toContain('<');
      expect(row.lastError.length).toBeLessThanOrEqual(200);
    } finally {
      provider.close();
    }
  }, 60_000);
});
