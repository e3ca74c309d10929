import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { lockKey, withTx } from '../../db/tx.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { loadTicket } from '../conversations/ingest.ts';
import { publishTicket } from '../conversations/events.ts';
import { ticketOut } from '../conversations/serialize.ts';
import { log, visibleTicket } from '../conversations/tickets.ts';
import { findTenantChannel } from '../conversations/channels.ts';

const BATCH = 200;

async function republish(kernel: Kernel, tenantId: number, ids: number[]) {
  for (const id of ids) {
    const t = await loadTicket(kernel, tenantId, id);
    if (t) await publishTicket(kernel, t);
  }
}

/**
 * Closes every open (or every pending) ticket of a channel (administration.md
 * §4 channel ticket actions), in batches so a channel with thousands of
 * tickets never holds one long lock, each ticket logged and pushed live.
 */
export async function closeChannelTickets(kernel: Kernel, actor: ResolvedPrincipal, channelId: number, status: 'open' | 'pending'): Promise<{ closed: number }> {
  if (!(await findTenantChannel(kernel, actor.tenantId, channelId))) throw new AppError('ERR_NO_WAPP_FOUND');
  let closed = 0;
  for (;;) {
    const ids = await withTx(kernel.db.pool, async (sql) => {
      const r = await sql.query<{ id: number }>(
        `UPDATE tickets SET status = 'closed', closed_at = now(), unread_messages = 0, rating_requested_at = NULL, updated_at = now()
          WHERE id IN (SELECT id FROM tickets WHERE tenant_id = $1 AND channel_id = $2 AND status = $3 ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING id`,
        [actor.tenantId, channelId, status],
      );
      const list = r.rows.map((x) => x.id);
      if (list.length) {
        await sql.query(
          `INSERT INTO ticket_logs (tenant_id, ticket_id, user_id, type, data) SELECT $1, unnest($2::int[]), $3, 'closed', $4`,
          [actor.tenantId, list, actor.userId, JSON.stringify({ reason: 'channel_close_all', channelId, from: status })],
        );
      }
      return list;
    });
    if (!ids.length) break;
    closed += ids.length;
    await republish(kernel, actor.tenantId, ids);
  }
  return { closed };
}

/**
 * Moves one ticket to another channel (`PUT /ticketsChannelId/:id`). The
 * target must be a live channel of the tenant through which the contact can
 * be reached; a contact that already has an active ticket on the target is
 * refused by the one-active-ticket rule, under the same lock ingestion takes.
 */
export async function moveTicket(kernel: Kernel, actor: ResolvedPrincipal, ticketId: number, toChannelId: number) {
  const ticket = await visibleTicket(kernel, actor, ticketId);
  const target = await findTenantChannel(kernel, actor.tenantId, toChannelId);
  const adapter = target ? kernel.channelAdapters.get(target.type) : undefined;
  if (!target || !adapter) throw new AppError('ERR_TRANSFER_CHANNEL');
  if (ticket.channel_id === toChannelId) return ticketOut(ticket);
  const reachable = await kernel.db.pool.query(
    `SELECT 1 FROM contacts c WHERE c.tenant_id = $1 AND c.id = $2
        AND (c.number IS NOT NULL OR EXISTS (SELECT 1 FROM contact_identities i WHERE i.tenant_id = c.tenant_id AND i.contact_id = c.id AND i.kind = $3))`,
    [actor.tenantId, ticket.contact_id, adapter.identityKind],
  );
  if (!reachable.rowCount) throw new AppError('ERR_TRANSFER_CHANNEL');
  const moved = await withTx(kernel.db.pool, async (sql) => transferOne(sql, actor, ticketId, ticket.contact_id, ticket.channel_id, toChannelId));
  if (moved === 'conflict') {
    const other = await kernel.db.pool.query<{ id: number }>(`SELECT id FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND channel_id = $3 AND status IN ('open','pending') LIMIT 1`, [actor.tenantId, ticket.contact_id, toChannelId]);
    throw new AppError('ERR_OTHER_OPEN_TICKET', {}, { ticketId: other.rows[0]?.id ?? null });
  }
  const t = await loadTicket(kernel, actor.tenantId, ticketId);
  await publishTicket(kernel, t!);
  return ticketOut(t!);
}

