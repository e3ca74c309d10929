import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { lockKey, withTx, type Sql } from '../../db/tx.ts';
import type { AgentToolsPort, BirthdayContact, RatingFilter, ScheduledFilter, ScheduledMessage } from '../../sdk/types.ts';
import { messageOut, ticketOut, type MessageRow } from './serialize.ts';
import { loadTicket } from './ingest.ts';
import { publishTicket } from './events.ts';
import { queueOutbound } from './outbound.ts';
import { nextProtocol } from './protocol.ts';

/**
 * Kernel services behind the agent-tool plugins (schedules, birthdays,
 * ratings): they read and write tickets, contacts and messages, which only
 * the kernel may touch, so the plugins stay on the SDK (`ctx.agentTools`).
 */

/** A scheduled message still waiting: only these may be edited or cancelled. */
const WAITING = `m.status = 'pending' AND NOT (m.data ? 'dispatchedAt')`;

const STATE_SQL = `CASE WHEN m.status = 'failed' THEN 'failed'
                        WHEN m.status IN ('sent','delivered','read') THEN 'sent'
                        WHEN m.data ? 'dispatchedAt' THEN 'sending' ELSE 'scheduled' END`;

interface ScheduledRow extends MessageRow {
  contact_name: string;
  contact_number: string | null;
  user_name: string | null;
  channel_name: string | null;
  state: ScheduledMessage['state'];
  total?: string;
}

const SCHEDULED_SELECT = `SELECT m.*, c.name AS contact_name, c.number AS contact_number, u.name AS user_name, ch.name AS channel_name, ${STATE_SQL} AS state
  FROM messages m
  JOIN contacts c ON c.id = m.contact_id
  LEFT JOIN users u ON u.id = m.user_id
  LEFT JOIN channels ch ON ch.id = m.channel_id`;

