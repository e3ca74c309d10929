import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { Agent, buildConnector, FormData as UndiciFormData, fetch as undiciFetch, type Dispatcher } from 'undici';
import { AppError } from '../errors.ts';
import { hostMatches, inAny, isPublicAddress, normalizeHost, parseAllowList, parseIp, type AllowList } from './addresses.ts';

export { hostMatches, normalizeHost, parseAllowList } from './addresses.ts';

/**
 * The outbound guard (docs/reliability.md R9, docs/security.md): every HTTP request or
 * TCP connection to an address a tenant can influence — provider base URLs,
 * media URLs a provider hands out, SMTP hosts, webhook URLs — goes through
 * here. A destination is resolved first and every address it resolves to must
 * be public unicast, unless the superadmin allowed the host (or its address
 * range) for an on-premise provider. The connection is then made to the
 * address that was checked, so DNS cannot change between the check and the
 * connect (rebinding); redirects are followed by hand, each hop checked again.
 */

export interface OutboundOptions {
  /**
   * Hosts this call may reach (`graph.facebook.com`, `*.fbcdn.net`), on the
   * first request and on every redirect: a provider's media URLs are followed
   * only to the provider's own hosts.
   */
  allowHosts?: readonly string[];
  /** Redirects followed, each checked (default 5); 0 answers the 3xx itself. */
  maxRedirects?: number;
  /** Whole-call timeout when `init.signal` is not given (default 20 s). */
  timeoutMs?: number;
}

/** What plugins get as `ctx.outbound`. */
export interface OutboundPort {
  /**
   * `fetch` with the guard: a standard `Response` (undici's), so SDKs that
   * take a custom fetch (openai, anthropic, google-genai) can be handed
   * `(url, init) => ctx.outbound.fetch(url, init)`.
   */
  fetch(url: string | URL, init?: RequestInit, opts?: OutboundOptions): Promise<Response>;
  /** Checks a URL (scheme, `allowHosts`, every address it resolves to) without connecting; refuses with ERR_OUTBOUND_BLOCKED. */
  assertPublicUrl(url: string | URL, opts?: Pick<OutboundOptions, 'allowHosts'>): Promise<URL>;
  /** Resolves a host and checks every address; answers the address to connect to. */
  resolve(host: string): Promise<{ address: string; family: 4 | 6 }>;
  /** A TCP (or TLS, with `tls`) connection to a checked address, TLS verified against the original host name. */
  connect(opts: { host: string; port: number; tls?: boolean; timeoutMs?: number }): Promise<net.Socket>;
  /** An undici dispatcher whose every connection is checked, for libraries that take one (`fetch(url, { dispatcher })`). */
  readonly dispatcher: Dispatcher;
  /** Node `http(s).Agent`s whose every connection is checked, for libraries built on `http.request` (telegraf, node-fetch). */
  readonly agents: { http: http.Agent; https: https.Agent };
  /** Whether the superadmin's allow-list names this host (or all its addresses): such a host may also serve as a provider's base URL. */
  isAllowedHost(host: string): Promise<boolean>;
}

/** Refused before any connection: the destination is not public and not allowed. */
export class OutboundBlockedError extends AppError {
  constructor(readonly target: string, readonly reason: string) {
    super('ERR_OUTBOUND_BLOCKED');
    this.name = 'OutboundBlockedError';
  }
}

type LookupFn = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: LookupFn = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface OutboundGuardOptions {
  /** Entries from the install's configuration (`ATENDE_OUTBOUND_ALLOW`). */
  allow: readonly string[];
  /** The superadmin's entries (platform setting), read through a short cache. */
  loadAllow?: () => Promise<readonly string[]>;
  /** DNS resolution (tests may substitute one). */
  lookup?: LookupFn;
  /** Called for every refusal (logging). */
  onBlocked?: (target: string, reason: string) => void;
}

export class OutboundGuard implements OutboundPort {
  private cached?: { at: number; list: AllowList };
  private readonly lookupAll: LookupFn;
  readonly dispatcher: Dispatcher;
  readonly agents: { http: http.Agent; https: https.Agent };

  constructor(private readonly opts: OutboundGuardOptions) {
    this.lookupAll = opts.lookup ?? systemLookup;
    const base = buildConnector({ timeout: 10_000 });
    this.dispatcher = new Agent({
      connect: (o, cb) => {
        this.resolve(o.hostname).then(
          ({ address }) => {
            const name = normalizeHost(o.hostname);
            base({ ...o, hostname: address, servername: o.servername ?? (net.isIP(name) ? undefined : name) }, cb);
          },
          (err: Error) => cb(err, null),
        );
      },
    });
    const resolve = (host: string) => this.resolve(host);
    type Done = ((err: Error | null, stream: Duplex) => void) | undefined;
    // The node http stack asks the agent for each socket: the destination is checked, then the socket opened to the checked address.
    class GuardedHttpAgent extends http.Agent {
      override createConnection(options: http.ClientRequestArgs, cb?: Done): Duplex | null | undefined {
        const host = options.hostname ?? options.host ?? 'localhost';
        resolve(host).then(
          ({ address }) => cb?.(null, net.connect({ ...(options as net.TcpNetConnectOpts), host: address })),
          (err: Error) => cb?.(err, undefined as never),
        );
        return undefined;
      }
    }
    class GuardedHttpsAgent extends https.Agent {
      override createConnection(options: https.RequestOptions, cb?: Done): Duplex | null | undefined {
        const host = normalizeHost(options.hostname ?? options.host ?? 'localhost');
        resolve(host).then(
          ({ address }) => cb?.(null, tls.connect({ ...(options as tls.ConnectionOptions), host: address, servername: (options as tls.ConnectionOptions).servername ?? (net.isIP(host) ? undefined : host) })),
          (err: Error) => cb?.(err, undefined as never),
        );
        return undefined;
      }
    }
    this.agents = { http: new GuardedHttpAgent({ keepAlive: true }), https: new GuardedHttpsAgent({ keepAlive: true }) };
  }

