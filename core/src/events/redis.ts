import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { DeliveredEvent, EventBusPort, EventEnvelope } from '../sdk/types.ts';
import { RETAIN_PER_TENANT } from './local.ts';

/**
 * Multi-node bus: per-tenant seq from INCR, recent events in a capped list per
 * tenant (for resume/polling from any node), fan-out with pub/sub. The epoch is
 * a key that vanishes if Redis loses its data; a new epoch tells clients to
 * resync instead of silently missing events.
 */
export class RedisEventBus implements EventBusPort {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Set<(e: DeliveredEvent) => void>();
  private epoch: string | undefined;
  private readonly channel: string;

  // Atomically: make sure the epoch exists, take the next seq, store and publish.
  private static readonly SCRIPT = `
    local epoch = redis.call('GET', KEYS[1])
    if not epoch then
      epoch = ARGV[1]
      redis.call('SET', KEYS[1], epoch)
    end
    local seq = redis.call('INCR', KEYS[2])
    local payload = string.gsub(ARGV[2], '"__SEQ__"', tostring(seq))
    payload = string.gsub(payload, '"__EPOCH__"', '"' .. epoch .. '"')
    redis.call('RPUSH', KEYS[3], payload)
    redis.call('LTRIM', KEYS[3], -tonumber(ARGV[3]), -1)
    redis.call('PUBLISH', KEYS[4], payload)
    return payload`;

  constructor(url: string, private readonly ns: string) {
    const opts = { maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false } as const;
    // Auto-pipelining: the events of one ingest batch leave in one write, still in order on this one connection.
    this.pub = new Redis(url, { ...opts, enableAutoPipelining: true });
    this.sub = new Redis(url, opts);
    // EVALSHA after the first call instead of sending the script with every event.
    this.pub.defineCommand('atendePublish', { numberOfKeys: 4, lua: RedisEventBus.SCRIPT });
    this.channel = `${ns}:events`;
    // Errors surface through health(); ioredis reconnects by itself.
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.sub.subscribe(this.channel).catch(() => undefined);
    this.sub.on('ready', () => void this.sub.subscribe(this.channel).catch(() => undefined));
    this.sub.on('message', (_ch, msg: string) => {
      let d: DeliveredEvent;
      try {
        d = JSON.parse(msg) as DeliveredEvent;
      } catch {
        return;
      }
      this.epoch = d.epoch;
      for (const h of this.handlers) h(d);
    });
  }

  async publish<T>(e: EventEnvelope<T>): Promise<DeliveredEvent<T>> {
    const draft = { ...e, rooms: e.rooms ?? ['tenant'], seq: '__SEQ__', epoch: '__EPOCH__', at: Date.now() };
    const payload = (await (this.pub as Redis & { atendePublish(...args: string[]): Promise<string> }).atendePublish(
      `${this.ns}:epoch`,
      `${this.ns}:seq:${e.tenantId}`,
      `${this.ns}:log:${e.tenantId}`,
      this.channel,
      randomUUID(),
      JSON.stringify(draft),
      String(RETAIN_PER_TENANT),
    )) as string;
    return JSON.parse(payload) as DeliveredEvent<T>;
  }

  subscribe(handler: (e: DeliveredEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  private async currentEpoch(): Promise<string> {
    let epoch = await this.pub.get(`${this.ns}:epoch`);
    if (!epoch) {
      await this.pub.set(`${this.ns}:epoch`, randomUUID(), 'NX');
      epoch = (await this.pub.get(`${this.ns}:epoch`))!;
    }
    return epoch;
  }

  async since(tenantId: number, epoch: string | undefined, since: number) {
    const current = await this.currentEpoch();
    const seq = Number((await this.pub.get(`${this.ns}:seq:${tenantId}`)) ?? 0);
    if (epoch !== undefined && epoch !== current) return { resync: true as const, epoch: current, seq };
    if (since >= seq) return { epoch: current, events: [] };
    if (seq - since > RETAIN_PER_TENANT) return { resync: true as const, epoch: current, seq };
    // The log holds consecutive seqs, newest last: read only its tail from `since` on (plus a margin
    // for events appended meanwhile), not all of it — a reconnect storm of a busy tenant otherwise
    // parsed the whole log once per socket and stalled the node.
    for (let want = seq - since + 64; ; want *= 4) {
      const raw = await this.pub.lrange(`${this.ns}:log:${tenantId}`, -want, -1);
      const first = raw.length ? (JSON.parse(raw[0]) as DeliveredEvent).seq : undefined;
      if (first !== undefined && first <= since + 1) {
        const events: DeliveredEvent[] = [];
        for (const r of raw) {
          const ev = JSON.parse(r) as DeliveredEvent;
          if (ev.seq > since) events.push(ev);
        }
        return { epoch: current, events };
      }
      // Shorter than asked: the log does not go back that far.
      if (raw.length < want) return { resync: true as const, epoch: current, seq };
    }
  }

  async health() {
    try {
      return (await this.pub.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    this.handlers.clear();
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
