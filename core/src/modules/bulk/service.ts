import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { withTx } from '../../db/tx.ts';
import { findTenantChannel } from '../conversations/channels.ts';
import type { BulkBatchStatus, BulkRecipientStatus, BulkSendInput, BulkSendPort } from '../../sdk/types.ts';

export const PUMP_JOB = 'bulk.pump';
export const SWEEP_JOB = 'bulk.sweep';
export const MAX_RECIPIENTS = 1_000_000;
/** Rows per INSERT while storing a batch: big enough to store 100k recipients in about a second, small enough for one statement's parameters. */
const INSERT_CHUNK = 10_000;

export interface BatchRow {
  id: string;
  tenant_id: number;
  channel_id: number;
  source: string;
  reference: string | null;
  status: BulkBatchStatus['status'];
  message: { body?: string; media?: { url: string; name: string; mimetype: string } };
  min_gap_ms: number;
  max_gap_ms: number;
  rooms: string[];
  total: number;
  sent: number;
  failed: number;
  cancelled: number;
  created_at: Date;
  finished_at: Date | null;
}

export function batchOut(b: BatchRow): BulkBatchStatus {
  return {
    id: String(b.id),
    tenantId: b.tenant_id,
    channelId: b.channel_id,
    reference: b.reference,
    status: b.status,
    total: b.total,
    pending: Math.max(0, b.total - b.sent - b.failed - b.cancelled),
    sent: b.sent,
    failed: b.failed,
    cancelled: b.cancelled,
    createdAt: b.created_at.toISOString(),
    finishedAt: b.finished_at ? b.finished_at.toISOString() : null,
  };
}

/** Gap between two sends on one number, in ms, from the caller's pacing. */
function gapsOf(pacing: BulkSendInput['pacing']): { min: number; max: number } {
  if ('perSecond' in pacing) {
    if (!(pacing.perSecond > 0 && pacing.perSecond <= 1000)) throw new AppError('ERR_VALIDATION', { details: 'pacing.perSecond deve estar entre 0 e 1000' });
    const gap = Math.round(1000 / pacing.perSecond);
    return { min: gap, max: gap };
  }
  const { minSeconds, maxSeconds } = pacing;
  if (!(Number.isFinite(minSeconds) && Number.isFinite(maxSeconds) && minSeconds >= 0 && maxSeconds >= minSeconds && maxSeconds <= 86_400)) {
    throw new AppError('ERR_VALIDATION', { details: 'o intervalo máximo deve ser maior ou igual ao mínimo (segundos, até 1 dia)' });
  }
  return { min: Math.round(minSeconds * 1000), max: Math.round(maxSeconds * 1000) };
}

export async function publishProgress(kernel: Kernel, b: BatchRow, event: 'bulk.progress' | 'bulk.finished' = 'bulk.progress'): Promise<void> {
  await kernel.bus.publish({ tenantId: b.tenant_id, event, data: { batch: batchOut(b), source: b.source }, rooms: b.rooms });
}

/** Wakes the pump of a channel; the lease in bulk_pacers makes extra wake-ups harmless. */
export async function wakePump(kernel: Kernel, tenantId: number, channelId: number, key: string, delayMs = 0): Promise<void> {
  await kernel.jobs.enqueue(PUMP_JOB, { tenantId, channelId }, { jobId: `bulk-pump-${channelId}-${key}`, attempts: 5, backoffMs: 1000, delayMs: delayMs > 0 ? Math.round(delayMs) : undefined });
}

