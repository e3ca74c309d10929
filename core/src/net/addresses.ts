import net from 'node:net';

/**
 * Address classification for the outbound guard (docs/security.md): which IP
 * addresses a request to a tenant-chosen URL may reach. Everything that is not
 * a globally routable unicast address is refused — loopback, private, CGNAT,
 * link-local (cloud metadata lives at 169.254.169.254), unique-local,
 * multicast, unspecified, documentation and benchmarking ranges — and IPv6
 * forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are
 * judged by the IPv4 address inside.
 */

/** 4 or 16 bytes, network order. */
export type IpBytes = Uint8Array;

export function parseIPv4(s: string): IpBytes | undefined {
  if (!net.isIPv4(s)) return undefined;
  return Uint8Array.from(s.split('.').map(Number));
}

export function parseIPv6(input: string): IpBytes | undefined {
  const s = input.replace(/^\[|\]$/g, '').split('%')[0];
  if (!net.isIPv6(s)) return undefined;
  let head = s;
  let v4: IpBytes | undefined;
  const lastColon = s.lastIndexOf(':');
  if (s.indexOf('.', lastColon) !== -1) {
    v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4) return undefined;
    head = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(halves[0]);
  const right = halves.length > 1 ? groups(halves[1]) : [];
  const fill = 8 - left.length - right.length;
  const all = halves.length > 1 ? [...left, ...Array<string>(fill).fill('0'), ...right] : left;
  if (all.length !== 8) return undefined;
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  if (v4) out.set(v4, 12);
  return out;
}

export function parseIp(s: string): IpBytes | undefined {
  return parseIPv4(s) ?? parseIPv6(s);
}

export interface Cidr {
  bytes: IpBytes;
  prefix: number;
}

export function parseCidr(s: string): Cidr | undefined {
  const [addr, bits] = s.trim().split('/');
  const bytes = parseIp(addr);
  if (!bytes) return undefined;
  const max = bytes.length * 8;
  const prefix = bits === undefined ? max : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return undefined;
  return { bytes, prefix };
}

export function inCidr(ip: IpBytes, c: Cidr): boolean {
  if (ip.length !== c.bytes.length) return false;
  let bits = c.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip[i] & mask) !== (c.bytes[i] & mask)) return false;
  }
  return true;
}

const cidrs = (list: string[]) => list.map((s) => parseCidr(s)!);

/** IPv4 ranges that are not public unicast (RFC 6890 and friends). */
const BLOCKED_V4 = cidrs([
  '0.0.0.0/8', // "this network", incl. 0.0.0.0
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, cloud metadata
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast
]);

/** IPv6 ranges that are not public unicast. Ranges that embed IPv4 are handled apart. */
const BLOCKED_V6 = cidrs([
  '::/128',
  '::1/128',
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard
  '2001::/23', // IETF protocol assignments (Teredo, ORCHID, …)
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
]);

const MAPPED = parseCidr('::ffff:0:0/96')!;
const COMPATIBLE = parseCidr('::/96')!;
const NAT64 = parseCidr('64:ff9b::/96')!;
const SIX_TO_FOUR = parseCidr('2002::/16')!;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedV4(ip: IpBytes): IpBytes | undefined {
  if (ip.length !== 16) return undefined;
  if (inCidr(ip, MAPPED) || inCidr(ip, COMPATIBLE) || inCidr(ip, NAT64)) return ip.slice(12, 16);
  if (inCidr(ip, SIX_TO_FOUR)) return ip.slice(2, 6);
  return undefined;
}

/** Whether an address is a globally routable unicast address (what a tenant's URL may reach). */
export function isPublicAddress(address: string | IpBytes): boolean {
  const ip = typeof address === 'string' ? parseIp(address) : address;
  if (!ip) return false;
  if (ip.length === 4) return !BLOCKED_V4.some((c) => inCidr(ip, c));
  if (BLOCKED_V6.some((c) => inCidr(ip, c))) return false;
  // IPv4-compatible addresses are deprecated (RFC 4291) and route nowhere public.
  if (inCidr(ip, COMPATIBLE)) return false;
  const v4 = embeddedV4(ip);
  return v4 ? isPublicAddress(v4) : true;
}

/** Whether an address falls in one of the CIDRs, IPv4-mapped forms included. */
export function inAny(address: string, list: readonly Cidr[]): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  const v4 = embeddedV4(ip);
  return list.some((c) => inCidr(ip, c) || (!!v4 && inCidr(v4, c)));
}

export interface AllowList {
  hosts: string[];
  cidrs: Cidr[];
}

/** Parses allow-list entries: host names (`smtp.local`, `*.corp.example`), addresses and CIDRs. Invalid entries are reported. */
export function parseAllowList(entries: readonly string[]): AllowList & { invalid: string[] } {
  const out: AllowList & { invalid: string[] } = { hosts: [], cidrs: [], invalid: [] };
  for (const raw of entries) {
    const e = normalizeHost(raw);
    if (!e) continue;
    const cidr = parseCidr(e);
    if (cidr) out.cidrs.push(cidr);
    else if (/^(\*\.)?[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/.test(e) && e.length <= 253) out.hosts.push(e.replace(/\.$/, ''));
    else out.invalid.push(raw);
  }
  return out;
}

/** `host` matches a pattern: exactly, or `*.example.com` for any subdomain of example.com. */
export function hostMatches(host: string, pattern: string): boolean {
  const h = normalizeHost(host);
  const p = pattern.toLowerCase().replace(/\.$/, '');
  if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
  return h === p;
}

/** Lower case, no brackets, no trailing dot; IPv4 written as decimal, hex or octal becomes its dotted form (as URLs do). */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!net.isIP(h) && /^[0-9a-fx.]+$/.test(h)) {
    try {
      h = new URL(`http://${h}/`).hostname;
    } catch {
      // not an address in any form: left as the name it is
    }
  }
  return h;
}

