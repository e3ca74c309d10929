import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kernel } from '../../kernel.ts';
import { ChannelError, type ChannelAdapter, type ChannelRecord } from '../../sdk/channel.ts';
import type { ChannelAuthState, ChannelSessionsPort } from '../../sdk/types.ts';
import { channelRuntime, findChannel, setChannelStatus } from '../conversations/channels.ts';

/** Cluster topic (node to node, never the tenant event bus) that asks the node running a session to act on it. */
const CONTROL_TOPIC = '_kernel:channel_session';
const DEFAULT_LEASE_MS = 20_000;
const DEFAULT_RENEW_MS = 5_000;
/** First retry delay after a failed connect; it doubles per consecutive failure, up to 2^8 times. */
const RETRY_BASE_MS = 1000;

interface ControlMessage {
  channelId: number;
  action: 'restart' | 'stop' | 'pairing';
  number?: string;
}

interface Running {
  channel: ChannelRecord;
  adapter: ChannelAdapter;
}

/**
 * Ownership of long-lived channel sessions (Baileys, whatsapp-web.js, a
 * Telegram polling loop) across worker nodes. Each session has a row in
 * `channel_sessions`; the node that runs it renews `lease_until` every few
 * seconds. A node that dies stops renewing, its leases run out, and the
 * periodic sweep on every other worker node picks the session up and calls
 * `adapter.connect` there. The UPDATE that acquires a lease is conditional on
 * it being free or expired, so two nodes can never both win it.
 */
