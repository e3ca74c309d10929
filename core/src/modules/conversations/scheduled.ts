import type { Kernel } from '../../kernel.ts';
import { withTx } from '../../db/tx.ts';
import { messageOut, ticketOut, type MessageRow } from './serialize.ts';
import { loadTicket, previewOf } from './ingest.ts';
import { SEND_JOB } from './outbound.ts';
import { renderFor } from './templates.ts';

export const DISPATCH_JOB = 'messages.dispatch_scheduled';

/**
 * Sends scheduled messages when they fall due (checked every 30 s). A due
 * message is claimed (`data.dispatchedAt`) in the same transaction that
 * schedules its next occurrence, so every node may run the dispatcher and
 * none sends twice; the send itself goes through the normal send job.
 */
export async function dispatchScheduled(kernel: Kernel, now = new Date()): Promise<{ dispatched: number }> {
  const due = await withTx(kernel.db.pool, async (sql) => {
    const r = await sql.query<MessageRow>(
      `SELECT * FROM messages
        WHERE status = 'pending' AND schedule_date IS NOT NULL AND schedule_date <= $1 AND NOT (data ? 'dispatchedAt') AND deleted_at IS NULL
        ORDER BY schedule_date LIMIT 500 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    for (const m of r.rows) {
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
    const ticket = await loadTicket(kernel.db.pool, m.tenant_id, m.ticket_id);
    await kernel.bus.publish({ tenantId: m.tenant_id, event: 'message.updated', data: { message: messageOut(m), ticket: ticket ? ticketOut(ticket) : undefined } });
  }
  return { dispatched: due.length };
}

export async function defineScheduledDispatch(kernel: Kernel) {
  kernel.jobs.define<Record<string, never>>(DISPATCH_JOB, async () => dispatchScheduled(kernel), { concurrency: 1 });
  if (kernel.config.role !== 'api') await kernel.jobs.schedule(DISPATCH_JOB, 'dispatch-scheduled', { everyMs: 30_000 }, {});
}
