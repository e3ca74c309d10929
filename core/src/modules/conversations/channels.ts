import type { Kernel } from '../../kernel.ts';
import type { ChannelRecord, ChannelRuntime, ChannelStatus } from '../../sdk/channel.ts';
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

const toRecord = (r: ChannelDbRow): ChannelRecord => ({ id: r.id, tenantId: r.tenant_id, type: r.type, name: r.name, number: r.number, status: r.status, config: r.config, secrets: r.secrets });

/** Loads a live channel by id across tenants: webhooks arrive without a session and find their tenant this way. */
export async function findChannel(kernel: Kernel, channelId: number): Promise<ChannelRecord | undefined> {
  if (!Number.isSafeInteger(channelId) || channelId <= 0) return undefined;
  const r = await kernel.db.pool.query<ChannelDbRow>('SELECT id, tenant_id, type, name, number, status, config, secrets FROM channels WHERE id = $1 AND deleted_at IS NULL', [channelId]);
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

export async function findTenantChannel(kernel: Kernel, tenantId: number, channelId: number): Promise<ChannelRecord | undefined> {
  const r = await kernel.db.pool.query<ChannelDbRow>('SELECT id, tenant_id, type, name, number, status, config, secrets FROM channels WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [tenantId, channelId]);
  return r.rows[0] ? toRecord(r.rows[0]) : undefined;
}

/** Records a channel's status (with time, QR and retries) and pushes it live as `channel.updated`. */
export async function setChannelStatus(
  kernel: Kernel,
  tenantId: number,
  channelId: number,
  status: ChannelStatus,
  extra: { qrcode?: string | null; number?: string | null; retries?: number } = {},
): Promise<void> {
  const r = await kernel.db.pool.query(
    `UPDATE channels SET status = $3, status_at = now(), updated_at = now(),
        qrcode = CASE WHEN $4::boolean THEN $5 ELSE qrcode END,
        number = COALESCE($6, number),
        retries = COALESCE($7, retries)
      WHERE tenant_id = $1 AND id = $2
      RETURNING id, name, type, status, status_at AS "statusAt", qrcode, retries, number`,
    [tenantId, channelId, status, 'qrcode' in extra, extra.qrcode ?? null, extra.number ?? null, extra.retries ?? null],
  );
  if (r.rows[0]) await kernel.bus.publish({ tenantId, event: 'channel.updated', data: { channel: r.rows[0] } });
}

export function channelRuntime(kernel: Kernel): ChannelRuntime {
  return {
    ingest: (msg) => ingestInbound(kernel, msg),
    ack: (tenantId, channelId, providerId, status, reason) => applyAck(kernel, tenantId, channelId, providerId, status, reason),
    setStatus: (tenantId, channelId, status, extra) => setChannelStatus(kernel, tenantId, channelId, status, extra),
  };
}
