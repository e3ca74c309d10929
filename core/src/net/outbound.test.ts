import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, normalizeHost, parseAllowList } from './addresses.ts';
import { OutboundBlockedError, OutboundGuard } from './outbound.ts';

/** A local server that counts the TCP connections it received. */
async function listen(host: string, handler: http.RequestListener) {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, host, r));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, port: (server.address() as AddressInfo).port, connections: () => connections, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('address classification', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '::127.0.0.1', '2001:db8::1',
  ])('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '157.240.1.1', '2606:4700:4700::1111', '2a03:2880:f12f:83:face:b00c::25de', '::ffff:8.8.8.8', '172.32.0.1', '100.128.0.1'])('%s is public', (ip) => expect(isPublicAddress(ip)).toBe(true));

  it('decimal, hex and octal IPv4 forms become their dotted form', () => {
    expect(normalizeHost('2130706433')).toBe('127.0.0.1');
    expect(normalizeHost('0x7f000001')).toBe('127.0.0.1');
    expect(normalizeHost('017700000001')).toBe('127.0.0.1');
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('Graph.Facebook.COM.')).toBe('graph.facebook.com');
  });

  it('parses allow-list entries and reports the invalid ones', () => {
    const a = parseAllowList(['smtp.corp.local', '*.on-prem.example', '10.20.0.0/16', '127.0.0.2', '[::1]', 'not a host!', '10.0.0.0/99']);
    expect(a.hosts).toEqual(['smtp.corp.local', '*.on-prem.example']);
    expect(a.cidrs).toHaveLength(3);
    expect(a.invalid).toEqual(['not a host!', '10.0.0.0/99']);
  });
});

describe('OutboundGuard', () => {
  let target: Awaited<ReturnType<typeof listen>>;
  let provider: Awaited<ReturnType<typeof listen>>;
  // The "provider" stands on 127.0.0.2, which this guard allows; the internal target on 127.0.0.1 is not allowed.
  const guard = new OutboundGuard({ allow: ['127.0.0.2'] });

  beforeAll(async () => {
    target = await listen('127.0.0.1', (_req, res) => res.end('SEGREDO-INTERNO'));
    provider = await listen('127.0.0.2', (req, res) => {
      if (req.url === '/to-internal') return void res.writeHead(302, { location: `${target.url}/x` }).end();
      if (req.url === '/to-metadata') return void res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/to-self') return void res.writeHead(302, { location: '/final' }).end();
      if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/final') return void res.end(`final auth=${req.headers.authorization ?? 'none'}`);
      res.end('ok');
    });
  });
  afterAll(async () => {
    await target.close();
    await provider.close();
    await guard.close();
  });

  it('reaches an allowed host and follows redirects that stay allowed', async () => {
    const res = await guard.fetch(`${provider.url}/to-self`, { headers: { authorization: 'Bearer t' } });
    expect(await res.text()).toBe('final auth=Bearer t');
  });

  it.each(['http://127.0.0.1:PORT/', 'http://2130706433:PORT/', 'http://0x7f000001:PORT/', 'http://017700000001:PORT/', 'http://[::ffff:127.0.0.1]:PORT/', 'http://localhost:PORT/', 'http://0.0.0.0:PORT/'])(
    'refuses %s before connecting',
    async (u) => {
      const before = target.connections();
      await expect(guard.fetch(u.replace('PORT', String(target.port)))).rejects.toBeInstanceOf(OutboundBlockedError);
      expect(target.connections()).toBe(before);
    },
  );

  it('refuses a redirect into a private address, with no connection to it', async () => {
    const before = target.connections();
    await expect(guard.fetch(`${provider.url}/to-internal`)).rejects.toMatchObject({ code: 'ERR_OUTBOUND_BLOCKED' });
    await expect(guard.fetch(`${provider.url}/to-metadata`)).rejects.toMatchObject({ code: 'ERR_OUTBOUND_BLOCKED' });
    expect(target.connections()).toBe(before);
  });

  it('stops a redirect loop', async () => {
    await expect(guard.fetch(`${provider.url}/loop`)).rejects.toMatchObject({ code: 'ERR_OUTBOUND_BLOCKED' });
  });

  it('keeps a call to the provider hosts it names, on every hop', async () => {
    await expect(guard.fetch(`${provider.url}/to-self`, {}, { allowHosts: ['graph.facebook.com', '*.fbcdn.net'] })).rejects.toMatchObject({ code: 'ERR_OUTBOUND_BLOCKED' });
    expect(await (await guard.fetch(`${provider.url}/to-self`, {}, { allowHosts: ['127.0.0.2'] })).text()).toContain('final');
  });

  it('connects to the address it checked: a name that resolves to a private address later is refused at connect time', async () => {
    let calls = 0;
    // First answer public (the check), then loopback (what a rebinding DNS server would do at connect).
    const rebinding = new OutboundGuard({ allow: [], lookup: async () => (calls++ === 0 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]) });
    const before = target.connections();
    await expect(rebinding.fetch(`http://rebind.example:${target.port}/`, {}, { timeoutMs: 3000 })).rejects.toThrow();
    expect(target.connections()).toBe(before);
    await rebinding.close();
  });

  it('refuses non-http schemes and credentials in URLs', async () => {
    await expect(guard.assertPublicUrl('file:///etc/passwd')).rejects.toMatchObject({ code: 'ERR_OUTBOUND_BLOCKED' });
    await expect(guard.assertPublicUrl(`http://u:p@127.0.0.2:${provider.port}/`)).rejects.toMatchObject({ code: 'ERR_OUTBOUND_BLOCKED' });
  });

  it('guards raw TCP connections and the node http agents', async () => {
    await expect(guard.connect({ host: '127.0.0.1', port: target.port })).rejects.toBeInstanceOf(OutboundBlockedError);
    const ok = await guard.connect({ host: '127.0.0.2', port: provider.port });
    expect(ok).toBeInstanceOf(net.Socket);
    ok.destroy();
    const viaAgent = (port: number, host: string) =>
      new Promise<string>((resolve, reject) => {
        http.get({ host, port, path: '/', agent: guard.agents.http }, (res) => {
          let b = '';
          res.on('data', (c) => (b += c));
          res.on('end', () => resolve(b));
        }).on('error', reject);
      });
    expect(await viaAgent(provider.port, '127.0.0.2')).toBe('ok');
    const before = target.connections();
    await expect(viaAgent(target.port, '127.0.0.1')).rejects.toBeInstanceOf(OutboundBlockedError);
    expect(target.connections()).toBe(before);
  });

  it('guards the undici dispatcher handed to libraries', async () => {
    const before = target.connections();
    await expect(fetch(`${target.url}/`, { dispatcher: guard.dispatcher } as RequestInit)).rejects.toThrow();
    expect(target.connections()).toBe(before);
  });
});