async function transferOne(sql: Parameters<Parameters<typeof withTx>[1]>[0], actor: ResolvedPrincipal, ticketId: number, contactId: number, fromChannelId: number | null, toChannelId: number): Promise<'moved' | 'conflict' | 'gone'> {
  // The same key ingestion locks before find-or-create on (contact, channel): a message arriving now waits for us.
  await lockKey(sql, `ticket:${actor.tenantId}:${contactId}:${toChannelId}`);
  const cur = await sql.query<{ status: string; channel_id: number | null }>('SELECT status, channel_id FROM tickets WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [actor.tenantId, ticketId]);
  if (!cur.rows[0] || cur.rows[0].channel_id !== fromChannelId) return 'gone';
  if (cur.rows[0].status === 'open' || cur.rows[0].status === 'pending') {
    const other = await sql.query(`SELECT 1 FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND channel_id = $3 AND status IN ('open','pending') AND id <> $4`, [actor.tenantId, contactId, toChannelId, ticketId]);
    if (other.rowCount) return 'conflict';
  }
  await sql.query('UPDATE tickets SET channel_id = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2', [actor.tenantId, ticketId, toChannelId]);
  await log(sql, actor.tenantId, ticketId, actor.userId, 'channel_transferred', { from: fromChannelId, to: toChannelId });
  return 'moved';
}

/**
 * Moves every active ticket of one channel to another (`PUT /ticketsChannel`),
 * e.g. when a number is replaced. Tickets whose contact already has an
 * active ticket on the target stay where they are and are reported.
 */
export async function moveChannelTickets(kernel: Kernel, actor: ResolvedPrincipal, fromChannelId: number, toChannelId: number) {
  const from = await findTenantChannel(kernel, actor.tenantId, fromChannelId);
  const to = await findTenantChannel(kernel, actor.tenantId, toChannelId);
  if (!from || !to || !kernel.channelAdapters.get(to.type) || fromChannelId === toChannelId) throw new AppError('ERR_TRANSFER_CHANNEL');
  let moved = 0;
  const skipped: { ticketId: number; existingTicketId: number | null }[] = [];
  let after = 0;
  for (;;) {
    const batch = await kernel.db.pool.query<{ id: number; contact_id: number }>(
      `SELECT id, contact_id FROM tickets WHERE tenant_id = $1 AND channel_id = $2 AND status IN ('open','pending') AND id > $3 ORDER BY id LIMIT ${BATCH}`,
      [actor.tenantId, fromChannelId, after],
    );
    if (!batch.rows.length) break;
    const done: number[] = [];
    for (const row of batch.rows) {
      after = row.id;
      const res = await withTx(kernel.db.pool, (sql) => transferOne(sql, actor, row.id, row.contact_id, fromChannelId, toChannelId));
      if (res === 'moved') done.push(row.id);
      else if (res === 'conflict') {
        const other = await kernel.db.pool.query<{ id: number }>(`SELECT id FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND channel_id = $3 AND status IN ('open','pending') LIMIT 1`, [actor.tenantId, row.contact_id, toChannelId]);
        skipped.push({ ticketId: row.id, existingTicketId: other.rows[0]?.id ?? null });
      }
    }
    moved += done.length;
    await republish(kernel, actor.tenantId, done);
  }
  return { moved, skipped };
}

/**
 * Channel behaviour on inbound messages, as an after-inbound hook:
 * - routing default chatbot: a ticket the customer just opened on a channel
 *   with a default chat flow gets it (queue and user defaults are applied by
 *   ingestion at creation), only when the ticket has none;
 * - closing keyword: a customer message equal to it (ignoring case and
 *   surrounding spaces) closes the ticket.
 */
export function installChannelInboundRules(kernel: Kernel) {
  // Channel rules change rarely and are read for every inbound message: keep them 5 s per node.
  const rules = new Map<number, { at: number; keyword: string | null; flow: number | null }>();
  const rulesOf = async (channelId: number) => {
    const hit = rules.get(channelId);
    if (hit && Date.now() - hit.at < 5000) return hit;
    const r = await kernel.db.pool.query<{ closing_keyword: string | null; chatflow_id: number | null }>('SELECT closing_keyword, chatflow_id FROM channels WHERE id = $1', [channelId]);
    const v = { at: Date.now(), keyword: r.rows[0]?.closing_keyword?.trim().toLowerCase() || null, flow: r.rows[0]?.chatflow_id ?? null };
    rules.set(channelId, v);
    return v;
  };
  kernel.hooks.afterInbound.add(async (e) => {
    if (e.fromMe || e.ratingClosed || !e.ticket?.channelId) return;
    const rule = await rulesOf(e.ticket.channelId);
    if (rule.keyword && e.message.body.trim().toLowerCase() === rule.keyword && e.ticket.status !== 'closed') {
      const closed = await kernel.db.pool.query(
        `UPDATE tickets SET status = 'closed', closed_at = now(), unread_messages = 0, updated_at = now() WHERE tenant_id = $1 AND id = $2 AND status IN ('open','pending') RETURNING id`,
        [e.tenantId, e.ticketId],
      );
      if (closed.rowCount) {
        await log(kernel.db.pool, e.tenantId, e.ticketId, null, 'closed', { reason: 'closing_keyword' });
        await republish(kernel, e.tenantId, [e.ticketId]);
      }
      return;
    }
    if (e.created && rule.flow && e.ticket.chatflowId === null) {
      const set = await kernel.db.pool.query(
        `UPDATE tickets SET chatflow_id = $3, chatbot = (user_id IS NULL), updated_at = now() WHERE tenant_id = $1 AND id = $2 AND chatflow_id IS NULL RETURNING id`,
        [e.tenantId, e.ticketId, rule.flow],
      );
      if (set.rowCount) await republish(kernel, e.tenantId, [e.ticketId]);
    }
  });
}
