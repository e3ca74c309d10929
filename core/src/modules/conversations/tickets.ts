import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { withTx, type Sql } from '../../db/tx.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { INTEGRATION_FIELDS, messageOut, ticketOut, type MessageRow, type TicketRow, TICKET_SELECT, TICKET_JOINS } from './serialize.ts';
import { findOrCreateTicket, loadTicket } from './ingest.ts';
import { publishTicket } from './events.ts';
import { queueOutbound } from './outbound.ts';
import { viewerCanSee, visibilitySettings } from './visibility.ts';
import { isTicketAdmin } from '../access/ticket-visibility.ts';
import { ratingConfig, ratingRequestText } from './rating.ts';

export type Actor = ResolvedPrincipal;

const isAdmin = (a: Actor) => a.profile === 'admin' || a.profile === 'superadmin';

/**
 * ForceAdminPendingAssignment (core.md §6 "force admin assignment of pending
 * tickets"): while it is on, a pending ticket gets its agent from a ticket
 * admin only; anyone else may not take it (start, reply) nor hand it to someone.
 * A pending ticket an admin already gave to the actor may still be started by them.
 */
export async function assertMayAssignPending(kernel: Kernel, actor: Actor): Promise<void> {
  const s = await visibilitySettings(kernel, actor.tenantId);
  if (s.ForceAdminPendingAssignment === 'enabled' && !isTicketAdmin(actor, s)) throw new AppError('ERR_NO_PERMISSION');
}

export async function log(sql: Sql | Kernel['db']['pool'], tenantId: number, ticketId: number, userId: number | null, type: string, data: Record<string, unknown> = {}) {
  await sql.query('INSERT INTO ticket_logs (tenant_id, ticket_id, user_id, type, data) VALUES ($1, $2, $3, $4, $5)', [tenantId, ticketId, userId, type, JSON.stringify(data)]);
}

/** Loads a ticket the actor may see, or answers exactly like a missing one. */
export async function visibleTicket(kernel: Kernel, actor: Actor, ticketId: number): Promise<TicketRow> {
  const t = await loadTicket(kernel, actor.tenantId, ticketId);
  if (!t || !(await viewerCanSee(kernel, actor, t))) throw new AppError('ERR_NO_TICKET_FOUND');
  return t;
}

async function republish(kernel: Kernel, tenantId: number, ticketId: number) {
  const t = await loadTicket(kernel, tenantId, ticketId);
  if (t) await publishTicket(kernel, t);
  return t!;
}

