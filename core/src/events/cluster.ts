import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** A frame between nodes: never sequenced, never logged for replay, never sent to a browser. */
type Frame =
  | { kind: 'msg'; topic: string; from: string; data: unknown }
  | { kind: 'req'; topic: string; from: string; id: string; data: unknown }
  | { kind: 'res'; to: string; id: string; result?: unknown; error?: { message: string; code?: string } };

/**
 * Node-to-node messages of one install (`ctx.cluster`), apart from the tenant
 * event bus: domain events carry a per-tenant seq and a replay window for
 * clients, which request/reply traffic between nodes must not consume.
 * In-process with one node, Redis pub/sub on its own channel otherwise.
 */
export interface ClusterPort {
  /** This node's id. */
  readonly nodeId: string;
  /** Sends to every other node listening on the topic. */
  broadcast(topic: string, data: unknown): Promise<void>;
  /** Receives broadcasts of other nodes on a topic. */
  on(topic: string, handler: (data: unknown, from: string) => void | Promise<void>): void;
  /**
   * Answers requests on a topic: return a value to answer, or `undefined` when
   * this node is not the one asked for (e.g. it does not hold that session).
   * A thrown error is returned to the caller.
   */
  handle(topic: string, handler: (data: unknown) => Promise<unknown> | unknown): void;
  /**
   * Asks the nodes (this one included) on a topic and resolves with the first
   * answer; rejects with the answering node's error, or after `timeoutMs`
   * when no node answered.
   */
  request(topic: string, data: unknown, opts: { timeoutMs: number }): Promise<unknown>;
  close(): Promise<void>;
}

/** Thrown by `request` when no node answered in time. */
export class ClusterTimeoutError extends Error {
  constructor(topic: string) {
    super(`no node answered ${topic}`);
    this.name = 'ClusterTimeoutError';
  }
}

/** Thrown by `request` with the message (and code) of the answering node's error. */
export class ClusterRemoteError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = 'ClusterRemoteError';
  }
}

abstract class BaseCluster implements ClusterPort {
  readonly nodeId = randomUUID();
  private readonly listeners = new Map<string, Set<(data: unknown, from: string) => void | Promise<void>>>();
  private readonly handlers = new Map<string, Set<(data: unknown) => Promise<unknown> | unknown>>();
  private readonly pending = new Map<string, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();

  protected abstract send(frame: Frame): Promise<void>;

  async broadcast(topic: string, data: unknown): Promise<void> {
    await this.send({ kind: 'msg', topic, from: this.nodeId, data });
  }

  on(topic: string, handler: (data: unknown, from: string) => void | Promise<void>): void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(handler);
  }

  handle(topic: string, handler: (data: unknown) => Promise<unknown> | unknown): void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
  }

  async request(topic: string, data: unknown, opts: { timeoutMs: number }): Promise<unknown> {
    // This node first: no round trip when it is the one that can answer.
    const local = await this.answer(topic, data);
    if (local) {
      if (local.error) throw new ClusterRemoteError(local.error.message, local.error.code);
      return local.result;
    }
    const id = randomUUID();
    const result = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ClusterTimeoutError(topic));
      }, opts.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
    });
    await this.send({ kind: 'req', topic, from: this.nodeId, id, data });
    return result;
  }

  /** Runs this node's handlers for a request: the first defined answer, or undefined when none of them is concerned. */
  private async answer(topic: string, data: unknown): Promise<{ result?: unknown; error?: { message: string; code?: string } } | undefined> {
    for (const h of this.handlers.get(topic) ?? []) {
      try {
        const result = await h(data);
        if (result !== undefined) return { result };
      } catch (err) {
        const e = err as Error & { code?: unknown };
        return { error: { message: e.message, code: typeof e.code === 'string' ? e.code : undefined } };
      }
    }
    return undefined;
  }

  protected async receive(frame: Frame): Promise<void> {
    if (frame.kind === 'res') {
      if (frame.to !== this.nodeId) return;
      const p = this.pending.get(frame.id);
      if (!p) return;
      this.pending.delete(frame.id);
      clearTimeout(p.timer);
      if (frame.error) p.reject(new ClusterRemoteError(frame.error.message, frame.error.code));
      else p.resolve(frame.result);
      return;
    }
    if (frame.from === this.nodeId) return;
    if (frame.kind === 'msg') {
      for (const h of this.listeners.get(frame.topic) ?? []) void Promise.resolve(h(frame.data, frame.from)).catch(() => undefined);
      return;
    }
    const answer = await this.answer(frame.topic, frame.data);
    if (answer) await this.send({ kind: 'res', to: frame.from, id: frame.id, ...answer });
  }

  async close(): Promise<void> {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}

/** One node: nothing to send to; requests are answered by this node's handlers or time out. */
export class LocalCluster extends BaseCluster {
  protected async send(): Promise<void> {}
}

/** Several nodes sharing a Redis: one pub/sub channel per install namespace. */
export class RedisCluster extends BaseCluster {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly channel: string;

  constructor(url: string, namespace: string) {
    super();
    const opts = { maxRetriesPerRequest: null, enableOfflineQueue: true } as const;
    this.pub = new Redis(url, opts);
    this.sub = new Redis(url, opts);
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.channel = `${namespace}:cluster`;
    this.sub.subscribe(this.channel).catch(() => undefined);
    this.sub.on('ready', () => void this.sub.subscribe(this.channel).catch(() => undefined));
    this.sub.on('message', (_ch, msg: string) => {
      let frame: Frame;
      try {
        frame = JSON.parse(msg) as Frame;
      } catch {
        return;
      }
      void this.receive(frame).catch(() => undefined);
    });
  }

  protected async send(frame: Frame): Promise<void> {
    await this.pub.publish(this.channel, JSON.stringify(frame));
  }

  override async close(): Promise<void> {
    await super.close();
    this.pub.disconnect();
    this.sub.disconnect();
  }
}
