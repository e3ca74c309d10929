import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { ChannelError, providerReason, type OutboundMessage } from '../../sdk/channel.ts';
import { withTx } from '../../db/tx.ts';
import { messageOut, ticketOut, type MessageRow } from './serialize.ts';
import { loadTicket, previewOf } from './ingest.ts';
import { findTenantChannel } from './channels.ts';
import { publishTicket } from './events.ts';
import { countOutbound } from '../metrics/registry.ts';
import { renderFor } from './templates.ts';

export const SEND_JOB = 'channel.send';
const SEND_ATTEMPTS = 5;

export interface OutboundDraft {
  tenantId: number;
  ticketId: number;
  userId: number | null;
  body: string;
  type?: string;
  media?: { url: string; name: string; mimetype: string };
  quotedId?: string | null;
  isNote?: boolean;
  scheduleDate?: Date | null;
  recurrenceDays?: number | null;
  repetitions?: number | null;
  buttons?: { label: string; value: string }[];
  /** Marks kernel-generated messages (farewell, rating request, absence) in `data`. */
  data?: Record<string, unknown>;
}

/**
 * Stores an outgoing message as `pending` and, unless it is an internal note
 * or scheduled for later, enqueues its send job keyed by the message id, so
 * a retried request or a crashed worker never sends it twice.
 */
