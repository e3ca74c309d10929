import type { Kernel } from '../../kernel.ts';
import type { InboundMessage, IngestResult, AckStatus } from '../../sdk/channel.ts';
import { lockKey, type Sql } from '../../db/tx.ts';
import { messageOut, ticketOut, type MessageRow, type TicketRow, TICKET_SELECT, TICKET_JOINS } from './serialize.ts';
import { nextProtocol } from './protocol.ts';
import { publishTicket } from './events.ts';

/** Maps an inbound media mimetype to the spec's message types. */
export function messageTypeOf(mimetype: string | undefined, declared?: string): string {
  if (declared) return declared;
  if (!mimetype) return 'chat';
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'application';
}

export interface ChannelDefaults {
  queue_id: number | null;
  user_id: number | null;
  type: string;
}

/**
 * Finds the contact's open/pending ticket on the channel or creates one.
 * The advisory lock serialises concurrent first messages; the partial unique
 * index is the final guarantee that two cannot exist.
 */
export async function findOrCreateTicket(
  sql: Sql,
  tenantId: number,
  contactId: number,
  channelId: number | null,
  defaults: { queueId: number | null; userId: number | null; isGroup: boolean; status?: 'open' | 'pending' },
): Promise<{ ticket: TicketRow; created: boolean }> {
  await lockKey(sql, `ticket:${tenantId}:${contactId}:${channelId ?? 0}`);
  const existing = await sql.query<TicketRow>(
    `SELECT * FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND COALESCE(channel_id, 0) = $3 AND status IN ('open','pending') FOR UPDATE`,
    [tenantId, contactId, channelId ?? 0],
  );
  if (existing.rows[0]) return { ticket: existing.rows[0], created: false };
  const protocol = await nextProtocol(sql, tenantId);
  const status = defaults.status ?? (defaults.userId ? 'open' : 'pending');
  const r = await sql.query<TicketRow>(
    `INSERT INTO tickets (tenant_id, contact_id, channel_id, queue_id, user_id, status, is_group, protocol)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [tenantId, contactId, channelId, defaults.queueId, defaults.userId, status, defaults.isGroup, protocol],
  );
  await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES ($1, $2, 'created', $3)`, [tenantId, r.rows[0].id, JSON.stringify({ status, queueId: defaults.queueId, userId: defaults.userId })]);
  return { ticket: r.rows[0], created: true };
}

const LOAD_TICKET_SQL = `SELECT ${TICKET_SELECT},
       (SELECT count(*) FROM messages m WHERE m.tenant_id = t.tenant_id AND m.ticket_id = t.id AND m.status = 'pending' AND m.schedule_date IS NOT NULL)::int AS scheduled_count
     FROM tickets t ${TICKET_JOINS} WHERE t.tenant_id = $1 AND t.id = $2`;

/**
 * One ticket with everything its screens show. A named statement: planning
 * these joins took ~4 ms against ~0.5 ms to run them, on every event.
 */
export async function loadTicket(sql: Sql | Kernel['db']['pool'], tenantId: number, ticketId: number): Promise<TicketRow | undefined> {
  const r = await sql.query<TicketRow>({ name: 'atende_load_ticket', text: LOAD_TICKET_SQL, values: [tenantId, ticketId] });
  return r.rows[0];
}

/**
 * The inbound pipeline (ARCHITECTURE.md): dedup by (tenant, channel, provider
 * id) → contact upsert → ticket find-or-create → message row → ticket
 * counters, in one transaction inside `atende_ingest` (ingest-sql.ts); events
 * only after commit. Returns once the message is durably stored, so a
 * webhook may answer 2xx.
 */
