import type { Kernel } from '../../kernel.ts';
import { providerReason, type ChannelRecord, type ChannelRuntime, type ChannelStatus, type ChannelStatusExtra } from '../../sdk/channel.ts';
import { ingestInbound, applyAck } from './ingest.ts';

interface ChannelDbRow {
  id: number;
  tenant_id: number;
  type: string;
  name: string;
  number: string | null;
  status: string;
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
}

const RECORD_COLS = 'id, tenant_id, type, name, number, status, config, secrets';

function proxyOf(r: ChannelDbRow): ChannelRecord['proxy'] {
  const p = r.config?.proxy as { use?: boolean; url?: string; user?: string | null } | undefined;
  if (!p?.use || !p.url) return null;
  return { url: p.url, user: p.user ?? null, password: (r.secrets?.proxyPassword as string | undefined) ?? null };
}

const toRecord = (r: ChannelDbRow): ChannelRecord => ({ id: r.id, tenantId: r.tenant_id, type: r.type, name: r.name, number: r.number, status: r.status, config: r.config, secrets: r.secrets, proxy: proxyOf(r) });

/** Recent channel reads per kernel, for callers that accept a copy of a given age (webhooks). */
const recentReads = new WeakMap<Kernel, Map<number | undefined, { at: number; record: ChannelRecord | undefined }>>();

/** Drops this node's copy of a channel at once (its row just changed here). */
export function forgetChannel(kernel: Kernel, channelId: number): void {
  recentReads.get(kernel)?.delete(channelId);
}

/**
 * Loads a live channel by id across tenants: webhooks arrive without a session and find their
 * tenant this way. With `maxAgeMs`, a copy read on this node at most that long ago is returned.
 */
export async function findChannel(kernel: Kernel, channelId: number, maxAgeMs?: number): Promise<ChannelRecord | undefined> {
  if (!Number.isSafeInteger(channelId) || channelId <= 0 || channelId > 2_147_483_647) return undefined;
  if (maxAgeMs) {
    let reads = recentReads.get(kernel);
    if (!reads) {
      const map = (reads = new Map());
      recentReads.set(kernel, map);
      // Other nodes' edits, status changes and deletions reach this node as events: drop the copy then.
      kernel.bus.subscribe((e) => {
        if (e.event === 'channel.updated') map.delete((e.data as { channel?: { id?: number } })?.channel?.id);
        else if (e.event === 'channel.deleted') map.delete((e.data as { id?: number })?.id);
      });
    }
    const hit = reads.get(channelId);
    if (hit && Date.now() - hit.at <= maxAgeMs) return hit.record;
    const record = await findChannel(kernel, channelId);
    // Bounded: ids probed by strangers must not grow it without end.
    if (reads.size >= 10_000) reads.clear();
    reads.set(channelId, { at: Date.now(), record });
    return record;
  }
  // Every webhook starts here: a named statement on the ingest pool, so finding the channel neither
  // re-plans per request nor waits behind background work for a connection.
  const r = await kernel.db.ingestPool.query<ChannelDbRow>({ name: 'atende_find_channel', text: `SELECT ${RECORD_COLS} FROM channels WHERE id = $1 AND deleted_at IS NULL`, values: [channelId] });
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

export async function findTenantChannel(kernel: Kernel, tenantId: number, channelId: number): Promise<ChannelRecord | undefined> {
  if (!Number.isSafeInteger(channelId) || channelId <= 0 || channelId > 2_147_483_647) return undefined;
  const r = await kernel.db.pool.query<ChannelDbRow>(`SELECT ${RECORD_COLS} FROM channels WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, [tenantId, channelId]);
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

/** The status part of a channel as screens see it (no config, no secrets). */
export const STATUS_COLS = `id, name, type, status, status_at AS "statusAt", qrcode, pairing_code AS "pairingCode", retries, number, last_error AS "lastError"`;

/**
 * Records a channel's status (with time, QR, retries and last error) and
 * pushes it live as `channel.updated`. Reaching `connected` clears the QR
 * code, the pairing code, the retry count and the error: they described the
 * way there. A deleted channel is left alone, so a session that is still
 * closing cannot resurrect it.
 */
export async function setChannelStatus(kernel: Kernel, tenantId: number, channelId: number, status: ChannelStatus, extra: ChannelStatusExtra = {}): Promise<void> {
  const connected = status === 'connected';
  const r = await kernel.db.pool.query(
    `UPDATE channels SET status = $3, status_at = clock_timestamp(), updated_at = now(),
        qrcode = CASE WHEN $4::boolean THEN $5 WHEN $10::boolean THEN NULL ELSE qrcode END,
        pairing_code = CASE WHEN $10::boolean THEN NULL ELSE pairing_code END,
        number = COALESCE($6, number),
        retries = COALESCE($7, CASE WHEN $10::boolean THEN 0 ELSE retries END),
        last_error = CASE WHEN $8::boolean THEN $9 WHEN $10::boolean THEN NULL ELSE last_error END
      WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
      RETURNING ${STATUS_COLS}`,
    // The error often carries a provider's words: printable and short only (it is shown to admins and pushed live).
    [tenantId, channelId, status, 'qrcode' in extra, extra.qrcode ?? null, extra.number ?? null, extra.retries ?? null, 'error' in extra, extra.error ? providerReason(extra.error, 300) : null, connected],
  );
  forgetChannel(kernel, channelId);
  if (r.rows[0]) await kernel.bus.publish({ tenantId, event: 'channel.updated', data: { channel: r.rows[0] } });
}

export function channelRuntime(kernel: Kernel): ChannelRuntime {
  return {
    ingest: (msg) => ingestInbound(kernel, msg),
    ack: (tenantId, channelId, providerId, status, reason) => applyAck(kernel, tenantId, channelId, providerId, status, reason),
    setStatus: (tenantId, channelId, status, extra) => setChannelStatus(kernel, tenantId, channelId, status, extra),
  };
}