export async function queueOutbound(kernel: Kernel, d: OutboundDraft): Promise<ReturnType<typeof messageOut>> {
  const type = d.type ?? (d.media ? mediaTypeOf(d.media.mimetype) : 'chat');
  const row = await withTx(kernel.db.pool, async (sql) => {
    const t = await sql.query<{ contact_id: number; channel_id: number | null; status: string }>('SELECT contact_id, channel_id, status FROM tickets WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [d.tenantId, d.ticketId]);
    if (!t.rows[0]) throw new AppError('ERR_NO_TICKET_FOUND');
    const status = d.isNote ? 'sent' : 'pending';
    // Variables ({{name}}, {{protocol}}…) are filled when the message is stored for sending, so the
    // agent's history shows what the customer got; scheduled ones are filled when they fall due.
    // A template's text is the provider's, filled by the adapter with the agent's values: rendering our variables in it
    // would store something the customer never got.
    const body = d.isNote || d.scheduleDate || type === 'templates' ? d.body : await renderFor(sql, d.tenantId, d.body, { ticketId: d.ticketId, userId: d.userId }, kernel.templateProviders);
    const r = await sql.query<MessageRow>(
      `INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, user_id, from_me, is_note, body, type, media_url, media_name, media_type, status, quoted_id, schedule_date, recurrence_days, repetitions, data)
       VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING *`,
      [
        d.tenantId, d.ticketId, t.rows[0].contact_id, t.rows[0].channel_id, d.userId, !!d.isNote, body, type,
        d.media?.url ?? null, d.media?.name ?? null, d.media?.mimetype ?? null, status, d.quotedId ?? null,
        d.scheduleDate ?? null, d.recurrenceDays ?? null, d.scheduleDate ? (d.repetitions ?? 1) : null,
        JSON.stringify({ ...(d.data ?? {}), ...(d.buttons ? { buttons: d.buttons } : {}) }),
      ],
    );
    if (!d.scheduleDate && !d.isNote) {
      await sql.query(
        // An agent's message is the first response the SLA waits for; bots, greetings and farewells (no user) are not.
        `UPDATE tickets SET last_message = $3, last_message_at = now(), answered = true, unread_messages = 0, updated_at = now(),
                first_response_at = CASE WHEN $4::int IS NULL THEN first_response_at ELSE COALESCE(first_response_at, now()) END
          WHERE tenant_id = $1 AND id = $2`,
        [d.tenantId, d.ticketId, previewOf(body, type), d.userId],
      );
    }
    return r.rows[0];
  });
  if (!d.isNote && !d.scheduleDate) await kernel.jobs.enqueue(SEND_JOB, { tenantId: d.tenantId, messageId: String(row.id) }, { jobId: `send-${row.id}`, attempts: SEND_ATTEMPTS, backoffMs: 2000 });
  const ticket = await loadTicket(kernel, d.tenantId, d.ticketId);
  const out = messageOut(row);
  if (ticket) {
    await kernel.bus.publish({ tenantId: d.tenantId, event: 'message.created', data: { message: out, ticket: ticketOut(ticket) } });
    await publishTicket(kernel, ticket);
  }
  return out;
}

/**
 * Sends a message the provider refused once more, on the agent's request: the
 * same row goes back to `pending` and a new send job (keyed by the message id
 * and the retry number) takes it. The failed ledger row is cleared in the same
 * transaction, so the job does not skip it as final.
 */
export async function retryOutbound(kernel: Kernel, tenantId: number, messageId: string): Promise<MessageRow | undefined> {
  const row = await withTx(kernel.db.pool, async (sql) => {
    const r = await sql.query<MessageRow>(
      `UPDATE messages SET status = 'pending', failure_reason = NULL,
              data = (data - 'errorCode') || jsonb_build_object('retries', coalesce((data->>'retries')::int, 0) + 1), updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND status = 'failed' AND from_me AND NOT is_note AND deleted_at IS NULL RETURNING *`,
      [tenantId, messageId],
    );
    if (r.rows[0]) await sql.query(`DELETE FROM message_sends WHERE tenant_id = $1 AND message_id = $2 AND state = 'failed'`, [tenantId, messageId]);
    return r.rows[0];
  });
  if (!row) return undefined;
  await kernel.jobs.enqueue(SEND_JOB, { tenantId, messageId: String(row.id) }, { jobId: `send-${row.id}-retry-${row.data.retries}`, attempts: SEND_ATTEMPTS, backoffMs: 2000 });
  return row;
}

export function mediaTypeOf(mimetype: string): string {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'application';
}

const OUT_TYPE: Record<string, OutboundMessage['type']> = { chat: 'chat', image: 'image', video: 'video', audio: 'audio', application: 'document', buttons: 'buttons', templates: 'template' };

/** Marks a message failed (final) and tells the screens. */
async function markFailed(kernel: Kernel, tenantId: number, messageId: string, providerText: string, errorCode = 'ERR_SENDING_WAPP_MSG') {
  const reason = providerReason(providerText, 300);
  await kernel.db.pool.query(`UPDATE message_sends SET state = 'failed', error = $3, finished_at = now() WHERE message_id = $2 AND tenant_id = $1`, [tenantId, messageId, reason]);
  // The catalogue code (ChannelError.code) travels in data.errorCode beside the provider's reason.
  const r = await kernel.db.pool.query<MessageRow>(
    `UPDATE messages SET status = 'failed', failure_reason = $3, data = data || jsonb_build_object('errorCode', $4::text), updated_at = now() WHERE tenant_id = $1 AND id = $2 AND status = 'pending' RETURNING *`,
    [tenantId, messageId, reason, errorCode],
  );
  if (r.rows[0]) {
    const ticket = await loadTicket(kernel, tenantId, r.rows[0].ticket_id);
    await kernel.bus.publish({ tenantId, event: 'message.ack_updated', data: { message: messageOut(r.rows[0]), ticket: ticket ? ticketOut(ticket) : undefined } });
  }
}

/**
 * The send job. The ledger row is written before the provider call: a
 * retry after a crash sees `sending` and resends with the same idempotency
 * key (the message id), which providers that support it deduplicate; a
 * `sent` ledger row is never sent again.
 */
export function defineSendJob(kernel: Kernel) {
  kernel.jobs.define<{ tenantId: number; messageId: string }>(
    SEND_JOB,
    async ({ tenantId, messageId }, job) => {
      const r = await kernel.db.pool.query<MessageRow & { contact_id: number }>(`SELECT * FROM messages WHERE tenant_id = $1 AND id = $2`, [tenantId, messageId]);
      const m = r.rows[0];
      if (!m || m.deleted_at || m.status !== 'pending') return { skipped: true };
      const ledger = await kernel.db.pool.query<{ state: string; provider_id: string | null }>(
        `INSERT INTO message_sends (message_id, tenant_id, state) VALUES ($1, $2, 'sending')
         ON CONFLICT (message_id) DO UPDATE SET attempts = message_sends.attempts + 1 RETURNING state, provider_id`,
        [messageId, tenantId],
      );
      if (ledger.rows[0].state === 'sent') return finishSent(kernel, m, ledger.rows[0].provider_id!);
      if (ledger.rows[0].state === 'failed') return { skipped: true };
      const channel = m.channel_id ? await findTenantChannel(kernel, tenantId, m.channel_id) : undefined;
      const adapter = channel ? kernel.channelAdapters.get(channel.type) : undefined;
      if (!channel || !adapter) {
        await markFailed(kernel, tenantId, messageId, 'Canal não encontrado ou desativado');
        return { failed: true };
      }
      const target = await kernel.db.pool.query<{ external_id: string | null; number: string | null; is_group: boolean }>(
        `SELECT (SELECT external_id FROM contact_identities i WHERE i.tenant_id = c.tenant_id AND i.contact_id = c.id AND i.kind = $3 LIMIT 1) AS external_id, c.number, c.is_group
           FROM contacts c JOIN tickets t ON t.contact_id = c.id WHERE t.tenant_id = $1 AND t.id = $2`,
        [tenantId, m.ticket_id, adapter.identityKind],
      );
      const to = target.rows[0];
      const externalId = to?.external_id ?? to?.number;
      if (!externalId) {
        await markFailed(kernel, tenantId, messageId, 'Contato sem identificação neste canal');
        return { failed: true };
      }
      const quoted = m.quoted_id ? (await kernel.db.pool.query<{ provider_id: string | null }>('SELECT provider_id FROM messages WHERE tenant_id = $1 AND id = $2', [tenantId, m.quoted_id])).rows[0]?.provider_id : undefined;
      const outbound: OutboundMessage = {
        messageId,
        to: { kind: adapter.identityKind, externalId, number: to.number, isGroup: to.is_group },
        type: OUT_TYPE[m.type] ?? 'chat',
        body: m.body,
        media: m.media_url ? { kind: (mediaTypeOf(m.media_type ?? '') === 'application' ? 'document' : mediaTypeOf(m.media_type ?? '')) as 'image', url: m.media_url, path: kernel.storage.pathOf(m.media_url), mimetype: m.media_type ?? 'application/octet-stream', name: m.media_name ?? 'arquivo' } : undefined,
        buttons: (m.data?.buttons as OutboundMessage['buttons']) ?? undefined,
        template: m.type === 'templates' ? ((m.data?.template as OutboundMessage['template']) ?? undefined) : undefined,
        quotedProviderId: quoted ?? undefined,
      };
      try {
        const res = await adapter.send(channel, outbound);
        countOutbound(kernel, channel.type, 'ticket', 'sent');
        await kernel.db.pool.query(`UPDATE message_sends SET state = 'sent', provider_id = $2, finished_at = now() WHERE message_id = $1`, [messageId, res.providerId]);
        return finishSent(kernel, m, res.providerId);
      } catch (err) {
        const permanent = err instanceof ChannelError && err.permanent;
        if (permanent || job.attempt >= SEND_ATTEMPTS) {
          countOutbound(kernel, channel.type, 'ticket', 'failed');
          await markFailed(kernel, tenantId, messageId, (err as Error).message.slice(0, 300), err instanceof ChannelError ? err.code : undefined);
          return { failed: true };
        }
        throw err;
      }
    },
    { concurrency: 16 },
  );
}

async function finishSent(kernel: Kernel, m: MessageRow, providerId: string) {
  const r = await kernel.db.pool.query<MessageRow>(
    `UPDATE messages SET provider_id = $3, status = CASE WHEN status = 'pending' THEN 'sent' ELSE status END, updated_at = now()
      WHERE tenant_id = $1 AND id = $2 RETURNING *`,
    [m.tenant_id, m.id, providerId],
  );
  const sent = r.rows[0];
  const ticket = await loadTicket(kernel, m.tenant_id, m.ticket_id);
  await kernel.bus.publish({ tenantId: m.tenant_id, event: 'message.ack_updated', data: { message: messageOut(sent), ticket: ticket ? ticketOut(ticket) : undefined } });
  // A farewell closes its ticket once it has gone out (spec §4: within 30 s of sending it).
  if (sent.data?.farewell && ticket && ticket.status !== 'closed') {
    const closed = await kernel.db.pool.query(`UPDATE tickets SET status = 'closed', closed_at = now(), updated_at = now() WHERE tenant_id = $1 AND id = $2 AND status <> 'closed' RETURNING id`, [m.tenant_id, m.ticket_id]);
    if (closed.rowCount) {
      await kernel.db.pool.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES ($1, $2, 'closed', '{"reason":"farewell"}')`, [m.tenant_id, m.ticket_id]);
      const t = await loadTicket(kernel, m.tenant_id, m.ticket_id);
      if (t) await publishTicket(kernel, t);
    }
  }
  return { providerId };
}