/** Turns a unique-index violation on the one-active-ticket rule into the catalogue error, with the existing ticket. */
async function otherOpenTicket(kernel: Kernel, actor: Actor, contactId: number, channelId: number | null): Promise<never> {
  const r = await kernel.db.pool.query<{ id: number; user_id: number | null; status: string }>(
    `SELECT id, user_id, status FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND COALESCE(channel_id, 0) = $3 AND status IN ('open','pending') LIMIT 1`,
    [actor.tenantId, contactId, channelId ?? 0],
  );
  const existing = r.rows[0];
  // The agent may open the existing ticket unless it is in another agent's hands; then only an admin may assign it.
  const canOpen = !!existing && (existing.user_id === null || existing.user_id === actor.userId || isAdmin(actor));
  throw new AppError(canOpen ? 'ERR_OTHER_OPEN_TICKET' : 'ERR_OTHER_OPEN_TICKET_ADMIN', {}, { ticketId: existing?.id ?? null, ticket: existing ? { id: existing.id, userId: existing.user_id, status: existing.status } : null, canOpen });
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** `POST /tickets`: an agent starts a conversation with a contact on a channel. */
export async function createTicket(kernel: Kernel, actor: Actor, input: { contactId: number; channelId?: number | null; status?: 'open' | 'pending'; userId?: number | null; queueId?: number | null }) {
  const c = await kernel.db.pool.query('SELECT 1 FROM contacts WHERE tenant_id = $1 AND id = $2', [actor.tenantId, input.contactId]);
  if (!c.rowCount) throw new AppError('ERR_NO_CONTACT_FOUND');
  let channelId = input.channelId ?? null;
  if (channelId === null) {
    const d = await kernel.db.pool.query<{ id: number }>(`SELECT id FROM channels WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY is_default DESC, (status = 'connected') DESC, id LIMIT 1`, [actor.tenantId]);
    if (!d.rows[0]) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    channelId = d.rows[0].id;
  } else {
    const ch = await kernel.db.pool.query('SELECT 1 FROM channels WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [actor.tenantId, channelId]);
    if (!ch.rowCount) throw new AppError('ERR_NO_WAPP_FOUND');
  }
  // Opening a conversation in someone else's name hands it to them: the queue rule of a transfer applies.
  await assertAssignable(kernel, actor, input.userId ?? null, input.queueId ?? null, { receiving: input.userId != null && input.userId !== actor.userId });
  const existing = await kernel.db.pool.query(`SELECT 1 FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND COALESCE(channel_id, 0) = $3 AND status IN ('open','pending')`, [actor.tenantId, input.contactId, channelId]);
  if (existing.rowCount) return otherOpenTicket(kernel, actor, input.contactId, channelId);
  const status = input.status ?? 'open';
  const userId = input.userId ?? (status === 'open' ? actor.userId : null);
  let ticketId: number;
  try {
    ticketId = await withTx(kernel.db.pool, async (sql) => {
      const { ticket, created } = await findOrCreateTicket(sql, actor.tenantId, input.contactId, channelId, { queueId: input.queueId ?? null, userId, isGroup: false, status });
      if (!created) throw Object.assign(new Error('exists'), { code: '23505' });
      await log(sql, actor.tenantId, ticket.id, actor.userId, 'opened_by_user', { userId, queueId: input.queueId ?? null });
      return ticket.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return otherOpenTicket(kernel, actor, input.contactId, channelId);
    throw err;
  }
  const t = await loadTicket(kernel, actor.tenantId, ticketId);
  await publishTicket(kernel, t!, 'ticket.created');
  return ticketOut(t!);
}

async function assertAssignable(kernel: Kernel, actor: Actor, userId: number | null, queueId: number | null, opts: { receiving?: boolean } = {}) {
  let receiver: { profile: Actor['profile']; queues: number[] } | undefined;
  if (userId !== null) {
    const u = await kernel.db.pool.query<{ profile: Actor['profile']; queues: number[] }>('SELECT profile, queues FROM users WHERE tenant_id = $1 AND id = $2 AND active', [actor.tenantId, userId]);
    if (!u.rowCount) throw new AppError('ERR_NO_USER_FOUND');
    receiver = u.rows[0];
  }
  if (queueId !== null) {
    const q = await kernel.db.pool.query('SELECT 1 FROM queues WHERE tenant_id = $1 AND id = $2', [actor.tenantId, queueId]);
    if (!q.rowCount) throw new AppError('ERR_NOT_FOUND');
  }
  // Whoever receives a transferred ticket must be able to work it: it lands in a queue they attend, or they are a
  // ticket admin (admin, superadmin, a supervisor while supervisorAdmin is off), who sees every queue (core.md §6).
  // The transfer dialog offers exactly these people (presence.ts `receivesQueueSql`).
  if (opts.receiving && receiver && queueId !== null) {
    const s = await visibilitySettings(kernel, actor.tenantId);
    if (!receivesQueue(receiver, queueId, s)) throw new AppError('ERR_TRANSFER_USER_NOT_IN_QUEUE');
  }
}

/** Refuses, before any ticket moves, a bulk transfer whose receiver does not work the chosen queue (the same rule). */
export async function assertMayReceive(kernel: Kernel, actor: Actor, userId: number, queueId: number): Promise<void> {
  await assertAssignable(kernel, actor, userId, queueId, { receiving: true });
}

/** Whether a user may receive a ticket of `queueId`: one of their queues, or they are a ticket admin. */
export function receivesQueue(user: { profile: Actor['profile']; queues: readonly number[] }, queueId: number, s: Parameters<typeof isTicketAdmin>[1]): boolean {
  return isTicketAdmin({ profile: user.profile }, s) || user.queues.includes(queueId);
}

export interface TicketUpdate {
  status?: 'open' | 'pending' | 'closed';
  userId?: number | null;
  queueId?: number | null;
  unreadMessages?: number;
  sendFarewell?: boolean;
  farewellMessage?: string;
  sendRating?: boolean;
  demand?: string | null;
  value?: number | null;
  notes?: string | null;
  chatFlowId?: number | null;
  /** A note for whoever receives a transfer; shown in the conversation's transfer line. */
  transferNote?: string;
  integrations?: Partial<Record<(typeof INTEGRATION_FIELDS)[number], boolean>>;
}

export const FAREWELL_CLOSE_JOB = 'tickets.close_after_farewell';

/**
 * `PUT /tickets/:id`: every transition of spec §4 (start attending, return to
 * queue, resolve with farewell/rating, reopen, transfer) plus the free fields.
 * The row is locked for the whole change, so two agents clicking at once
 * serialise and the second sees the first's result.
 */
export async function updateTicket(kernel: Kernel, actor: Actor, ticketId: number, u: TicketUpdate) {
  const before = await visibleTicket(kernel, actor, ticketId);
  const followUps: (() => Promise<unknown>)[] = [];
  try {
    await withTx(kernel.db.pool, async (sql) => {
      const cur = (await sql.query<TicketRow>('SELECT * FROM tickets WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [actor.tenantId, ticketId])).rows[0];
      if (!cur) throw new AppError('ERR_NO_TICKET_FOUND');
      const set: string[] = [];
      const vals: unknown[] = [actor.tenantId, ticketId];
      const put = (col: string, v: unknown) => {
        vals.push(v);
        set.push(`${col} = $${vals.length}`);
      };
      const transfer = (u.userId !== undefined && u.userId !== cur.user_id) || (u.queueId !== undefined && u.queueId !== cur.queue_id);
      if (cur.status === 'pending') {
        const takes = u.status === 'open' && u.userId === undefined && cur.user_id !== actor.userId;
        const assigns = u.userId !== undefined && u.userId !== null && u.userId !== cur.user_id && u.status !== 'closed';
        if (takes || assigns) await assertMayAssignPending(kernel, actor);
      }

      if (u.userId !== undefined || u.queueId !== undefined) {
        const targetUser = u.userId === undefined ? cur.user_id : u.userId;
        const targetQueue = u.queueId === undefined ? cur.queue_id : u.queueId;
        const isStart = u.status === 'open' && cur.status === 'pending';
        // Reopening a resolved ticket names who will answer it; the ticket's own agent (or an admin on their own
        // ticket) reopening it is not a transfer to themselves.
        const isReopen = u.status === 'open' && cur.status === 'closed';
        if (!isStart && !isReopen && u.status !== 'pending' && u.status !== 'closed') {
          // Transfer refusals (spec §4).
          if (u.userId !== undefined && u.userId !== null && u.userId === cur.user_id && (u.queueId === undefined || u.queueId === cur.queue_id)) throw new AppError('ERR_TICKET_SAME_USER');
          // Nobody chosen and the ticket already waits, unassigned, in the chosen queue: nothing to transfer.
          if (u.userId === null && cur.user_id === null && u.queueId !== undefined && u.queueId === cur.queue_id) throw new AppError('ERR_TRANSFER');
          if (u.userId !== undefined && u.userId !== null && u.userId === actor.userId && cur.user_id !== null && cur.user_id !== actor.userId && !isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
        }
        // A person chosen for the ticket (transfer, assignment, reopen to someone) receives it: the queue rule applies.
        const receiving = u.userId !== undefined && u.userId !== null && !(isStart && u.userId === actor.userId) && (u.userId !== cur.user_id || targetQueue !== cur.queue_id);
        await assertAssignable(kernel, actor, targetUser, targetQueue, { receiving });
        if (u.userId !== undefined) put('user_id', u.userId);
        if (u.queueId !== undefined) put('queue_id', u.queueId);
        if (transfer && u.status === undefined) {
          // A transfer to a person lands in their open tickets; to a queue only, back to pending.
          put('status', targetUser ? 'open' : 'pending');
          put('chatbot', false);
          if (cur.status === 'closed') {
            // Transferring a resolved ticket brings it back, as a reopen does: its history says so and it no longer
            // carries a closing time (reports read closed_at). The one-active-ticket index still refuses it when the
            // contact already has another one (ERR_OTHER_OPEN_TICKET below).
            put('closed_at', null);
            await log(sql, actor.tenantId, ticketId, actor.userId, 'reopened');
          }
          await log(sql, actor.tenantId, ticketId, actor.userId, 'transferred', { from: { userId: cur.user_id, queueId: cur.queue_id }, to: { userId: targetUser, queueId: targetQueue } });
          const line = await transferLine(sql, actor, cur, targetUser, targetQueue, u.transferNote);
          followUps.push(() => publishMessage(kernel, actor.tenantId, ticketId, line));
        }
      }
      if (u.transferNote && !(transfer && u.status === undefined)) throw new AppError('ERR_VALIDATION', { details: 'a observação acompanha uma transferência' });

      if (u.status && u.status !== cur.status) {
        if (u.status === 'open') {
          if (cur.status === 'closed') {
            // Reopen.
            put('status', 'open');
            put('closed_at', null);
            if (u.userId === undefined) put('user_id', actor.userId);
            await log(sql, actor.tenantId, ticketId, actor.userId, 'reopened');
          } else {
            // Start attending: only an admin takes over a ticket another agent is working.
            if (cur.user_id && cur.user_id !== actor.userId && cur.status === 'open' && !isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
            put('status', 'open');
            if (u.userId === undefined) put('user_id', actor.userId);
            put('chatbot', false);
            await log(sql, actor.tenantId, ticketId, actor.userId, 'started');
          }
        } else if (u.status === 'pending') {
          put('status', 'pending');
          if (u.userId === undefined) put('user_id', null);
          await log(sql, actor.tenantId, ticketId, actor.userId, 'returned_to_queue');
        } else if (u.status === 'closed') {
          const farewellText = async () => {
            const ch = cur.channel_id ? (await sql.query<{ farewell_message: string | null }>('SELECT farewell_message FROM channels WHERE tenant_id = $1 AND id = $2', [actor.tenantId, cur.channel_id])).rows[0] : undefined;
            const text = (u.farewellMessage ?? ch?.farewell_message ?? '').trim();
            if (!text) throw new AppError('ERR_INVALID_MESSAGE');
            return text;
          };
          if (u.sendRating) {
            const cfg = await ratingConfig(sql, actor.tenantId);
            // The tenant switched ratings off (/avaliacoes/configurar): nothing is sent and the ticket stays as it was.
            if (!cfg.enabled) throw new AppError('ERR_VALIDATION', { details: 'a avaliação do atendimento está desativada nesta empresa' });
            // Stays open until the customer answers 0–5; ingestion closes it then.
            put('rating_requested_at', new Date());
            // The tenant's own request text when it wrote one; the answers that are not a score are handled by rating.ts.
            const text = ratingRequestText(cfg);
            // A farewell asked for together with the rating is the thanks the customer gets once they have
            // answered (rating.ts sends it when the ticket closes): sent now, it would be buried under the question.
            const farewell = u.sendFarewell ? await farewellText() : undefined;
            followUps.push(() => queueOutbound(kernel, { tenantId: actor.tenantId, ticketId, userId: actor.userId, body: text, data: { ratingRequest: true, attempt: 1 } }));
            await log(sql, actor.tenantId, ticketId, actor.userId, 'rating_requested', { attempt: 1, ...(farewell ? { farewell } : {}) });
          } else if (u.sendFarewell) {
            const text = await farewellText();
            put('farewell_sent_at', new Date());
            followUps.push(() => queueOutbound(kernel, { tenantId: actor.tenantId, ticketId, userId: actor.userId, body: text, data: { farewell: true } }));
            followUps.push(() => kernel.jobs.enqueue(FAREWELL_CLOSE_JOB, { tenantId: actor.tenantId, ticketId }, { jobId: `farewell-${ticketId}-${Date.now()}`, delayMs: 30_000 }));
            await log(sql, actor.tenantId, ticketId, actor.userId, 'farewell_sent');
          } else {
            put('status', 'closed');
            put('closed_at', new Date());
            put('unread_messages', 0);
            await log(sql, actor.tenantId, ticketId, actor.userId, 'closed');
          }
        }
      }

      if (u.unreadMessages !== undefined) put('unread_messages', u.unreadMessages);
      if (u.demand !== undefined) put('demand', u.demand);
      if (u.value !== undefined) put('value', u.value);
      if (u.notes !== undefined) put('notes', u.notes);
      if (u.chatFlowId !== undefined) put('chatflow_id', u.chatFlowId);
      if (u.integrations && Object.keys(u.integrations).length) {
        vals.push(JSON.stringify(u.integrations));
        set.push(`integrations = integrations || $${vals.length}::jsonb`);
        await log(sql, actor.tenantId, ticketId, actor.userId, 'integration_status', u.integrations);
      }
      if (!set.length) return;
      set.push('updated_at = now()');
      await sql.query(`UPDATE tickets SET ${set.join(', ')} WHERE tenant_id = $1 AND id = $2`, vals);
    });
  } catch (err) {
    if (isUniqueViolation(err)) return otherOpenTicket(kernel, actor, before.contact_id, before.channel_id);
    throw err;
  }
  for (const f of followUps) await f();
  return ticketOut(await republish(kernel, actor.tenantId, ticketId));
}

/**
 * The conversation's record of a transfer (U2): an internal line, never sent to
 * the customer, "Transferido de Atendimento para Financeiro por Ana", with the
 * sender's note for the receiver. `data` keeps the parts so each screen words
 * it in its own language; the body is the Portuguese text (search, exports).
 */
async function transferLine(sql: Sql, actor: Actor, cur: TicketRow, toUser: number | null, toQueue: number | null, note: string | undefined): Promise<MessageRow> {
  const ids = [cur.user_id, toUser, actor.userId].filter((x): x is number => x !== null);
  const qids = [cur.queue_id, toQueue].filter((x): x is number => x !== null);
  const users = new Map((await sql.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE tenant_id = $1 AND id = ANY($2::int[])', [actor.tenantId, ids])).rows.map((r) => [r.id, r.name]));
  const queues = new Map((await sql.query<{ id: number; name: string }>('SELECT id, name FROM queues WHERE tenant_id = $1 AND id = ANY($2::int[])', [actor.tenantId, qids])).rows.map((r) => [r.id, r.name]));
  const side = (q: number | null, u: number | null) => ({ queue: q === null ? null : queues.get(q) ?? null, user: u === null ? null : users.get(u) ?? null });
  const from = side(cur.queue_id, cur.user_id);
  const to = side(toQueue, toUser);
  const by = users.get(actor.userId) ?? null;
  const label = (x: { queue: string | null; user: string | null }) => (x.queue && x.user ? `${x.queue} (${x.user})` : x.queue ?? x.user ?? 'sem fila');
  const cleanNote = note?.trim() || null;
  const body = `Transferido de ${label(from)} para ${label(to)}${by ? ` por ${by}` : ''}${cleanNote ? `\nObservação: ${cleanNote}` : ''}`;
  const r = await sql.query<MessageRow>(
    `INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, user_id, from_me, is_note, body, type, status, data)
     VALUES ($1, $2, $3, $4, $5, true, true, $6, 'system', 'sent', $7) RETURNING *`,
    [actor.tenantId, cur.id, cur.contact_id, cur.channel_id, actor.userId, body, JSON.stringify({ system: 'transfer', from, to, by, note: cleanNote })],
  );
  return r.rows[0]!;
}

async function publishMessage(kernel: Kernel, tenantId: number, ticketId: number, row: MessageRow) {
  const ticket = await loadTicket(kernel, tenantId, ticketId);
  if (ticket) await kernel.bus.publish({ tenantId, event: 'message.created', data: { message: messageOut(row), ticket: ticketOut(ticket) } });
}

/** `PUT /ticketsForce/:id`: an admin closes without farewell or rating. */
export async function forceClose(kernel: Kernel, actor: Actor, ticketId: number) {
  if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
  await visibleTicket(kernel, actor, ticketId);
  await withTx(kernel.db.pool, async (sql) => {
    await sql.query(`UPDATE tickets SET status = 'closed', closed_at = now(), unread_messages = 0, rating_requested_at = NULL, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, ticketId]);
    await log(sql, actor.tenantId, ticketId, actor.userId, 'force_closed');
  });
  return ticketOut(await republish(kernel, actor.tenantId, ticketId));
}

/** `PUT /ticketsChatBot/:id`: hands the ticket to a chatbot flow, unassigned. */
export async function transferToChatbot(kernel: Kernel, actor: Actor, ticketId: number, chatFlowId: number | null) {
  await visibleTicket(kernel, actor, ticketId);
  await withTx(kernel.db.pool, async (sql) => {
    await sql.query(`UPDATE tickets SET chatbot = true, chatflow_id = $3, user_id = NULL, status = 'pending', updated_at = now() WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, ticketId, chatFlowId]);
    await log(sql, actor.tenantId, ticketId, actor.userId, 'transferred_to_chatbot', { chatFlowId });
  });
  return ticketOut(await republish(kernel, actor.tenantId, ticketId));
}

/** `PUT /ticketsNull/:id`: removes user and queue, back to pending for anyone to pick up. */
export async function clearAssignment(kernel: Kernel, actor: Actor, ticketId: number) {
  await visibleTicket(kernel, actor, ticketId);
  await withTx(kernel.db.pool, async (sql) => {
    await sql.query(`UPDATE tickets SET user_id = NULL, queue_id = NULL, status = CASE WHEN status = 'closed' THEN status ELSE 'pending' END, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, ticketId]);
    await log(sql, actor.tenantId, ticketId, actor.userId, 'unassigned');
  });
  return ticketOut(await republish(kernel, actor.tenantId, ticketId));
}

/** Closes tickets whose farewell went out more than 30 s ago but whose send has not confirmed. */
export function defineTicketJobs(kernel: Kernel) {
  kernel.jobs.define<{ tenantId: number; ticketId: number }>(FAREWELL_CLOSE_JOB, async ({ tenantId, ticketId }) => {
    const r = await kernel.db.pool.query(
      `UPDATE tickets SET status = 'closed', closed_at = now(), unread_messages = 0, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND status <> 'closed' AND farewell_sent_at IS NOT NULL RETURNING id`,
      [tenantId, ticketId],
    );
    if (r.rowCount) {
      await log(kernel.db.pool, tenantId, ticketId, null, 'closed', { reason: 'farewell_timeout' });
      await republish(kernel, tenantId, ticketId);
    }
    return { closed: !!r.rowCount };
  });
  kernel.jobs.define<Record<string, never>>('tickets.auto_close', async () => autoCloseIdle(kernel));
}

export const AUTO_CLOSE_OPTIONS = [10, 60, 1440, 7200, 14400] as const;

/** Auto-resolves open/pending tickets idle longer than each tenant's `autoCloseMinutes` setting. */
export async function autoCloseIdle(kernel: Kernel): Promise<{ closed: number }> {
  const r = await kernel.db.pool.query<{ tenant_id: number; id: number }>(
    `UPDATE tickets t SET status = 'closed', closed_at = now(), updated_at = now()
       FROM settings s
      WHERE s.key = 'autoCloseMinutes' AND s.tenant_id = t.tenant_id AND s.value ~ '^[0-9]+$' AND s.value::int > 0
        AND t.status IN ('open','pending') AND t.last_message_at < now() - make_interval(mins => s.value::int)
      RETURNING t.tenant_id, t.id`,
  );
  for (const row of r.rows) {
    await log(kernel.db.pool, row.tenant_id, row.id, null, 'auto_closed');
    await republish(kernel, row.tenant_id, row.id);
  }
  return { closed: r.rowCount ?? 0 };
}

export { TICKET_SELECT, TICKET_JOINS };
