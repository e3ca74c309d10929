import { createHash } from 'node:crypto';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { ticketOut, type TicketRow, TICKET_SELECT, TICKET_JOINS } from './serialize.ts';
import { withPluginFields } from './ingest.ts';
import { visibilitySettings, visibilitySql } from './visibility.ts';
import { decodeCursor, encodeCursor, type TicketListQuery } from './query.ts';

/** Closed tickets are counted up to this many; beyond it the tab shows "1000+" instead of scanning history. */
export const CLOSED_COUNT_CAP = 1000;

/**
 * `GET /tickets`: the spec's filter set with its defaults (status open and
 * pending; tickets without queue included), the visibility policy, keyset
 * pagination on (last_message_at, id), and per-tab counts. Always two
 * queries whatever the page: the list and the counts.
 */
export async function listTickets(kernel: Kernel, who: ResolvedPrincipal, q: TicketListQuery) {
  const settings = await visibilitySettings(kernel, who.tenantId);
  const limit = q.limit ?? 50;
  const statuses = q.status?.length ? q.status : ['open', 'pending'];
  const params: unknown[] = [who.tenantId];
  const p = (x: unknown) => {
    params.push(x);
    return `$${params.length}`;
  };
  const vis = visibilitySql({ tenantId: who.tenantId, userId: who.userId, profile: who.profile, queues: who.queues, apiToken: who.apiToken }, settings, params, {
    showAll: q.showAll ?? false,
    includeNotQueueDefined: q.includeNotQueueDefined ?? true,
  });
  const filters: string[] = [vis];
  if (q.whatsappIds?.length) filters.push(`t.channel_id = ANY(${p(q.whatsappIds)}::int[])`);
  if (q.selectedUser) filters.push(`t.user_id = ${p(q.selectedUser)}`);
  if (q.isNotAssignedUser) filters.push('t.user_id IS NULL');
  if (q.withUnreadMessages) filters.push('t.unread_messages > 0');
  if (q.searchParam) {
    const term = q.searchParam.toLowerCase();
    const digits = term.replace(/\D/g, '');
    filters.push(
      `(EXISTS (SELECT 1 FROM contacts sc WHERE sc.id = t.contact_id AND (lower(sc.name) LIKE ${p(`%${escapeLike(term)}%`)}${digits.length >= 3 ? ` OR sc.number LIKE ${p(`%${digits}%`)}` : ''})) OR t.protocol = ${p(q.searchParam)})`,
    );
  }
  // Without the queue filter: the page splits it into one index range per queue (below).
  const commonNoQueue = filters.join(' AND ');
  const listParams = [...params];
  const lp = (x: unknown) => {
    listParams.push(x);
    return `$${listParams.length}`;
  };
  const queueFilter = (bind: (x: unknown) => string) =>
    q.queuesIds?.length ? `(t.queue_id = ANY(${bind(q.queuesIds)}::int[])${q.includeNotQueueDefined === false ? '' : ' OR t.queue_id IS NULL'})` : undefined;
  const countQueue = queueFilter(p);
  const common = countQueue ? `${commonNoQueue} AND ${countQueue}` : commonNoQueue;
  // Pendentes alone lists the longest wait first (customers waiting for an agent); every other tab the latest message first.
  const byWait = statuses.length === 1 && statuses[0] === 'pending';
  const sortCol = byWait ? 'waiting_since' : 'last_message_at';
  const dir = byWait ? 'ASC' : 'DESC';
  let keyset = '';
  let offset = '';
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    if (!c) throw new AppError('ERR_VALIDATION', { details: 'cursor inválido' });
    keyset = ` AND (t.${sortCol}, t.id) ${byWait ? '>' : '<'} (${lp(c.at)}, ${lp(c.id)})`;
  } else if (q.pageNumber && q.pageNumber > 1) {
    offset = ` OFFSET ${(q.pageNumber - 1) * limit}`;
  }
  // Each status is its own index range: page it separately (an index scan that stops after
  // limit+1 rows), merge, then join names only for the rows of the page.
  // A queue filter of a few queues becomes one range per (status, queue) on tickets_queue_idx:
  // filtering the status range instead reads every ticket of the other queues first.
  const perQueue = q.queuesIds?.length && q.queuesIds.length <= 10
    ? [...q.queuesIds.map((id) => `t.queue_id = ${lp(id)}`), ...(q.includeNotQueueDefined === false ? [] : ['t.queue_id IS NULL'])]
    : undefined;
  const listQueue = perQueue ? undefined : queueFilter(lp);
  const ranges = statuses.flatMap((st) => (perQueue ?? [listQueue]).map((qf) => ({ st, qf })));
  const branches = ranges.map(
    ({ st, qf }) => `(SELECT t.id, t.${sortCol} AS sort_at FROM tickets t WHERE t.tenant_id = $1 AND t.status = ${lp(st)} AND ${qf ? `${qf} AND ` : ''}${commonNoQueue}${keyset}
      ORDER BY t.${sortCol} ${dir}, t.id ${dir} LIMIT ${limit + 1 + (offset ? (q.pageNumber! - 1) * limit : 0)})`,
  );
  const listSql = `WITH page AS (SELECT * FROM (${branches.join(' UNION ALL ')}) u ORDER BY sort_at ${dir}, id ${dir} LIMIT ${limit + 1}${offset})
    SELECT ${TICKET_SELECT} FROM page p JOIN tickets t ON t.id = p.id ${TICKET_JOINS}
    ORDER BY p.sort_at ${dir}, t.id ${dir}`;
  const countSql = `SELECT
      count(*) FILTER (WHERE t.status = 'open')::int AS open,
      count(*) FILTER (WHERE t.status = 'pending')::int AS pending,
      count(*) FILTER (WHERE t.status = 'open' AND t.unread_messages > 0)::int AS open_unread,
      count(*) FILTER (WHERE t.status = 'pending' AND t.unread_messages > 0)::int AS pending_unread,
      (SELECT count(*)::int FROM (SELECT 1 FROM tickets t WHERE t.tenant_id = $1 AND t.status = 'closed' AND ${common} LIMIT ${CLOSED_COUNT_CAP + 1}) x) AS closed
    FROM tickets t WHERE t.tenant_id = $1 AND t.status IN ('open','pending') AND ${common}`;
  // Named statements: each filter combination is one SQL shape, planned once per connection
  // instead of on every request (planning these joins and unions costs more than running them).
  const [list, counts] = await Promise.all([
    // (Offset pages inline their offset, so they stay unnamed: names must not grow without bound.)
    kernel.db.pool.query<TicketRow>({ name: offset ? undefined : statementName('tl', listSql), text: listSql, values: listParams }),
    kernel.db.pool.query({ name: statementName('tc', countSql), text: countSql, values: params }),
  ]);
  const rows = list.rows.slice(0, limit);
  const hasMore = list.rows.length > limit;
  const last = rows[rows.length - 1];
  const c = counts.rows[0];
  const countFor = statuses.reduce((n, s) => n + (s === 'open' ? c.open : s === 'pending' ? c.pending : s === 'closed' ? Math.min(c.closed, CLOSED_COUNT_CAP) : 0), 0);
  return {
    tickets: (await withPluginFields(kernel, rows)).map(ticketOut),
    count: countFor,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(byWait ? (last.waiting_since ?? last.created_at) : last.last_message_at, last.id) : null,
    counts: { open: c.open, pending: c.pending, closed: Math.min(c.closed, CLOSED_COUNT_CAP), closedCapped: c.closed > CLOSED_COUNT_CAP },
    unread: { open: c.open_unread, pending: c.pending_unread },
  };
}

function statementName(prefix: string, sql: string): string {
  return `${prefix}_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