export async function ingestInbound(kernel: Kernel, msg: InboundMessage): Promise<IngestResult> {
  const type = messageTypeOf(msg.media?.mimetype, msg.type);
  const isGroup = !!msg.group;
  const data = { ...(msg.data ?? {}), ...(isGroup ? { participant: msg.from.name ?? msg.from.number ?? msg.from.externalId } : {}) };
  const r = await kernel.db.pool.query<{ r: IngestRow }>(
    `SELECT atende_ingest($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22) AS r`,
    [
      msg.tenantId, msg.channelId, msg.providerMessageId,
      msg.from.kind, msg.from.externalId, msg.from.number ?? null, msg.from.name ?? null, msg.from.profilePicUrl ?? null, JSON.stringify(msg.from.aliases ?? []),
      msg.group?.kind ?? null, msg.group?.externalId ?? null, msg.group?.name ?? null,
      !!msg.fromMe, msg.body ?? '', type, msg.media?.url ?? msg.media?.path ?? null, msg.media?.name ?? null, msg.media?.mimetype ?? null,
      msg.timestamp ?? null, msg.quotedProviderId ?? null, JSON.stringify(data), previewOf(msg.body, type),
    ],
  );
  const res = r.rows[0].r;
  if (res.duplicate || res.blocked || !res.message) return { duplicate: res.duplicate, contactId: res.contactId };
  const ticket = await loadTicket(kernel.db.pool, msg.tenantId, res.ticketId!);
  const message = messageOut(res.message);
  // Imported history (adapter.syncHistory) is stored quietly: no screens to wake per old message, no bots or absence messages.
  if (msg.history) return { duplicate: false, messageId: message.id, ticketId: res.ticketId, contactId: res.contactId, ticketCreated: !!res.created };
  if (ticket) {
    await kernel.bus.publish({ tenantId: msg.tenantId, event: 'message.created', data: { message, ticket: ticketOut(ticket) }, rooms: ['tenant'] });
    await publishTicket(kernel, ticket, res.created ? 'ticket.created' : 'ticket.updated');
  }
  await kernel.hooks.afterInbound.run({
    tenantId: msg.tenantId, ticketId: res.ticketId!, contactId: res.contactId!, created: !!res.created, message, fromMe: !!msg.fromMe, ratingClosed: res.ratingClosed,
    ticket: ticket ? { channelId: ticket.channel_id, status: ticket.status, userId: ticket.user_id, chatflowId: ticket.chatflow_id } : undefined,
  });
  return { duplicate: false, messageId: message.id, ticketId: res.ticketId, contactId: res.contactId, ticketCreated: !!res.created };
}

interface IngestRow {
  duplicate: boolean;
  blocked?: boolean;
  message?: MessageRow;
  ticketId?: number;
  contactId?: number;
  created?: boolean;
  ratingClosed?: boolean;
}

export function previewOf(body: string | undefined, type: string): string {
  const text = (body ?? '').trim();
  if (text) return text.length > 255 ? `${text.slice(0, 252)}...` : text;
  return { image: '📷 Imagem', video: '🎥 Vídeo', audio: '🎤 Áudio', application: '📎 Arquivo', sticker: 'Figurinha' }[type] ?? '';
}

const ACK_RANK: Record<string, number> = { pending: 0, received: 0, sent: 1, delivered: 2, read: 3, failed: 1 };

/**
 * Applies a provider status callback. Status only moves forward
 * (pending → sent → delivered → read); failed only from pending or sent.
 * Returns whether anything changed.
 */
export async function applyAck(kernel: Kernel, tenantId: number, channelId: number, providerId: string, status: AckStatus, reason?: string): Promise<boolean> {
  const r = await kernel.db.pool.query<MessageRow>(
    `UPDATE messages SET status = $4, failure_reason = CASE WHEN $4 = 'failed' THEN $5 ELSE failure_reason END, updated_at = now()
      WHERE tenant_id = $1 AND channel_id = $2 AND provider_id = $3
        AND (CASE status WHEN 'pending' THEN 0 WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 ELSE 9 END) < $6
        AND NOT ($4 = 'failed' AND status IN ('delivered','read','failed'))
      RETURNING *`,
    [tenantId, channelId, providerId, status, reason ?? null, status === 'failed' ? 2 : ACK_RANK[status]],
  );
  const m = r.rows[0];
  if (!m) return false;
  const ticket = await loadTicket(kernel.db.pool, tenantId, m.ticket_id);
  if (ticket) await kernel.bus.publish({ tenantId, event: 'message.ack_updated', data: { message: messageOut(m), ticket: ticketOut(ticket) } });
  return true;
}