async function startBatch(kernel: Kernel, source: string, input: BulkSendInput): Promise<BulkBatchStatus> {
  const channel = await findTenantChannel(kernel, input.tenantId, input.channelId);
  if (!channel || !kernel.channelAdapters.has(channel.type)) throw new AppError('ERR_NO_WAPP_FOUND');
  const gaps = gapsOf(input.pacing);
  if (!input.recipients.length) throw new AppError('ERR_VALIDATION', { details: 'informe ao menos um destinatário' });
  if (input.recipients.length > MAX_RECIPIENTS) throw new AppError('ERR_VALIDATION', { details: `no máximo ${MAX_RECIPIENTS} destinatários por envio` });
  const body = input.message?.body;
  for (const r of input.recipients) {
    if (typeof r.to !== 'string' || !r.to.trim() || r.to.length > 200) throw new AppError('ERR_VALIDATION', { details: 'destinatário inválido' });
    if (r.body === undefined && !body && !input.message?.media) throw new AppError('ERR_VALIDATION', { details: 'informe a mensagem do envio ou de cada destinatário' });
  }
  const batch = await withTx(kernel.db.pool, async (sql) => {
    const b = await sql.query<BatchRow>(
      `INSERT INTO bulk_batches (tenant_id, channel_id, source, reference, message, min_gap_ms, max_gap_ms, rooms, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [input.tenantId, input.channelId, source, input.reference ?? null, JSON.stringify(input.message ?? {}), gaps.min, gaps.max, input.rooms?.length ? input.rooms : ['tenant'], input.userId ?? null],
    );
    let total = 0;
    for (let i = 0; i < input.recipients.length; i += INSERT_CHUNK) {
      const chunk = input.recipients.slice(i, i + INSERT_CHUNK);
      const r = await sql.query(
        `INSERT INTO bulk_recipients (tenant_id, batch_id, recipient, name, body)
         SELECT $1, $2, t.recipient, t.name, t.body FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(recipient, name, body, n) ORDER BY t.n
         ON CONFLICT (tenant_id, batch_id, recipient) DO NOTHING`,
        [input.tenantId, b.rows[0].id, chunk.map((x) => x.to.trim()), chunk.map((x) => x.name ?? null), chunk.map((x) => x.body ?? null)],
      );
      total += r.rowCount ?? 0;
    }
    const done = await sql.query<BatchRow>('UPDATE bulk_batches SET total = $2 WHERE id = $1 RETURNING *', [b.rows[0].id, total]);
    await sql.query(`INSERT INTO bulk_pacers (channel_id, tenant_id) VALUES ($1, $2) ON CONFLICT (channel_id) DO NOTHING`, [input.channelId, input.tenantId]);
    return done.rows[0];
  });
  await wakePump(kernel, batch.tenant_id, batch.channel_id, `start-${batch.id}`);
  await publishProgress(kernel, batch);
  return batchOut(batch);
}

async function loadBatch(kernel: Kernel, source: string | undefined, tenantId: number, batchId: string): Promise<BatchRow | undefined> {
  if (!/^\d{1,18}$/.test(batchId)) return undefined;
  const r = await kernel.db.pool.query<BatchRow>(`SELECT * FROM bulk_batches WHERE tenant_id = $1 AND id = $2 AND ($3::text IS NULL OR source = $3)`, [tenantId, batchId, source ?? null]);
  return r.rows[0];
}

async function cancelBatch(kernel: Kernel, source: string | undefined, tenantId: number, batchId: string): Promise<boolean> {
  if (!(await loadBatch(kernel, source, tenantId, batchId))) return false;
  const b = await withTx(kernel.db.pool, async (sql) => {
    const s = await sql.query<BatchRow>(`UPDATE bulk_batches SET status = 'cancelled', finished_at = now() WHERE tenant_id = $1 AND id = $2 AND status = 'running' RETURNING id`, [tenantId, batchId]);
    if (!s.rowCount) return undefined;
    // A recipient already `sending` is with the provider: it finishes as sent or failed, never cancelled.
    const c = await sql.query(`UPDATE bulk_recipients SET state = 'cancelled', finished_at = now() WHERE tenant_id = $1 AND batch_id = $2 AND state = 'pending'`, [tenantId, batchId]);
    return (await sql.query<BatchRow>('UPDATE bulk_batches SET cancelled = cancelled + $3 WHERE tenant_id = $1 AND id = $2 RETURNING *', [tenantId, batchId, c.rowCount ?? 0])).rows[0];
  });
  if (!b) return false;
  await publishProgress(kernel, b, 'bulk.finished');
  return true;
}

async function listRecipients(kernel: Kernel, source: string | undefined, tenantId: number, batchId: string, opts: { state?: string; afterId?: string; limit?: number } = {}): Promise<BulkRecipientStatus[]> {
  if (!(await loadBatch(kernel, source, tenantId, batchId))) return [];
  const limit = Math.min(Math.max(1, opts.limit ?? 100), 1000);
  const after = opts.afterId && /^\d{1,18}$/.test(opts.afterId) ? opts.afterId : '0';
  const r = await kernel.db.pool.query<{ id: string; recipient: string; name: string | null; state: BulkRecipientStatus['state']; attempts: number; provider_id: string | null; error: string | null; finished_at: Date | null }>(
    `SELECT id, recipient, name, state, attempts, provider_id, error, finished_at FROM bulk_recipients
      WHERE tenant_id = $1 AND batch_id = $2 AND ($3::text IS NULL OR state = $3) AND id > $4 ORDER BY id LIMIT $5`,
    [tenantId, batchId, opts.state ?? null, after, limit],
  );
  return r.rows.map((x) => ({ id: String(x.id), to: x.recipient, name: x.name, state: x.state, attempts: x.attempts, providerId: x.provider_id, error: x.error, finishedAt: x.finished_at ? x.finished_at.toISOString() : null }));
}

/** The bulk-send service as a caller sees it; `source` scopes a plugin to its own batches (undefined = the kernel, every batch). */
export function bulkSendFor(kernel: Kernel, source: string | undefined): BulkSendPort {
  return {
    start: (input) => startBatch(kernel, source ?? 'kernel', input),
    status: async (tenantId, batchId) => {
      const b = await loadBatch(kernel, source, tenantId, batchId);
      return b ? batchOut(b) : undefined;
    },
    recipients: (tenantId, batchId, opts) => listRecipients(kernel, source, tenantId, batchId, opts),
    cancel: (tenantId, batchId) => cancelBatch(kernel, source, tenantId, batchId),
  };
}
