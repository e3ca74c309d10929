import type { Kernel } from '../../kernel.ts';
import { withTx, type Sql } from '../../db/tx.ts';
import { loadTicket } from './ingest.ts';
import { publishTicket } from './events.ts';
import { queueOutbound } from './outbound.ts';

/** The rating request when the tenant has not written its own (the scale and labels of core.md §9). */
export const RATING_REQUEST_TEXT = 'Como você avalia o nosso atendimento? Responda com uma nota de 0 a 5:\n0 - Ruim\n1 - Regular\n2 - Bom\n3 - Muito bom\n4 - Excelente\n5 - Incrível';

/** `GET|PUT /tenants/rating`, with its defaults. */
export interface RatingConfig {
  enabled: boolean;
  /** How many times the request may be sent (1–10): the first request and the re-asks after answers that are not a score. */
  maxAttempts: number;
  /** The tenant's own request text; blank means the default with the scale. */
  message: string | null;
}

export async function ratingConfig(sql: Sql | Kernel['db']['pool'], tenantId: number): Promise<RatingConfig> {
  const row = (await sql.query<{ rating_config: Partial<RatingConfig> | null }>('SELECT rating_config FROM tenants WHERE id = $1', [tenantId])).rows[0];
  const c = row?.rating_config ?? {};
  const max = Number(c.maxAttempts);
  return { enabled: c.enabled !== false, maxAttempts: Number.isInteger(max) && max >= 1 ? Math.min(max, 10) : 1, message: typeof c.message === 'string' && c.message.trim() ? c.message : null };
}

export const ratingRequestText = (c: RatingConfig) => c.message ?? RATING_REQUEST_TEXT;

/**
 * Rating attempts (core.md §3 "Rating: value 0 to 5, attempts"; §4 "the
 * ticket closes automatically once the customer answers"). Ingestion records
 * a 0–5 answer and closes the ticket; this hook handles every other answer
 * to a pending request: while the request has been sent fewer times than the
 * tenant's `maxAttempts`, it is sent again; once they are used up, the
 * answer closes the ticket without a rating (nothing more is sent: the spec
 * names no text for it). Each sending is a `rating_requested` log carrying
 * its attempt number, which is what the ratings list counts. The ticket row
 * is locked while deciding, so two quick answers on two nodes count as two.
 */
export function installRatingAttempts(kernel: Kernel) {
  kernel.hooks.afterInbound.add(async (e) => {
    // The customer scored: the farewell the agent chose with the request is their thanks.
    if (!e.fromMe && e.ratingClosed) {
      await sendPendingFarewell(kernel, e.tenantId, e.ticketId);
      return;
    }
    // A reaction to the question is not an answer; a score was already recorded by ingestion.
    if (e.fromMe || e.ratingClosed || e.message.type === 'reaction' || !e.ticket || e.ticket.status === 'closed') return;
    // The ticket as read after the message was stored: no request pending means nothing to do, without a
    // transaction per inbound message (the locked re-read below settles the rare race with a resolve).
    if (e.ticket.ratingRequested === false) return;
    const outcome = await withTx(kernel.db.pool, async (sql) => {
      const t = (
        await sql.query<{ rating_requested_at: Date | null; status: string; user_id: number | null }>(
          'SELECT rating_requested_at, status, user_id FROM tickets WHERE tenant_id = $1 AND id = $2 FOR UPDATE',
          [e.tenantId, e.ticketId],
        )
      ).rows[0];
      if (!t?.rating_requested_at || t.status === 'closed') return undefined;
      const cfg = await ratingConfig(sql, e.tenantId);
      const last = (
        await sql.query<{ attempt: number | null }>(
          `SELECT (data->>'attempt')::int AS attempt FROM ticket_logs WHERE tenant_id = $1 AND ticket_id = $2 AND type = 'rating_requested' ORDER BY id DESC LIMIT 1`,
          [e.tenantId, e.ticketId],
        )
      ).rows[0];
      const sent = last?.attempt ?? 1;
      if (sent < cfg.maxAttempts) {
        await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES ($1, $2, 'rating_requested', $3)`, [
          e.tenantId, e.ticketId, JSON.stringify({ attempt: sent + 1, after: e.message.id }),
        ]);
        return { kind: 'ask' as const, text: ratingRequestText(cfg), attempt: sent + 1, userId: t.user_id };
      }
      await sql.query(
        `UPDATE tickets SET status = 'closed', closed_at = now(), rating_requested_at = NULL, unread_messages = 0, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
        [e.tenantId, e.ticketId],
      );
      await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES ($1, $2, 'closed', $3)`, [e.tenantId, e.ticketId, JSON.stringify({ reason: 'rating_attempts', attempts: sent })]);
      return { kind: 'closed' as const };
    });
    if (!outcome) return;
    if (outcome.kind === 'ask') {
      await queueOutbound(kernel, { tenantId: e.tenantId, ticketId: e.ticketId, userId: outcome.userId, body: outcome.text, data: { ratingRequest: true, attempt: outcome.attempt } });
      return;
    }
    const ticket = await loadTicket(kernel, e.tenantId, e.ticketId);
    if (ticket) await publishTicket(kernel, ticket);
    // Closed without a score: the customer still gets the farewell.
    await sendPendingFarewell(kernel, e.tenantId, e.ticketId);
  });
}

/**
 * The farewell kept with the latest first rating request of the ticket (tickets.ts), sent once the
 * request is settled; the `farewell_sent` log marks it sent so a later answer does not send it twice.
 */
async function sendPendingFarewell(kernel: Kernel, tenantId: number, ticketId: number) {
  const r = await kernel.db.pool.query<{ id: number; farewell: string | null; user_id: number | null }>(
    `SELECT l.id, l.data->>'farewell' AS farewell, l.user_id FROM ticket_logs l
      WHERE l.tenant_id = $1 AND l.ticket_id = $2 AND l.type = 'rating_requested' AND (l.data->>'attempt')::int = 1
      ORDER BY l.id DESC LIMIT 1`,
    [tenantId, ticketId],
  );
  const req = r.rows[0];
  if (!req?.farewell) return;
  const sent = await kernel.db.pool.query(`SELECT 1 FROM ticket_logs WHERE tenant_id = $1 AND ticket_id = $2 AND type = 'farewell_sent' AND id > $3`, [tenantId, ticketId, req.id]);
  if (sent.rowCount) return;
  await kernel.db.pool.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, user_id, type, data) VALUES ($1, $2, $3, 'farewell_sent', '{"afterRating":true}')`, [tenantId, ticketId, req.user_id]);
  await queueOutbound(kernel, { tenantId, ticketId, userId: req.user_id, body: req.farewell, data: { farewell: true } });
}