function scheduledOut(r: ScheduledRow): ScheduledMessage {
  return {
    id: String(r.id),
    ticketId: r.ticket_id,
    contactId: r.contact_id!,
    contactName: r.contact_name,
    contactNumber: r.contact_number,
    channelId: r.channel_id,
    channelName: r.channel_name,
    userId: r.user_id,
    userName: r.user_name,
    body: r.body,
    mediaName: r.media_name,
    scheduleDate: new Date(r.schedule_date!).toISOString(),
    recurrence: r.recurrence_days,
    repetitions: r.repetitions ?? 1,
    state: r.state,
    failureReason: r.failure_reason,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

async function getScheduled(kernel: Kernel, tenantId: number, id: string): Promise<ScheduledMessage | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const r = await kernel.db.pool.query<ScheduledRow>(`${SCHEDULED_SELECT} WHERE m.tenant_id = $1 AND m.id = $2 AND m.schedule_date IS NOT NULL AND NOT m.is_note`, [tenantId, id]);
  return r.rows[0] ? scheduledOut(r.rows[0]) : undefined;
}

async function listScheduled(kernel: Kernel, tenantId: number, f: ScheduledFilter) {
  const where = ['m.tenant_id = $1', 'm.schedule_date IS NOT NULL', 'NOT m.is_note', 'm.deleted_at IS NULL'];
  const params: unknown[] = [tenantId];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (f.state === 'scheduled') where.push(WAITING);
  else if (f.state === 'sent') where.push(`(m.status IN ('sent','delivered','read') OR (m.status = 'pending' AND m.data ? 'dispatchedAt'))`);
  else if (f.state === 'failed') where.push(`m.status = 'failed'`);
  if (f.from) add('m.schedule_date >= ?', f.from);
  if (f.to) add('m.schedule_date <= ?', f.to);
  if (f.contactId) add('m.contact_id = ?', f.contactId);
  if (f.ticketId) add('m.ticket_id = ?', f.ticketId);
  if (f.search) add('(c.name ILIKE ? OR m.body ILIKE ? OR c.number ILIKE ?)', `%${f.search.replace(/[\\%_]/g, (x) => `\\${x}`)}%`);
  const limit = Math.min(f.limit ?? 50, 200);
  const offset = f.offset ?? 0;
  // Waiting ones first, soonest first; then the history, latest first.
  const r = await kernel.db.pool.query<ScheduledRow>(
    `${SCHEDULED_SELECT.replace('SELECT m.*', 'SELECT m.*, count(*) OVER () AS total')} WHERE ${where.join(' AND ')}
      ORDER BY (m.status = 'pending' AND NOT (m.data ? 'dispatchedAt')) DESC,
               CASE WHEN m.status = 'pending' AND NOT (m.data ? 'dispatchedAt') THEN m.schedule_date END ASC,
               m.schedule_date DESC, m.id DESC
      LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  return { rows: r.rows.map(scheduledOut), count: Number(r.rows[0]?.total ?? 0) };
}

/**
 * The ticket a message to a contact goes into: the active one on that channel,
 * else the latest one, else a new ticket in `status` (a container nobody is
 * attending yet: 'schedule' for scheduled messages, 'closed' for notices).
 * A `schedule` holder is assigned to whoever scheduled (`userId`), so they can
 * open it and see its scheduled list (ticket visibility: everyone sees the
 * tickets assigned to them); at dispatch it becomes a real ticket (scheduled.ts).
 */
async function ticketForContact(sql: Sql, tenantId: number, contactId: number, channelId: number, status: 'schedule' | 'closed', userId: number | null = null): Promise<number> {
  await lockKey(sql, `ticket:${tenantId}:${contactId}:${channelId}`);
  const r = await sql.query<{ id: number }>(
    `SELECT id FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND channel_id = $3
      ORDER BY (status IN ('open','pending')) DESC, last_message_at DESC, id DESC LIMIT 1`,
    [tenantId, contactId, channelId],
  );
  if (r.rows[0]) return r.rows[0].id;
  const protocol = await nextProtocol(sql, tenantId);
  const t = await sql.query<{ id: number }>(
    `INSERT INTO tickets (tenant_id, contact_id, channel_id, user_id, status, protocol, closed_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [tenantId, contactId, channelId, userId, status, protocol, status === 'closed' ? new Date() : null],
  );
  await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, user_id, type, data) VALUES ($1, $2, $3, 'created', $4)`, [tenantId, t.rows[0].id, userId, JSON.stringify({ status, userId })]);
  return t.rows[0].id;
}

/** The channel for a contact: the one asked for, else that of its latest ticket, else the tenant's default. */
async function channelForContact(kernel: Kernel, tenantId: number, contactId: number, channelId?: number | null): Promise<number> {
  const c = await kernel.db.pool.query('SELECT 1 FROM contacts WHERE tenant_id = $1 AND id = $2', [tenantId, contactId]);
  if (!c.rowCount) throw new AppError('ERR_NO_CONTACT_FOUND');
  if (channelId) {
    const ch = await kernel.db.pool.query('SELECT 1 FROM channels WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL', [tenantId, channelId]);
    if (!ch.rowCount) throw new AppError('ERR_NO_WAPP_FOUND');
    return channelId;
  }
  const r = await kernel.db.pool.query<{ id: number }>(
    `SELECT COALESCE(
       (SELECT t.channel_id FROM tickets t JOIN channels ch ON ch.id = t.channel_id AND ch.deleted_at IS NULL
         WHERE t.tenant_id = $1 AND t.contact_id = $2 ORDER BY t.last_message_at DESC LIMIT 1),
       (SELECT id FROM channels WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY is_default DESC, (status = 'connected') DESC, id LIMIT 1)) AS id`,
    [tenantId, contactId],
  );
  if (!r.rows[0]?.id) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return r.rows[0].id;
}

async function afterScheduledChange(kernel: Kernel, m: MessageRow, event: 'message.updated' | 'message.deleted') {
  const t = await loadTicket(kernel, m.tenant_id, m.ticket_id);
  await kernel.bus.publish({ tenantId: m.tenant_id, event, data: { message: messageOut(m), ticket: t ? ticketOut(t) : undefined } });
  // The ticket's scheduled count changes with it.
  if (t) await publishTicket(kernel, t);
}

/** Why a scheduled message cannot change: gone (404) or already out (409). */
async function refuseChange(kernel: Kernel, tenantId: number, id: string): Promise<never> {
  const s = await getScheduled(kernel, tenantId, id);
  throw new AppError(s ? 'ERR_SCHEDULE_NOT_PENDING' : 'ERR_NOT_FOUND');
}

const isFuture = (d: Date) => d.getTime() >= Date.now() - 60_000;

export function agentTools(kernel: Kernel): AgentToolsPort {
  return {
    listScheduled: (tenantId, f) => listScheduled(kernel, tenantId, f),
    getScheduled: (tenantId, id) => getScheduled(kernel, tenantId, id),

    async schedule(actor, input) {
      if (!isFuture(input.scheduleDate)) throw new AppError('ERR_INVALID_DATE');
      const channelId = await channelForContact(kernel, actor.tenantId, input.contactId, input.channelId);
      const ticketId = await withTx(kernel.db.pool, (sql) => ticketForContact(sql, actor.tenantId, input.contactId, channelId, 'schedule', actor.userId));
      const m = await queueOutbound(kernel, {
        tenantId: actor.tenantId,
        ticketId,
        userId: actor.userId,
        body: input.body,
        media: input.media,
        scheduleDate: input.scheduleDate,
        recurrenceDays: input.recurrence || null,
        repetitions: input.recurrence ? (input.repetitions ?? 1) : 1,
      });
      return (await getScheduled(kernel, actor.tenantId, m.id))!;
    },

    async updateScheduled(tenantId, id, patch) {
      if (!/^\d{1,18}$/.test(id)) throw new AppError('ERR_NOT_FOUND');
      if (patch.scheduleDate && !isFuture(patch.scheduleDate)) throw new AppError('ERR_INVALID_DATE');
      const set: string[] = [];
      const vals: unknown[] = [tenantId, id];
      const put = (col: string, v: unknown) => {
        vals.push(v);
        set.push(`${col} = $${vals.length}`);
      };
      if (patch.body !== undefined) put('body', patch.body);
      if (patch.scheduleDate !== undefined) put('schedule_date', patch.scheduleDate);
      if (patch.recurrence !== undefined) put('recurrence_days', patch.recurrence || null);
      if (patch.repetitions !== undefined || patch.recurrence !== undefined) put('repetitions', patch.recurrence === 0 || patch.recurrence === null ? 1 : (patch.repetitions ?? 1));
      set.push('updated_at = now()');
      const r = await kernel.db.pool.query<MessageRow>(
        `UPDATE messages m SET ${set.join(', ')} WHERE m.tenant_id = $1 AND m.id = $2 AND m.schedule_date IS NOT NULL AND NOT m.is_note AND m.deleted_at IS NULL AND ${WAITING} RETURNING *`,
        vals,
      );
      if (!r.rows[0]) return refuseChange(kernel, tenantId, id);
      await afterScheduledChange(kernel, r.rows[0], 'message.updated');
      return (await getScheduled(kernel, tenantId, id))!;
    },

    async cancelScheduled(tenantId, id) {
      if (!/^\d{1,18}$/.test(id)) throw new AppError('ERR_NOT_FOUND');
      // A message that never went out leaves no trace in the conversation: the row goes.
      const r = await kernel.db.pool.query<MessageRow>(
        `DELETE FROM messages m WHERE m.tenant_id = $1 AND m.id = $2 AND m.schedule_date IS NOT NULL AND NOT m.is_note AND ${WAITING} RETURNING *`,
        [tenantId, id],
      );
      if (!r.rows[0]) return refuseChange(kernel, tenantId, id);
      await afterScheduledChange(kernel, r.rows[0], 'message.deleted');
    },

    async sendToContact(tenantId, input) {
      const channelId = await channelForContact(kernel, tenantId, input.contactId, input.channelId);
      const ticketId = await withTx(kernel.db.pool, (sql) => ticketForContact(sql, tenantId, input.contactId, channelId, 'closed'));
      const m = await queueOutbound(kernel, { tenantId, ticketId, userId: input.userId ?? null, body: input.body, media: input.media, data: input.data });
      return { messageId: m.id, ticketId, channelId };
    },

    async birthdays(tenantId, q) {
      const r = await kernel.db.pool.query<BirthdayContact & { birthday: string }>(
        `WITH today AS (SELECT (now() AT TIME ZONE timezone)::date AS d FROM tenants WHERE id = $1),
              c AS (
                SELECT c.id, c.name, c.number, c.email, to_char(c.birthday, 'YYYY-MM-DD') AS birthday, c.birthday AS b,
                       (c.birthday + make_interval(years => (extract(year FROM today.d) - extract(year FROM c.birthday))::int))::date AS this_year,
                       today.d
                  FROM contacts c, today
                 WHERE c.tenant_id = $1 AND c.birthday IS NOT NULL AND NOT c.is_group ${q.contactIds ? 'AND c.id = ANY($3::int[])' : ''}),
              n AS (SELECT *, CASE WHEN this_year < d THEN (b + make_interval(years => (extract(year FROM d) - extract(year FROM b))::int + 1))::date ELSE this_year END AS next FROM c)
         SELECT n.id, n.name, n.number, n.email, n.birthday, to_char(n.next, 'YYYY-MM-DD') AS "nextBirthday", (n.next - n.d) AS "daysUntil",
                (extract(year FROM n.next) - extract(year FROM n.b))::int AS age,
                (SELECT t.channel_id FROM tickets t JOIN channels ch ON ch.id = t.channel_id AND ch.deleted_at IS NULL
                  WHERE t.tenant_id = $1 AND t.contact_id = n.id ORDER BY t.last_message_at DESC LIMIT 1) AS "channelId"
           FROM n WHERE n.next - n.d <= $2 ORDER BY n.next, lower(n.name), n.id LIMIT 1000`,
        q.contactIds ? [tenantId, q.days, q.contactIds] : [tenantId, q.days],
      );
      return r.rows.map((x) => ({ ...x, daysUntil: Number(x.daysUntil) }));
    },

    async tenantClocks() {
      const r = await kernel.db.pool.query<{ id: number; timezone: string }>(`SELECT id, timezone FROM tenants WHERE status = 'active' ORDER BY id`);
      return r.rows.map((x) => ({ tenantId: x.id, timeZone: x.timezone }));
    },

    async birthdayChannels(tenantId) {
      const r = await kernel.db.pool.query<{ id: number; name: string; is_default: boolean; birthday_message: string | null; birthday_hour: number | null; birthday_media: { url: string; name: string; mimetype: string } | null }>(
        `SELECT id, name, is_default, birthday_message, birthday_hour, birthday_media FROM channels WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY is_default DESC, id`,
        [tenantId],
      );
      return r.rows.map((c) => ({ id: c.id, name: c.name, isDefault: c.is_default, message: c.birthday_message, hour: c.birthday_hour, media: c.birthday_media }));
    },

    async ratings(tenantId, f: RatingFilter) {
      const where = ['t.tenant_id = $1', 't.rating IS NOT NULL'];
      const params: unknown[] = [tenantId];
      const add = (sql: string, v: unknown) => {
        params.push(v);
        where.push(sql.replaceAll('?', `$${params.length}`));
      };
      if (f.from) add('r.rated_at >= ?', f.from);
      if (f.to) add('r.rated_at <= ?', f.to);
      if (f.userId) add('t.user_id = ?', f.userId);
      if (f.queueId) add('t.queue_id = ?', f.queueId);
      if (f.score !== undefined) add('t.rating = ?', f.score);
      if (f.search) add('(c.name ILIKE ? OR t.protocol ILIKE ?)', `%${f.search.replace(/[\\%_]/g, (x) => `\\${x}`)}%`);
      // The moment of the rating and how many times it was asked, from the ticket's own history (indexed by ticket).
      const from = `FROM tickets t
        JOIN contacts c ON c.id = t.contact_id
        LEFT JOIN users u ON u.id = t.user_id
        LEFT JOIN queues q ON q.id = t.queue_id
        CROSS JOIN LATERAL (
          SELECT COALESCE(max(l.created_at) FILTER (WHERE l.type = 'rated'), t.closed_at, t.updated_at) AS rated_at,
                 GREATEST(count(*) FILTER (WHERE l.type = 'rating_requested'), 1)::int AS attempts
            FROM ticket_logs l WHERE l.tenant_id = t.tenant_id AND l.ticket_id = t.id AND l.type IN ('rated','rating_requested')) r
        WHERE ${where.join(' AND ')}`;
      const limit = Math.min(f.limit ?? 50, 200);
      const [rows, agg, byUser] = await Promise.all([
        kernel.db.pool.query(
          `SELECT t.id AS "ticketId", t.protocol, t.rating AS value, r.attempts, r.rated_at AS "ratedAt", t.user_id AS "userId", u.name AS "userName",
                  t.queue_id AS "queueId", q.name AS "queueName", c.id AS "contactId", c.name AS "contactName"
             ${from} ORDER BY r.rated_at DESC, t.id DESC LIMIT ${limit} OFFSET ${f.offset ?? 0}`,
          params,
        ),
        kernel.db.pool.query<{ count: number; average: string | null; s0: number; s1: number; s2: number; s3: number; s4: number; s5: number }>(
          `SELECT count(*)::int AS count, round(avg(t.rating)::numeric, 2) AS average,
                  ${[0, 1, 2, 3, 4, 5].map((s) => `count(*) FILTER (WHERE t.rating = ${s})::int AS s${s}`).join(', ')} ${from}`,
          params,
        ),
        kernel.db.pool.query<{ userId: number | null; userName: string | null; count: number; average: string }>(
          `SELECT t.user_id AS "userId", u.name AS "userName", count(*)::int AS count, round(avg(t.rating)::numeric, 2) AS average
             ${from} GROUP BY t.user_id, u.name ORDER BY avg(t.rating) DESC, count(*) DESC LIMIT 100`,
          params,
        ),
      ]);
      const a = agg.rows[0];
      return {
        rows: rows.rows.map((x) => ({ ...x, ratedAt: new Date(x.ratedAt).toISOString() })),
        count: a.count,
        average: a.average === null ? null : Number(a.average),
        distribution: [a.s0, a.s1, a.s2, a.s3, a.s4, a.s5],
        byUser: byUser.rows.map((x) => ({ ...x, average: Number(x.average) })),
      };
    },
  };
}
