import { sql, type PluginContext } from '@atende/core/sdk';

/** One outbound message as the simulated provider records it. */
export interface OutboxRow {
  tenantId: number;
  channelId: number;
  /** The kernel's message id: a retried send of the same key is the same message. */
  key: string;
  providerId: string;
  recipient: string;
  body: string;
  type: string;
  mediaName: string | null;
  buttons: string | null;
}

interface Pending {
  row: OutboxRow;
  resolve(providerId: string): void;
  reject(err: unknown): void;
}

/** Rows in one INSERT at most. */
const MAX_GROUP = 200;

/**
 * Records sends in the sandbox outbox, grouping the ones that arrive
 * together into one INSERT. The simulated provider stands in for a remote
 * service that costs this machine nothing; one autocommitted INSERT (and its
 * WAL flush) per call made a 1,000-a-second bulk send compete with customers'
 * webhooks for PostgreSQL (docs/performance.md B6). Like the kernel's ingest there is
 * no timer: the first call goes alone at once, and whatever arrives while an
 * INSERT is in PostgreSQL goes in the next one.
 *
 * Exactly-once per key is kept: a key already recorded (or repeated within
 * one group) gets the first provider id back and counts one more attempt.
 */
export class OutboxWriter {
  private queue: Pending[] = [];
  private busy = false;

  constructor(private readonly ctx: PluginContext) {}

  write(row: OutboxRow): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (!this.busy) void this.flush();
    });
  }

  private async flush() {
    this.busy = true;
    try {
      while (this.queue.length) {
        const group = this.queue.splice(0, MAX_GROUP);
        // ON CONFLICT cannot touch one row twice in a statement: a key repeated in the group goes once, with its count.
        const byKey = new Map<string, { row: OutboxRow; times: number; waiting: Pending[] }>();
        for (const p of group) {
          const k = `${p.row.channelId}\u0000${p.row.key}`;
          const e = byKey.get(k);
          if (e) {
            e.times++;
            e.waiting.push(p);
          } else byKey.set(k, { row: p.row, times: 1, waiting: [p] });
        }
        const entries = [...byKey.values()];
        const col = <T>(f: (r: OutboxRow) => T) => entries.map((e) => f(e.row));
        try {
          const r = await this.ctx.query<{ channel_id: number; idempotency_key: string; provider_id: string }>(sql`
            INSERT INTO channel_sandbox_outbox (tenant_id, channel_id, idempotency_key, provider_id, recipient, body, type, media_name, buttons, attempts)
            SELECT * FROM unnest(${col((r) => r.tenantId)}::int[], ${col((r) => r.channelId)}::int[], ${col((r) => r.key)}::text[], ${col((r) => r.providerId)}::text[],
                                 ${col((r) => r.recipient)}::text[], ${col((r) => r.body)}::text[], ${col((r) => r.type)}::text[], ${col((r) => r.mediaName)}::text[],
                                 ${col((r) => r.buttons)}::jsonb[], ${entries.map((e) => e.times)}::int[])
            ON CONFLICT (channel_id, idempotency_key) DO UPDATE SET attempts = channel_sandbox_outbox.attempts + excluded.attempts
            RETURNING channel_id, idempotency_key, provider_id`);
          const ids = new Map(r.map((x) => [`${x.channel_id}\u0000${x.idempotency_key}`, x.provider_id]));
          for (const [k, e] of byKey) {
            const id = ids.get(k);
            for (const p of e.waiting) {
              if (id) p.resolve(id);
              else p.reject(new Error('sandbox outbox: row not recorded'));
            }
          }
        } catch (err) {
          for (const p of group) p.reject(err);
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
