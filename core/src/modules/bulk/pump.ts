import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../../kernel.ts';
import { ChannelError, type ChannelAdapter, type ChannelRecord, type OutboundMessage } from '../../sdk/channel.ts';
import { findTenantChannel } from '../conversations/channels.ts';
import { mediaTypeOf } from '../conversations/outbound.ts';
import { countOutbound } from '../metrics/registry.ts';
import { PUMP_JOB, SWEEP_JOB, publishProgress, wakePump, type BatchRow } from './service.ts';

/** A pump holds its channel's lease this long past its last send; a node that dies stops renewing and another takes over after it. */
const LEASE_MS = 15_000;
/** Longer waits (a campaign's 30–60 s gaps) end the job and enqueue a delayed one, so a sleeping pump never holds a worker slot. */
const LONG_WAIT_MS = 2_000;
const SWEEP_EVERY_MS = 5_000;
const SEND_ATTEMPTS = 5;
const PROGRESS_EVERY_MS = 1_000;
const CHANNEL_REFRESH_MS = 5_000;
/** A round covers about this much time of sending, and at most this many recipients. */
const ROUND_MS = 200;
const MAX_ROUND = 50;

interface Claimed {
  id: string;
  batch_id: string;
  recipient: string;
  body: string | null;
  attempts: number;
  message: BatchRow['message'];
  min_gap_ms: number;
  max_gap_ms: number;
}

type Outcome = { state: 'sent'; providerId: string } | { state: 'failed'; error: string } | { state: 'pending'; error: string; retryMs: number };

const CLAIM_COLS = `r.id, r.batch_id, r.recipient, r.body, r.attempts, bb.message, bb.min_gap_ms, bb.max_gap_ms`;

/**
 * The bulk-send worker. One pump per channel at a time (a lease row in
 * bulk_pacers, taken with a conditional UPDATE, so two nodes never send for
 * the same number at once). It works in rounds: a round claims the next
 * recipients (marked `sending`, so "may be with the provider"), starts each
 * provider call at its own slot of the batch's pace, then records every
 * outcome in one statement. At a campaign's pace a round is one recipient;
 * at fast paces it covers about 200 ms of slots. A row found `sending` when a
 * pump takes the lease was left by a node that died mid-round and is sent
 * again with the same idempotency key, which the provider deduplicates.
 */
