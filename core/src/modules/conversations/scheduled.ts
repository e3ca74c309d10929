import type { Kernel } from '../../kernel.ts';
import { lockKey, withTx, type Sql } from '../../db/tx.ts';
import { messageOut, ticketOut, type MessageRow } from './serialize.ts';
import { findOrCreateTicket, loadTicket, previewOf } from './ingest.ts';
import { publishTicket } from './events.ts';
import { SEND_JOB } from './outbound.ts';
import { renderFor } from './templates.ts';

export const DISPATCH_JOB = 'messages.dispatch_scheduled';

/**
 * The ticket a due message goes out on. An open or pending ticket is used as
 * it is. A message waiting in a `schedule` holder (a contact that had no
 * ticket when it was scheduled) or in a closed ticket must not go out where
 * nobody looks: it moves to the contact's open or pending ticket on that
 * channel when there is one (one active ticket per contact, core.md §4);
 * otherwise the holder itself opens, or the closed ticket's contact gets a
 * new ticket, assigned to whoever scheduled it (pending, in nobody's hands,
 * if that user is gone), like a conversation the agent started. So the agent
 * sees what went out and the customer's answer lands beside it.
 */
async function ticketToSendOn(sql: Sql, m: MessageRow): Promise<{ ticketId: number; opened: boolean; removed?: number }> {
  // Read afresh: an earlier message of the same batch may have moved this one already.
  const cur = (
    await sql.query<{ ticket_id: number; status: string; contact_id: number; channel_id: number | null }>(
      'SELECT t.id AS ticket_id, t.status, t.contact_id, t.channel_id FROM messages x JOIN tickets t ON t.id = x.ticket_id WHERE x.tenant_id = $1 AND x.id = $2',
      [m.tenant_id, m.id],
    )
  ).rows[0];
  if (!cur) return { ticketId: m.ticket_id, opened: false };
  m.ticket_id = cur.ticket_id;
  if (cur.status === 'open' || cur.status === 'pending') return { ticketId: m.ticket_id, opened: false };
  const user = m.user_id ? await sql.query('SELECT 1 FROM users WHERE tenant_id = $1 AND id = $2 AND active', [m.tenant_id, m.user_id]) : undefined;
  const userId = user?.rowCount ? m.user_id : null;
  if (cur.status === 'schedule') {
    // The same key ingest and "new ticket" take, so a customer writing right now cannot make a second active ticket.
    await lockKey(sql, `ticket:${m.tenant_id}:${cur.contact_id}:${cur.channel_id ?? 0}`);
    const active = await sql.query<{ id: number }>(
      `SELECT id FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND COALESCE(channel_id, 0) = $3 AND status IN ('open','pending') LIMIT 1`,
      [m.tenant_id, cur.contact_id, cur.channel_id ?? 0],
    );
    if (!active.rows[0]) {
      await sql.query(`UPDATE tickets SET status = $3, user_id = $4, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [m.tenant_id, m.ticket_id, userId ? 'open' : 'pending', userId]);
      await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, user_id, type, data) VALUES ($1, $2, $3, 'opened_by_schedule', $4)`, [m.tenant_id, m.ticket_id, userId, JSON.stringify({ messageId: String(m.id), userId })]);
      return { ticketId: m.ticket_id, opened: true };
    }
    // The holder's other waiting messages follow (those another node is dispatching right now move when it does), then the empty holder goes.
    const to = active.rows[0].id;
    await sql.query(
      `UPDATE messages SET ticket_id = $3 WHERE id IN (SELECT id FROM messages WHERE tenant_id = $1 AND ticket_id = $2 AND id <> $4 FOR UPDATE SKIP LOCKED)`,
      [m.tenant_id, m.ticket_id, to, m.id],
    );
    await sql.query('UPDATE messages SET ticket_id = $3 WHERE tenant_id = $1 AND id = $2', [m.tenant_id, m.id, to]);
    const gone = await sql.query(`DELETE FROM tickets t WHERE t.tenant_id = $1 AND t.id = $2 AND t.status = 'schedule' AND NOT EXISTS (SELECT 1 FROM messages x WHERE x.ticket_id = t.id)`, [m.tenant_id, m.ticket_id]);
    return { ticketId: to, opened: false, removed: gone.rowCount ? m.ticket_id : undefined };
  }
  // A closed ticket stays as it was resolved (and rated); the message starts or joins the active one.
  const { ticket, created } = await findOrCreateTicket(sql, m.tenant_id, cur.contact_id, cur.channel_id, { queueId: null, userId, isGroup: false });
  await sql.query('UPDATE messages SET ticket_id = $3 WHERE tenant_id = $1 AND id = $2', [m.tenant_id, m.id, ticket.id]);
  if (created) await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, user_id, type, data) VALUES ($1, $2, $3, 'opened_by_schedule', $4)`, [m.tenant_id, ticket.id, userId, JSON.stringify({ messageId: String(m.id), userId })]);
  return { ticketId: ticket.id, opened: created };
}

/**
 * Sends scheduled messages when they fall due (checked every 30 s). A due
 * message is claimed (`data.dispatchedAt`) in the same transaction that
 * schedules its next occurrence, so every node may run the dispatcher and
 * none sends twice; the send itself goes through the normal send job. It
 * goes out on an open or pending ticket (see `ticketToSendOn`).
 */
export async function dispatchScheduled(kernel: Kernel, now = new Date()): Promise<{ dispatched: number }> {
  const opened = new Set<number>();
  const due = await withTx(kernel.db.pool, async (sql) => {
    const r = await sql.query<MessageRow>(
      `SELECT * FROM messages
        WHERE status = 'pending' AND schedule_date IS NOT NULL AND schedule_date <= $1 AND NOT (data ? 'dispatchedAt') AND deleted_at IS NULL
        ORDER BY schedule_date LIMIT 500 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    for (const m of r.rows) {
      const target = await ticketToSendOn(sql, m);
      m.ticket_id = target.ticketId;
      if (target.opened) opened.add(target.ticketId);
      // The next occurrence (below) keeps the template; this one goes out with today's values.
      const template = m.body;
      m.body = await renderFor(sql, m.tenant_id, template, { ticketId: m.ticket_id, userId: m.user_id, now }, kernel.templateProviders);
      await sql.query(`UPDATE messages SET body = $2, data = data || jsonb_build_object('dispatchedAt', now()), updated_at = now() WHERE id = $1`, [m.id, m.body]);
      if (m.recurrence_days && (m.repetitions ?? 1) > 1) {
        // The next occurrence carries one repetition less; the last one has none left.
        await sql.query(
          `INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, user_id, from_me, body, type, media_url, media_name, media_type, status, schedule_date, recurrence_days, repetitions, data)
           VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $9, $10, 'pending', $11, $12, $13, $14)`,
          [m.tenant_id, m.ticket_id, m.contact_id, m.channel_id, m.user_id, template, m.type, m.media_url, m.media_name, m.media_type,
           new Date(new Date(m.schedule_date!).getTime() + m.recurrence_days * 86_400_000), m.recurrence_days, (m.repetitions ?? 1) - 1,
           JSON.stringify({ ...m.data, recurrenceOf: String(m.id) })],
        );
      }
      await sql.query(`UPDATE tickets SET last_message = $3, last_message_at = now(), answered = true, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [m.tenant_id, m.ticket_id, previewOf(m.body, m.type)]);
    }
    return r.rows;
  });
  for (const m of due) {
    await kernel.jobs.enqueue(SEND_JOB, { tenantId: m.tenant_id, messageId: String(m.id) }, { jobId: `send-${m.id}`, attempts: 5, backoffMs: 2000 });
    const ticket = await loadTicket(kernel, m.tenant_id, m.ticket_id);
    await kernel.bus.publish({ tenantId: m.tenant_id, event: 'message.updated', data: { message: messageOut(m), ticket: ticket ? ticketOut(ticket) : undefined } });
    // The ticket lists learn of it: a ticket that just opened appears, one that got the message moves up.
    if (ticket) await publishTicket(kernel, ticket, opened.delete(ticket.id) ? 'ticket.created' : 'ticket.updated');
  }
  return { dispatched: due.length };
}

export async function defineScheduledDispatch(kernel: Kernel) {
  kernel.jobs.define<Record<string, never>>(DISPATCH_JOB, async () => dispatchScheduled(kernel), { concurrency: 1 });
  if (kernel.config.role !== 'api') await kernel.jobs.schedule(DISPATCH_JOB, 'dispatch-scheduled', { everyMs: 30_000 }, {});
}
