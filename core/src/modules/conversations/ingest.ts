import type { Kernel } from '../../kernel.ts';
import type { InboundMessage, IngestResult, AckStatus } from '../../sdk/channel.ts';
import { lockKey, withTx, type Sql } from '../../db/tx.ts';
import { messageOut, ticketOut, type MessageRow, type TicketRow, TICKET_SELECT, TICKET_JOINS } from './serialize.ts';
import { nextProtocol } from './protocol.ts';
import { publishTicket } from './events.ts';

const RATING_ANSWER = /^\s*([0-5])\s*$/;

/** Maps an inbound media mimetype to the spec's message types. */
export function messageTypeOf(mimetype: string | undefined, declared?: string): string {
  if (declared) return declared;
  if (!mimetype) return 'chat';
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'application';
}

/**
 * Finds the contact behind a provider identity, creating it (and its
 * identities) when new. Serialised per identity so two concurrent deliveries
 * of a first message create one contact.
 */
async function upsertContact(sql: Sql, tenantId: number, who: InboundMessage['from'] & { isGroup?: boolean }): Promise<number> {
  await lockKey(sql, `contact:${tenantId}:${who.kind}:${who.externalId}`);
  const ids = [{ kind: who.kind, externalId: who.externalId }, ...(who.aliases ?? [])];
  const found = await sql.query<{ contact_id: number }>(
    `SELECT contact_id FROM contact_identities WHERE tenant_id = $1 AND (kind, external_id) IN (SELECT * FROM unnest($2::text[], $3::text[])) LIMIT 1`,
    [tenantId, ids.map((i) => i.kind), ids.map((i) => i.externalId)],
  );
  let contactId = found.rows[0]?.contact_id;
  if (!contactId && who.number) {
    const byNumber = await sql.query<{ id: number }>('SELECT id FROM contacts WHERE tenant_id = $1 AND number = $2', [tenantId, who.number]);
    contactId = byNumber.rows[0]?.id;
  }
  if (!contactId) {
    const created = await sql.query<{ id: number }>(
      `INSERT INTO contacts (tenant_id, name, number, profile_pic_url, is_group, telegram_id, instagram_id, messenger_id, hub_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (tenant_id, number) WHERE number IS NOT NULL DO UPDATE SET updated_at = now()
       RETURNING id`,
      [
        tenantId,
        who.name?.trim() || who.number || who.externalId,
        who.number ?? null,
        who.profilePicUrl ?? null,
        who.isGroup ?? false,
        who.kind === 'telegram' ? who.externalId : null,
        who.kind === 'instagram' ? who.externalId : null,
        who.kind === 'messenger' ? who.externalId : null,
        who.kind === 'hub' ? who.externalId : null,
      ],
    );
    contactId = created.rows[0].id;
  } else if (who.profilePicUrl) {
    await sql.query('UPDATE contacts SET profile_pic_url = $3 WHERE tenant_id = $1 AND id = $2 AND profile_pic_url IS DISTINCT FROM $3', [tenantId, contactId, who.profilePicUrl]);
  }
  await sql.query(
    `INSERT INTO contact_identities (tenant_id, kind, external_id, contact_id)
     SELECT $1, k, e, $4 FROM unnest($2::text[], $3::text[]) AS x(k, e) ON CONFLICT DO NOTHING`,
    [tenantId, ids.map((i) => i.kind), ids.map((i) => i.externalId), contactId],
  );
  return contactId;
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

export async function loadTicket(sql: Sql | Kernel['db']['pool'], tenantId: number, ticketId: number): Promise<TicketRow | undefined> {
  const r = await sql.query<TicketRow>(
    `SELECT ${TICKET_SELECT},
       (SELECT count(*) FROM messages m WHERE m.tenant_id = t.tenant_id AND m.ticket_id = t.id AND m.status = 'pending' AND m.schedule_date IS NOT NULL)::int AS scheduled_count
     FROM tickets t ${TICKET_JOINS} WHERE t.tenant_id = $1 AND t.id = $2`,
    [tenantId, ticketId],
  );
  return r.rows[0];
}

/**
 * The inbound pipeline (ARCHITECTURE.md): dedup by (tenant, channel, provider
 * id) → contact upsert → ticket find-or-create → message row → ticket
 * counters, in one transaction; events only after commit. Returns once the
 * message is durably stored, so a webhook may answer 2xx.
 */
export async function ingestInbound(kernel: Kernel, msg: InboundMessage): Promise<IngestResult> {
  const result = await withTx(kernel.db.pool, async (sql) => {
    await lockKey(sql, `msg:${msg.tenantId}:${msg.channelId}:${msg.providerMessageId}`);
    const dup = await sql.query('SELECT 1 FROM messages WHERE tenant_id = $1 AND channel_id = $2 AND provider_id = $3', [msg.tenantId, msg.channelId, msg.providerMessageId]);
    if (dup.rowCount) return { duplicate: true as const };
    const ch = await sql.query<ChannelDefaults>('SELECT queue_id, user_id, type FROM channels WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [msg.tenantId, msg.channelId]);
    if (!ch.rows[0]) throw new Error(`channel ${msg.channelId} not found for tenant ${msg.tenantId}`);
    const isGroup = !!msg.group;
    const participantContactId = isGroup && !msg.fromMe ? await upsertContact(sql, msg.tenantId, msg.from) : undefined;
    const contactId = isGroup
      ? await upsertContact(sql, msg.tenantId, { kind: msg.group!.kind, externalId: msg.group!.externalId, name: msg.group!.name, isGroup: true })
      : await upsertContact(sql, msg.tenantId, msg.from);
    const blocked = await sql.query<{ blocked: boolean }>('SELECT blocked FROM contacts WHERE tenant_id = $1 AND id = $2', [msg.tenantId, contactId]);
    if (blocked.rows[0]?.blocked && !msg.fromMe) return { duplicate: false as const, blocked: true as const, contactId };
    const { ticket, created } = await findOrCreateTicket(sql, msg.tenantId, contactId, msg.channelId, {
      queueId: ch.rows[0].queue_id,
      userId: ch.rows[0].user_id,
      isGroup,
    });
    const type = messageTypeOf(msg.media?.mimetype, msg.type);
    const inserted = await sql.query<MessageRow>(
      `INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, provider_id, from_me, body, type, media_url, media_name, media_type, status, timestamp, quoted_id, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
         (SELECT id FROM messages WHERE tenant_id = $1 AND channel_id = $4 AND provider_id = $14), $15)
       ON CONFLICT (tenant_id, channel_id, provider_id) WHERE provider_id IS NOT NULL DO NOTHING
       RETURNING *`,
      [
        msg.tenantId, ticket.id, participantContactId ?? contactId, msg.channelId, msg.providerMessageId, !!msg.fromMe, msg.body ?? '', type,
        msg.media?.url ?? msg.media?.path ?? null, msg.media?.name ?? null, msg.media?.mimetype ?? null, msg.fromMe ? 'sent' : 'received',
        msg.timestamp ?? new Date(), msg.quotedProviderId ?? null,
        JSON.stringify({ ...(msg.data ?? {}), ...(isGroup ? { participant: msg.from.name ?? msg.from.number ?? msg.from.externalId } : {}) }),
      ],
    );
    if (!inserted.rows[0]) return { duplicate: true as const };
    let ratingClosed = false;
    const answer = !msg.fromMe && ticket.rating_requested_at ? RATING_ANSWER.exec(msg.body ?? '') : null;
    if (answer) {
      // The customer answered the rating request: record it and close the ticket (spec §4).
      await sql.query(`UPDATE tickets SET rating = $3, status = 'closed', closed_at = now(), rating_requested_at = NULL WHERE tenant_id = $1 AND id = $2`, [msg.tenantId, ticket.id, Number(answer[1])]);
      await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES ($1, $2, 'rated', $3)`, [msg.tenantId, ticket.id, JSON.stringify({ rating: Number(answer[1]) })]);
      ratingClosed = true;
    }
    await sql.query(
      `UPDATE tickets SET
         unread_messages = unread_messages + $3,
         last_message = $4,
         last_message_at = GREATEST(last_message_at, $5),
         answered = answered OR $6,
         updated_at = now()
       WHERE tenant_id = $1 AND id = $2`,
      [msg.tenantId, ticket.id, msg.fromMe ? 0 : 1, previewOf(msg.body, type), msg.timestamp ?? new Date(), !!msg.fromMe],
    );
    return { duplicate: false as const, message: inserted.rows[0], ticketId: ticket.id, contactId, created, ratingClosed };
  });
  if (result.duplicate || 'blocked' in result) return { duplicate: result.duplicate, contactId: 'contactId' in result ? result.contactId : undefined };
  const ticket = await loadTicket(kernel.db.pool, msg.tenantId, result.ticketId);
  if (ticket) {
    await kernel.bus.publish({ tenantId: msg.tenantId, event: 'message.created', data: { message: messageOut(result.message), ticket: ticketOut(ticket) }, rooms: ['tenant'] });
    await publishTicket(kernel, ticket, result.created ? 'ticket.created' : 'ticket.updated');
  }
  await kernel.hooks.afterInbound.run({ tenantId: msg.tenantId, ticketId: result.ticketId, contactId: result.contactId, created: result.created, message: messageOut(result.message), fromMe: !!msg.fromMe, ratingClosed: result.ratingClosed });
  return { duplicate: false, messageId: String(result.message.id), ticketId: result.ticketId, contactId: result.contactId, ticketCreated: result.created };
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