export function defineBulkJobs(app: FastifyInstance, kernel: Kernel): void {
  const pool = kernel.db.pool;
  const nodeId = `${os.hostname()}-${process.pid}`;
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  const acquire = async (tenantId: number, channelId: number, owner: string) =>
    (
      await pool.query<{ wait: number }>(
        `UPDATE bulk_pacers SET owner = $3, lease_until = now() + make_interval(secs => $4::double precision / 1000)
          WHERE channel_id = $1 AND tenant_id = $2 AND (owner IS NULL OR lease_until < now())
          RETURNING GREATEST(0, EXTRACT(EPOCH FROM (next_at - now())) * 1000)::float8 AS wait`,
        [channelId, tenantId, owner, LEASE_MS],
      )
    ).rows[0];

  const release = (channelId: number, owner: string, nextInMs: number) =>
    pool.query(
      `UPDATE bulk_pacers SET owner = NULL, lease_until = '-infinity', next_at = GREATEST(next_at, now() + make_interval(secs => $3::double precision / 1000))
        WHERE channel_id = $1 AND owner = $2`,
      [channelId, owner, Math.max(0, nextInMs)],
    );

  /** Rows a dead pump left `sending` on this channel (running or cancelled batches: they must still reach a final state). */
  const orphans = async (tenantId: number, channelId: number) =>
    (
      await pool.query<{ id: string }>(
        `SELECT r.id FROM bulk_recipients r JOIN bulk_batches b ON b.id = r.batch_id
          WHERE r.tenant_id = $1 AND r.state = 'sending' AND b.tenant_id = $1 AND b.channel_id = $2 ORDER BY r.id`,
        [tenantId, channelId],
      )
    ).rows.map((r) => r.id);

  const claimOrphans = async (tenantId: number, ids: string[]) =>
    (
      await pool.query<Claimed>(
        `UPDATE bulk_recipients r SET attempts = r.attempts + 1, started_at = now() FROM bulk_batches bb
          WHERE r.tenant_id = $1 AND r.id = ANY($2::bigint[]) AND r.state = 'sending' AND bb.id = r.batch_id RETURNING ${CLAIM_COLS}`,
        [tenantId, ids],
      )
    ).rows.sort((a, b) => Number(a.id) - Number(b.id));

  /** The next `limit` due recipients of the oldest running batch on the channel that has any. */
  const claimNext = async (tenantId: number, channelId: number, limit: number) =>
    (
      await pool.query<Claimed>(
        `WITH next AS (
           SELECT x.id FROM (SELECT b.id FROM bulk_batches b
                               WHERE b.tenant_id = $1 AND b.channel_id = $2 AND b.status = 'running'
                                 AND EXISTS (SELECT 1 FROM bulk_recipients y WHERE y.tenant_id = $1 AND y.batch_id = b.id AND y.state = 'pending' AND y.not_before <= now())
                               ORDER BY b.id LIMIT 1) b
             CROSS JOIN LATERAL (SELECT id FROM bulk_recipients x WHERE x.tenant_id = $1 AND x.batch_id = b.id AND x.state = 'pending' AND x.not_before <= now() ORDER BY x.id LIMIT $3) x)
         UPDATE bulk_recipients r SET state = 'sending', attempts = r.attempts + 1, started_at = now() FROM next, bulk_batches bb
          WHERE r.id = next.id AND r.state = 'pending' AND bb.id = r.batch_id RETURNING ${CLAIM_COLS}`,
        [tenantId, channelId, limit],
      )
    ).rows.sort((a, b) => Number(a.id) - Number(b.id));

  /** Records the outcomes, counts them on their batches and renews the lease with the next slot, in one statement; false if the lease was lost. */
  const finish = async (tenantId: number, channelId: number, owner: string, done: { row: Claimed; o: Outcome; at: number }[], nextInMs: number): Promise<boolean> => {
    const r = await pool.query<{ owned: number }>(
      `WITH o AS (SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::float8[], $11::float8[]) AS o(id, state, provider_id, error, retry_ms, at)),
       r AS (
         UPDATE bulk_recipients x SET state = o.state, provider_id = o.provider_id, error = o.error, started_at = to_timestamp(o.at / 1000),
                not_before = CASE WHEN o.state = 'pending' THEN now() + make_interval(secs => o.retry_ms / 1000) ELSE x.not_before END,
                finished_at = CASE WHEN o.state IN ('sent', 'failed') THEN now() END
           FROM o WHERE x.tenant_id = $1 AND x.id = o.id AND x.state = 'sending' RETURNING x.batch_id, x.state),
       c AS (SELECT batch_id, count(*) FILTER (WHERE state = 'sent')::int AS s, count(*) FILTER (WHERE state = 'failed')::int AS f FROM r GROUP BY batch_id),
       b AS (UPDATE bulk_batches bb SET sent = bb.sent + c.s, failed = bb.failed + c.f FROM c WHERE bb.tenant_id = $1 AND bb.id = c.batch_id RETURNING bb.id),
       p AS (
         UPDATE bulk_pacers SET next_at = now() + make_interval(secs => $7::double precision / 1000), lease_until = now() + make_interval(secs => $9::double precision / 1000)
          WHERE channel_id = $8 AND owner = $10 RETURNING 1)
       SELECT (SELECT count(*) FROM p)::int AS owned, (SELECT count(*) FROM b)::int AS counted`,
      [
        tenantId,
        done.map((d) => d.row.id),
        done.map((d) => d.o.state),
        done.map((d) => (d.o.state === 'sent' ? d.o.providerId : null)),
        done.map((d) => (d.o.state === 'sent' ? null : d.o.error.slice(0, 500))),
        done.map((d) => (d.o.state === 'pending' ? d.o.retryMs : 0)),
        Math.max(0, nextInMs),
        channelId,
        LEASE_MS,
        owner,
        done.map((d) => d.at),
      ],
    );
    return r.rows[0].owned > 0;
  };

  const send = async (channel: ChannelRecord | undefined, adapter: ChannelAdapter | undefined, row: Claimed): Promise<Outcome> => {
    if (!channel || !adapter) return { state: 'failed', error: 'Canal não encontrado ou desativado' };
    const media = row.message.media;
    const kind = media ? mediaTypeOf(media.mimetype) : undefined;
    const msg: OutboundMessage = {
      // The idempotency key: the same for every attempt at this recipient, never shared with another.
      messageId: `bulk-${row.batch_id}-${row.id}`,
      to: { kind: adapter.identityKind, externalId: row.recipient, number: row.recipient, isGroup: false },
      type: kind ? (kind === 'application' ? 'document' : (kind as 'image')) : 'chat',
      body: row.body ?? row.message.body ?? '',
      media: media ? { kind: kind === 'application' ? 'document' : (kind as 'image'), url: media.url, path: kernel.storage.pathOf(media.url), mimetype: media.mimetype, name: media.name } : undefined,
    };
    try {
      const res = await adapter.send(channel, msg);
      return { state: 'sent', providerId: res.providerId };
    } catch (err) {
      const message = (err as Error).message || 'erro do provedor';
      if ((err instanceof ChannelError && err.permanent) || row.attempts >= SEND_ATTEMPTS) return { state: 'failed', error: message };
      return { state: 'pending', error: message, retryMs: 1000 * 2 ** row.attempts };
    }
  };

  /** Marks batches of the channel with nothing left as done, and tells the screens. */
  const finalize = async (tenantId: number, channelId: number) => {
    const done = await pool.query<BatchRow>(
      `UPDATE bulk_batches b SET status = 'done', finished_at = now()
        WHERE tenant_id = $1 AND channel_id = $2 AND status = 'running'
          AND NOT EXISTS (SELECT 1 FROM bulk_recipients r WHERE r.tenant_id = b.tenant_id AND r.batch_id = b.id AND r.state IN ('pending', 'sending'))
        RETURNING *`,
      [tenantId, channelId],
    );
    for (const b of done.rows) await publishProgress(kernel, b, 'bulk.finished');
  };

  /** When the channel next has a recipient due (ms from now), if any batch on it still runs. */
  const nextDue = async (tenantId: number, channelId: number) => {
    const r = await pool.query<{ ms: number | null }>(
      `SELECT GREATEST(0, EXTRACT(EPOCH FROM (min(r.not_before) - now())) * 1000)::float8 AS ms
         FROM bulk_batches b JOIN bulk_recipients r ON r.tenant_id = b.tenant_id AND r.batch_id = b.id AND r.state = 'pending'
        WHERE b.tenant_id = $1 AND b.channel_id = $2 AND b.status = 'running'`,
      [tenantId, channelId],
    );
    return r.rows[0]?.ms ?? undefined;
  };

  const progress = async (tenantId: number, batchId: string) => {
    const b = await pool.query<BatchRow>('SELECT * FROM bulk_batches WHERE tenant_id = $1 AND id = $2', [tenantId, batchId]);
    if (b.rows[0]) await publishProgress(kernel, b.rows[0]);
  };

  async function pump({ tenantId, channelId }: { tenantId: number; channelId: number }) {
    const owner = `${nodeId}-${randomUUID().slice(0, 8)}`;
    const lease = await acquire(tenantId, channelId, owner);
    if (!lease) return { busy: true };
    let nextAt = Date.now() + lease.wait;
    let owned = true;
    let sent = 0;
    let channel: ChannelRecord | undefined;
    let channelAt = 0;
    const progressAt = new Map<string, number>();
    let reason: 'idle' | 'wait' | 'closing' = 'idle';
    let lastGap = 1000;
    try {
      const leftovers = await orphans(tenantId, channelId);
      while (!closing) {
        const wait = nextAt - Date.now();
        if (wait > LONG_WAIT_MS) {
          reason = 'wait';
          break;
        }
        if (Date.now() - channelAt > CHANNEL_REFRESH_MS) {
          channel = await findTenantChannel(kernel, tenantId, channelId);
          channelAt = Date.now();
        }
        // At fast paces a round of several recipients shares one claim and one finish statement; at a campaign's pace a round is one recipient.
        const size = Math.max(1, Math.min(MAX_ROUND, Math.floor(ROUND_MS / Math.max(1, lastGap))));
        const rows = leftovers.length ? await claimOrphans(tenantId, leftovers.splice(0, size)) : await claimNext(tenantId, channelId, size);
        if (!rows.length) {
          if (leftovers.length) continue;
          break;
        }
        const adapter = channel ? kernel.channelAdapters.get(channel.type) : undefined;
        // Each call starts a full gap after the previous call actually started (a late timer never shortens the next gap); calls may overlap when the provider is slower than the pace.
        const calls: Promise<{ row: Claimed; o: Outcome; at: number }>[] = [];
        for (const row of rows) {
          const w = nextAt - Date.now();
          if (w > 0) await new Promise((r) => setTimeout(r, w));
          const at = Date.now();
          lastGap = row.min_gap_ms + Math.floor(Math.random() * (row.max_gap_ms - row.min_gap_ms + 1));
          nextAt = at + lastGap;
          calls.push(
            send(channel, adapter, row).then((o) => {
              if (o.state !== 'pending') countOutbound(kernel, channel?.type ?? 'unknown', 'bulk', o.state);
              return { row, o, at };
            }),
          );
        }
        const done = await Promise.all(calls);
        owned = await finish(tenantId, channelId, owner, done, nextAt - Date.now());
        sent += done.length;
        if (!owned) {
          kernel.logger.warn({ channelId }, 'bulk send lease lost; another node continues');
          return { sent, lost: true };
        }
        const batchId = rows[0].batch_id;
        if (Date.now() - (progressAt.get(batchId) ?? 0) >= PROGRESS_EVERY_MS) {
          progressAt.set(batchId, Date.now());
          await progress(tenantId, batchId);
        }
      }
      if (closing) reason = 'closing';
    } finally {
      if (owned) await release(channelId, owner, nextAt - Date.now()).catch(() => undefined);
    }
    for (const batchId of progressAt.keys()) await progress(tenantId, batchId);
    if (reason === 'wait') {
      await wakePump(kernel, tenantId, channelId, `at-${nextAt}`, nextAt - Date.now());
    } else if (reason === 'idle') {
      await finalize(tenantId, channelId);
      // Checked after releasing the lease: a batch stored while this pump was finishing woke a pump that found the lease taken.
      const due = await nextDue(tenantId, channelId);
      if (due !== undefined) await wakePump(kernel, tenantId, channelId, `due-${Date.now() + Math.round(due)}`, Math.max(due, nextAt - Date.now()));
    }
    return { sent, reason };
  }

  /** Every few seconds on one worker: wakes channels with running batches whose pump died (lease expired) or was never woken. */
  async function sweep() {
    const r = await pool.query<{ tenant_id: number; channel_id: number; wait: number }>(
      `SELECT p.tenant_id, p.channel_id, GREATEST(0, EXTRACT(EPOCH FROM (p.next_at - now())) * 1000)::float8 AS wait FROM bulk_pacers p
        WHERE (p.owner IS NULL OR p.lease_until < now()) AND p.next_at < now() + make_interval(secs => $1::double precision / 1000)
          AND EXISTS (SELECT 1 FROM bulk_batches b WHERE b.tenant_id = p.tenant_id AND b.channel_id = p.channel_id AND b.status = 'running')`,
      [SWEEP_EVERY_MS],
    );
    const slot = Math.floor(Date.now() / SWEEP_EVERY_MS);
    for (const p of r.rows) await wakePump(kernel, p.tenant_id, p.channel_id, `sweep-${slot}`, p.wait);
    return { woken: r.rows.length };
  }

  kernel.jobs.define(PUMP_JOB, pump, { concurrency: 64 });
  kernel.jobs.define(SWEEP_JOB, sweep, { concurrency: 1 });
}

export { SWEEP_EVERY_MS };