export class ChannelSessions implements ChannelSessionsPort {
  readonly nodeId = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`.replace(/[^a-zA-Z0-9_.-]/g, '_');
  private readonly running = new Map<number, Running>();
  /** Channels with a connect or stop in progress on this node: the sweep and control events skip them. */
  private readonly busy = new Set<number>();
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private started = false;
  private stopping = false;

  constructor(private readonly kernel: Kernel) {
    this.leaseMs = kernel.config.channelSessions?.leaseMs ?? DEFAULT_LEASE_MS;
    this.renewMs = kernel.config.channelSessions?.renewMs ?? DEFAULT_RENEW_MS;
  }

  /** Whether this node runs sessions at all (worker and all-in-one roles). */
  get runsSessions(): boolean {
    return this.started && !this.stopping;
  }

  owns(channelId: number): boolean {
    return this.running.has(channelId);
  }

  /** Starts renewing, sweeping and listening for control messages. Called once the app is ready, after every adapter registered. */
  start(): void {
    if (this.started) return;
    this.started = true;
    // The cluster delivers only other nodes' messages: this node acts on its own requests directly.
    this.kernel.cluster.on(CONTROL_TOPIC, (data) =>
      this.onControl(data as ControlMessage).catch((err) => this.kernel.logger.warn({ err: (err as Error).message }, 'channel session control failed')),
    );
    const tick = () => {
      if (this.ticking || this.stopping) return;
      this.ticking = this.tick()
        .catch((err) => this.kernel.logger.warn({ err: (err as Error).message }, 'channel session sweep failed'))
        .finally(() => (this.ticking = undefined));
    };
    this.timer = setInterval(tick, this.renewMs);
    this.timer.unref();
    tick();
  }

  private longLivedTypes(): string[] {
    return [...this.kernel.channelAdapters.values()].filter((a) => a.longLived).map((a) => a.type);
  }

  private async tick(): Promise<void> {
    await this.renew();
    await this.sweep();
  }

  /**
   * Extends this node's leases, including sessions still connecting (a slow
   * connect must not let the lease lapse under it); a session whose lease
   * was taken over or is no longer wanted stops here.
   */
  private async renew(): Promise<void> {
    const ids = [...this.running.keys()];
    if (!ids.length) return;
    const r = await this.kernel.db.pool.query<{ channel_id: number }>(
      `UPDATE channel_sessions SET lease_until = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
        WHERE node_id = $1 AND channel_id = ANY($2::int[]) AND wanted RETURNING channel_id`,
      [this.nodeId, ids, this.leaseMs],
    );
    const kept = new Set(r.rows.map((x) => x.channel_id));
    for (const id of ids) if (!kept.has(id) && !this.busy.has(id)) await this.stopLocal(id, false);
  }

  /** Takes over wanted sessions nobody holds (new, released, or whose node died). */
  private async sweep(): Promise<void> {
    const types = this.longLivedTypes();
    if (!types.length || this.stopping) return;
    const free = await this.kernel.db.pool.query<{ channel_id: number }>(
      `SELECT s.channel_id FROM channel_sessions s JOIN channels c ON c.id = s.channel_id
        WHERE s.wanted AND c.deleted_at IS NULL AND c.type = ANY($1::text[])
          AND (s.node_id IS NULL OR s.lease_until < now()) AND s.retry_at <= now()
        ORDER BY s.lease_until LIMIT 50`,
      [types],
    );
    for (const row of free.rows) await this.tryAcquire(row.channel_id);
  }

  /** Acquires the lease if it is free, expired or already ours, then connects here. */
  private async tryAcquire(channelId: number): Promise<boolean> {
    if (this.running.has(channelId) || this.busy.has(channelId) || !this.runsSessions) return this.running.has(channelId);
    this.busy.add(channelId);
    try {
      const won = await this.kernel.db.pool.query(
        `UPDATE channel_sessions SET node_id = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
          WHERE channel_id = $1 AND wanted AND retry_at <= now() AND (node_id IS NULL OR lease_until < now() OR node_id = $2)
          RETURNING channel_id`,
        [channelId, this.nodeId, this.leaseMs],
      );
      if (!won.rowCount) return false;
      const channel = await findChannel(this.kernel, channelId);
      const adapter = channel ? this.kernel.channelAdapters.get(channel.type) : undefined;
      if (!channel || !adapter?.longLived || !adapter.connect) {
        await this.release([channelId]);
        return false;
      }
      this.running.set(channelId, { channel, adapter });
      await this.connectHere(channel, adapter);
      return this.running.has(channelId);
    } finally {
      this.busy.delete(channelId);
    }
  }

  private async connectHere(channel: ChannelRecord, adapter: ChannelAdapter): Promise<void> {
    try {
      await setChannelStatus(this.kernel, channel.tenantId, channel.id, 'opening');
      await adapter.connect!(channel, channelRuntime(this.kernel));
      await this.kernel.db.pool.query(`UPDATE channel_sessions SET failures = 0, retry_at = '-infinity' WHERE channel_id = $1`, [channel.id]);
    } catch (err) {
      this.running.delete(channel.id);
      await adapter.disconnect?.(channel).catch(() => undefined);
      await this.recordFailure(channel, err as Error);
    }
  }

  /**
   * A failed connect releases the lease. A permanent failure (bad
   * credentials) stops retrying until an admin connects again; any other is
   * retried by the sweep after a growing delay, on whichever node wins.
   */
  private async recordFailure(channel: ChannelRecord, err: Error): Promise<void> {
    const permanent = err instanceof ChannelError && err.permanent;
    const r = await this.kernel.db.pool.query<{ failures: number }>(
      `UPDATE channel_sessions SET node_id = NULL, lease_until = '-infinity', failures = failures + 1, wanted = wanted AND NOT $3,
              retry_at = now() + make_interval(secs => $4::double precision / 1000 * power(2, LEAST(failures, 8)))
        WHERE channel_id = $1 AND node_id = $2 RETURNING failures`,
      [channel.id, this.nodeId, permanent, RETRY_BASE_MS],
    );
    this.kernel.logger.warn({ channelId: channel.id, err: err.message, permanent }, 'channel session connect failed');
    await setChannelStatus(this.kernel, channel.tenantId, channel.id, 'disconnected', { error: err.message.slice(0, 500), retries: r.rows[0]?.failures });
  }

  private async release(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.kernel.db.pool.query(`UPDATE channel_sessions SET node_id = NULL, lease_until = '-infinity', updated_at = now() WHERE node_id = $1 AND channel_id = ANY($2::int[])`, [this.nodeId, ids]);
  }

  /** Stops a session running here; `release` hands the lease back at once (a graceful stop) instead of letting it expire. */
  private async stopLocal(channelId: number, release: boolean): Promise<void> {
    const run = this.running.get(channelId);
    if (!run) return;
    this.running.delete(channelId);
    await run.adapter.disconnect?.(run.channel).catch((err) => this.kernel.logger.warn({ channelId, err: (err as Error).message }, 'channel disconnect failed'));
    if (release) await this.release([channelId]);
  }

  private async onControl(m: ControlMessage): Promise<void> {
    if (!this.started || this.stopping) return;
    if (m.action === 'stop') await this.stopLocal(m.channelId, true);
    else if (m.action === 'restart') await this.restartHere(m.channelId);
    else if (m.action === 'pairing' && m.number && this.running.has(m.channelId)) await this.pairHere(m.channelId, m.number);
  }

  private async restartHere(channelId: number): Promise<void> {
    if (!this.runsSessions) return;
    if (this.running.has(channelId)) {
      await this.stopLocal(channelId, false);
      // Still holding the lease: reconnect on this node.
    }
    await this.tryAcquire(channelId);
  }

  /**
   * An admin wants the session up (create, connect, settings changed): the
   * row is (re)marked wanted with its failure count reset, the node running
   * it restarts it, and if nobody does, this node or the next sweep anywhere
   * takes it.
   */
  async want(tenantId: number, channelId: number): Promise<void> {
    await this.kernel.db.pool.query(
      `INSERT INTO channel_sessions (channel_id, tenant_id, wanted) VALUES ($1, $2, true)
       ON CONFLICT (channel_id) DO UPDATE SET wanted = true, failures = 0, retry_at = '-infinity', updated_at = now()`,
      [channelId, tenantId],
    );
    await this.control({ channelId, action: 'restart' });
    if (this.runsSessions) await this.restartHere(channelId);
  }

  /** An admin stopped the session (disconnect, delete): nobody may run it until it is wanted again. */
  async unwant(tenantId: number, channelId: number): Promise<void> {
    await this.kernel.db.pool.query(`UPDATE channel_sessions SET wanted = false, updated_at = now() WHERE channel_id = $1`, [channelId]);
    if (this.running.has(channelId)) await this.stopLocal(channelId, true);
    else await this.control({ channelId, action: 'stop' });
  }

  /** Asks the node running the session for a pairing code; the code arrives as `channel.updated` (and is returned when this node runs it). */
  async requestPairing(tenantId: number, channelId: number, number: string): Promise<string | undefined> {
    if (this.running.has(channelId)) return this.pairHere(channelId, number);
    const owner = await this.kernel.db.pool.query(`SELECT 1 FROM channel_sessions WHERE channel_id = $1 AND wanted AND node_id IS NOT NULL AND lease_until > now()`, [channelId]);
    if (!owner.rowCount) throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'A sessão deste canal não está em execução');
    await this.control({ channelId, action: 'pairing', number });
    return undefined;
  }

  private async pairHere(channelId: number, number: string): Promise<string> {
    const run = this.running.get(channelId)!;
    const code = await run.adapter.requestPairingCode!(run.channel, number);
    const r = await this.kernel.db.pool.query(`UPDATE channels SET pairing_code = $2, updated_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING tenant_id`, [channelId, code]);
    if (r.rows[0]) await setChannelStatus(this.kernel, r.rows[0].tenant_id, channelId, 'qrcode');
    return code;
  }

  /** The node currently holding a live lease on the channel, if any. */
  async owner(channelId: number): Promise<string | undefined> {
    const r = await this.kernel.db.pool.query<{ node_id: string }>(`SELECT node_id FROM channel_sessions WHERE channel_id = $1 AND node_id IS NOT NULL AND lease_until > now()`, [channelId]);
    return r.rows[0]?.node_id;
  }

  private async control(m: ControlMessage): Promise<void> {
    await this.kernel.cluster.broadcast(CONTROL_TOPIC, m);
  }

  /** Graceful stop: sessions close here and their leases are released at once, so another node takes over without waiting. */
  async stop(): Promise<void> {
    if (!this.started || this.stopping) return;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking?.catch(() => undefined);
    const ids = [...this.running.keys()];
    await Promise.allSettled(ids.map((id) => this.stopLocal(id, false)));
    await this.release(ids).catch(() => undefined);
  }
}

/** Auth state in PostgreSQL. A write is refused while another node holds a live lease on the channel: a node that lost its session cannot clobber the new owner's keys. */
export function authState(kernel: Kernel, sessions: ChannelSessions, channelId: number): ChannelAuthState {
  const pool = kernel.db.pool;
  return {
    async get<T>(key: string) {
      const r = await pool.query<{ value: T }>('SELECT value FROM channel_auth_state WHERE channel_id = $1 AND key = $2', [channelId, key]);
      return r.rows[0]?.value;
    },
    async set(key, value) {
      const r = await pool.query(
        `INSERT INTO channel_auth_state (channel_id, tenant_id, key, value)
         SELECT c.id, c.tenant_id, $2, $3::jsonb FROM channels c
          WHERE c.id = $1 AND NOT EXISTS (SELECT 1 FROM channel_sessions s WHERE s.channel_id = $1 AND s.node_id IS NOT NULL AND s.node_id <> $4 AND s.lease_until > now())
         ON CONFLICT (channel_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [channelId, key, JSON.stringify(value ?? null), sessions.nodeId],
      );
      if (!r.rowCount) throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', `a sessão do canal ${channelId} pertence a outro nó; estado de autenticação não gravado`);
    },
    async delete(key) {
      await pool.query('DELETE FROM channel_auth_state WHERE channel_id = $1 AND key = $2', [channelId, key]);
    },
    async keys() {
      return (await pool.query<{ key: string }>('SELECT key FROM channel_auth_state WHERE channel_id = $1 ORDER BY key', [channelId])).rows.map((r) => r.key);
    },
    async clear() {
      await pool.query('DELETE FROM channel_auth_state WHERE channel_id = $1', [channelId]);
    },
  };
}

const instances = new WeakMap<Kernel, ChannelSessions>();

/** The kernel's session manager (one per process and kernel). */
export function channelSessions(kernel: Kernel): ChannelSessions {
  let s = instances.get(kernel);
  if (!s) instances.set(kernel, (s = new ChannelSessions(kernel)));
  return s;
}