  /** Forgets the cached superadmin list (after an edit; other nodes pick it up within the cache time). */
  invalidate(): void {
    this.cached = undefined;
  }

  private async allowList(): Promise<AllowList> {
    if (this.cached && Date.now() - this.cached.at < 5000) return this.cached.list;
    const extra = this.opts.loadAllow ? await this.opts.loadAllow().catch(() => [] as string[]) : [];
    const parsed = parseAllowList([...this.opts.allow, ...extra]);
    this.cached = { at: Date.now(), list: { hosts: parsed.hosts, cidrs: parsed.cidrs } };
    return this.cached.list;
  }

  private refuse(target: string, reason: string): never {
    this.opts.onBlocked?.(target, reason);
    throw new OutboundBlockedError(target, reason);
  }

  async isAllowedHost(host: string): Promise<boolean> {
    const h = normalizeHost(host);
    const list = await this.allowList();
    if (list.hosts.some((p) => hostMatches(h, p))) return true;
    return net.isIP(h) !== 0 && inAny(h, list.cidrs);
  }

  async resolve(host: string): Promise<{ address: string; family: 4 | 6 }> {
    const h = normalizeHost(host);
    if (!h) this.refuse(host, 'empty host');
    const list = await this.allowList();
    const namedAllowed = list.hosts.some((p) => hostMatches(h, p));
    let addresses: { address: string; family: number }[];
    if (net.isIP(h)) addresses = [{ address: h, family: net.isIP(h) }];
    else {
      try {
        addresses = await this.lookupAll(h);
      } catch (err) {
        throw Object.assign(new Error(`não foi possível resolver ${h}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`), { code: 'ENOTFOUND' });
      }
      if (!addresses.length) throw Object.assign(new Error(`não foi possível resolver ${h}`), { code: 'ENOTFOUND' });
    }
    // Every address must pass: one private answer among public ones is how rebinding tricks start.
    for (const a of addresses) {
      if (!parseIp(a.address)) this.refuse(h, `unparseable address ${a.address}`);
      if (!namedAllowed && !isPublicAddress(a.address) && !inAny(a.address, list.cidrs)) this.refuse(h, `address ${a.address} is not public`);
    }
    const first = addresses[0];
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  async assertPublicUrl(url: string | URL, opts: Pick<OutboundOptions, 'allowHosts'> = {}): Promise<URL> {
    let u: URL;
    try {
      u = new URL(String(url));
    } catch {
      this.refuse(String(url).slice(0, 200), 'invalid URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') this.refuse(u.origin, `scheme ${u.protocol}`);
    if (u.username || u.password) this.refuse(u.host, 'credentials in URL');
    if (opts.allowHosts && !opts.allowHosts.some((p) => hostMatches(u.hostname, p))) this.refuse(u.hostname, 'host not among the provider hosts');
    await this.resolve(u.hostname);
    return u;
  }

  async fetch(url: string | URL, init: RequestInit = {}, opts: OutboundOptions = {}): Promise<Response> {
    const maxRedirects = opts.maxRedirects ?? 5;
    const signal = init.signal ?? AbortSignal.timeout(opts.timeoutMs ?? 20_000);
    let current = await this.assertPublicUrl(url, opts);
    let method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    // The platform's FormData is not undici's own class, which would send it as text: copied entry by entry (files stay lazy blobs).
    if (body instanceof FormData) {
      const copy = new UndiciFormData();
      for (const [k, v] of body) {
        if (typeof v === 'string') copy.append(k, v);
        else copy.append(k, v, v.name);
      }
      body = copy;
    }
    const headers = new Headers(init.headers as HeadersInit | undefined);
    for (let hop = 0; ; hop++) {
      const res = (await undiciFetch(current, {
        ...(init as object),
        method,
        body: body as never,
        headers: [...headers],
        redirect: 'manual',
        signal,
        dispatcher: this.dispatcher,
      } as never)) as unknown as Response;
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location || maxRedirects === 0) return res;
      await res.body?.cancel().catch(() => undefined);
      if (hop >= maxRedirects) this.refuse(current.host, 'too many redirects');
      const next = await this.assertPublicUrl(new URL(location, current), opts);
      // A body that is a stream cannot be sent twice; a 303 (and a POST answered 301/302) becomes a GET, as browsers do.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      } else if (body instanceof ReadableStream) return res;
      // Credentials never follow a redirect to another origin.
      if (next.origin !== current.origin) {
        headers.delete('authorization');
        headers.delete('cookie');
        headers.delete('proxy-authorization');
      }
      current = next;
    }
  }

  async connect(opts: { host: string; port: number; tls?: boolean; timeoutMs?: number }): Promise<net.Socket> {
    const { address } = await this.resolve(opts.host);
    const name = normalizeHost(opts.host);
    return new Promise((resolve, reject) => {
      const s = opts.tls
        ? tls.connect({ host: address, port: opts.port, servername: net.isIP(name) ? undefined : name })
        : net.connect({ host: address, port: opts.port });
      const timer = setTimeout(() => s.destroy(Object.assign(new Error('connection timeout'), { code: 'ETIMEDOUT' })), opts.timeoutMs ?? 10_000);
      s.once(opts.tls ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  async close(): Promise<void> {
    this.agents.http.destroy();
    this.agents.https.destroy();
    await this.dispatcher.close().catch(() => undefined);
  }
}
