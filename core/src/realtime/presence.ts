import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { EventBusPort, MigrationDef } from '../sdk/types.ts';

/**
 * Presence from real sockets (spec core.md §3 "online status", the private
 * chat's isOnline): a user is online while at least one of their sockets is
 * open on any node. Each node keeps a row per user it serves, with a lease it
 * renews every 30 s, so a node that dies stops counting within LEASE_S;
 * `users.is_online` is recomputed on each change and `user.status_updated`
 * is published only when it flips.
 */
export const presenceMigrations: MigrationDef[] = [
  {
    name: '0001_presence',
    up: [
      `CREATE TABLE realtime_presence (
        node_id text NOT NULL,
        tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        sockets integer NOT NULL,
        lease_until timestamptz NOT NULL,
        PRIMARY KEY (node_id, user_id))`,
      `CREATE INDEX realtime_presence_user_idx ON realtime_presence (tenant_id, user_id, lease_until)`,
    ],
  },
];

const LEASE_S = 90;
/** A closed tab that comes back this fast (a reload) never shows as offline. */
export const OFFLINE_GRACE_MS = 3000;

export class Presence {
  readonly nodeId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pool: pg.Pool, private readonly bus: EventBusPort, private readonly logger: Logger) {
    this.timer = setInterval(() => void this.renew(), 30_000);
    this.timer.unref();
  }

  /** The user's socket count on this node changed to `sockets`. */
  async set(tenantId: number, userId: number, sockets: number): Promise<void> {
    try {
      if (sockets > 0) {
        await this.pool.query(
          `INSERT INTO realtime_presence (node_id, tenant_id, user_id, sockets, lease_until) VALUES ($1, $2, $3, $4, now() + make_interval(secs => ${LEASE_S}))
           ON CONFLICT (node_id, user_id) DO UPDATE SET sockets = EXCLUDED.sockets, lease_until = EXCLUDED.lease_until`,
          [this.nodeId, tenantId, userId, sockets],
        );
      } else {
        await this.pool.query('DELETE FROM realtime_presence WHERE node_id = $1 AND user_id = $2', [this.nodeId, userId]);
      }
      await this.recompute(tenantId, userId);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, userId }, 'presence update failed');
    }
  }

  private async recompute(tenantId: number, userId: number): Promise<void> {
    const r = await this.pool.query<{ is_online: boolean }>(
      `UPDATE users u SET is_online = x.online, last_seen_at = now()
         FROM (SELECT EXISTS (SELECT 1 FROM realtime_presence p WHERE p.tenant_id = $1 AND p.user_id = $2 AND p.lease_until > now()) AS online) x
        WHERE u.id = $2 AND u.tenant_id = $1 AND u.is_online IS DISTINCT FROM x.online RETURNING u.is_online`,
      [tenantId, userId],
    );
    if (r.rowCount) await this.bus.publish({ tenantId, event: 'user.status_updated', data: { id: userId, isOnline: r.rows[0].is_online } });
  }

  /** Renews this node's leases and drops the expired rows of nodes that died. */
  private async renew(): Promise<void> {
    try {
      await this.pool.query(`UPDATE realtime_presence SET lease_until = now() + make_interval(secs => ${LEASE_S}) WHERE node_id = $1`, [this.nodeId]);
      const gone = await this.pool.query<{ tenant_id: number; user_id: number }>('DELETE FROM realtime_presence WHERE lease_until < now() RETURNING tenant_id, user_id');
      for (const g of gone.rows) await this.recompute(g.tenant_id, g.user_id);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'presence renew failed');
    }
  }

  /** On shutdown: this node serves nobody any more; users with no socket elsewhere go offline. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      const gone = await this.pool.query<{ tenant_id: number; user_id: number }>('DELETE FROM realtime_presence WHERE node_id = $1 RETURNING tenant_id, user_id', [this.nodeId]);
      for (const g of gone.rows) await this.recompute(g.tenant_id, g.user_id);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'presence cleanup failed');
    }
  }
}
