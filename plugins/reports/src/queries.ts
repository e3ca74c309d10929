import { AppError, escapeLike, sql, type SqlQuery } from '@atende/core/sdk';
import type { ContactRow, TicketRow, UserStatsRow } from './contract.ts';

/**
 * The reports' SQL, on the kernel's read views only (docs/architecture.md
 * "Reading kernel data"), every query filtered by tenant first. The screen's
 * pages and the Excel export run the same statements, so both show the same rows.
 */

export const ids = (v: string | undefined): number[] => (v ? [...new Set(v.split(',').map(Number))].filter((n) => n > 0 && n <= 2_147_483_647) : []);

/** `[from, to]` calendar days in the tenant's zone, both included. */
function dayRange(col: SqlQuery, tz: string, from?: string, to?: string): SqlQuery[] {
  const out: SqlQuery[] = [];
  if (from) out.push(sql`${col} >= (${from}::date::timestamp AT TIME ZONE ${tz})`);
  if (to) out.push(sql`${col} < ((${to}::date + 1)::timestamp AT TIME ZONE ${tz})`);
  return out;
}

function checkRange(from?: string, to?: string) {
  if (from && to && from > to) throw new AppError('ERR_INVALID_DATE');
}

export interface TicketFilters {
  from?: string;
  to?: string;
  queueIds?: string;
  status?: string;
  userId?: number;
  channelId?: number;
  tagId?: number;
  demand?: string;
}

export interface Listing<R> {
  count: SqlQuery;
  rows(limit: number, offset: number): SqlQuery;
  map(r: Record<string, unknown>): R;
}

/** Tickets by parameters (administration.md §3, §5: dates and queues required). */
export function ticketReport(tenantId: number, tz: string, f: TicketFilters): Listing<TicketRow> {
  const queues = ids(f.queueIds);
  if (!f.from || !f.to || !queues.length) throw new AppError('ERR_REPORT_DATES_QUEUES');
  checkRange(f.from, f.to);
  const where: SqlQuery[] = [sql`t.tenant_id = ${tenantId}`, sql`t.queue_id = ANY(${queues}::int[])`, ...dayRange(sql`t.created_at`, tz, f.from, f.to)];
  if (f.status) where.push(sql`t.status = ${f.status}`);
  if (f.userId) where.push(sql`t.user_id = ${f.userId}`);
  if (f.channelId) where.push(sql`t.channel_id = ${f.channelId}`);
  if (f.demand) where.push(sql`t.demand = ${f.demand}`);
  if (f.tagId) where.push(sql`EXISTS (SELECT 1 FROM v_contact_tags ct WHERE ct.tenant_id = t.tenant_id AND ct.contact_id = t.contact_id AND ct.tag_id = ${f.tagId})`);
  const body = sql`FROM v_tickets t
    JOIN v_contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
    LEFT JOIN v_channels ch ON ch.tenant_id = t.tenant_id AND ch.id = t.channel_id
    LEFT JOIN v_queues q ON q.tenant_id = t.tenant_id AND q.id = t.queue_id
    WHERE ${sql.join(where, sql` AND `)}`;
  return {
    count: sql`SELECT count(*)::int AS n ${body}`,
    rows: (limit, offset) =>
      sql`SELECT t.notes, t.id, t.status, c.name, c.number, ch.name AS connection, t.last_message, t.unread_messages, t.demand,
                 q.name AS queue, ch.type AS channel, t.value::float8 AS value, t.created_at
            ${body} ORDER BY t.id DESC LIMIT ${limit} OFFSET ${offset}`,
    map: (r) => ({
      notes: (r.notes as string | null) ?? null,
      id: r.id as number,
      status: r.status as string,
      name: r.name as string,
      number: (r.number as string | null) ?? null,
      connection: (r.connection as string | null) ?? null,
      lastMessage: (r.last_message as string | null) ?? null,
      unreadMessages: r.unread_messages as number,
      demand: (r.demand as string | null) ?? null,
      queue: (r.queue as string | null) ?? null,
      channel: (r.channel as string | null) ?? null,
      value: (r.value as number | null) ?? null,
      createdAt: new Date(r.created_at as string).toISOString(),
    }),
  };
}

/** Per user: pending, in service (open), resolved (closed) and their total, for tickets created in the range. */
export function userStatsReport(tenantId: number, tz: string, f: { from?: string; to?: string; queueIds?: string }): { rows: SqlQuery; map(r: Record<string, unknown>): UserStatsRow } {
  checkRange(f.from, f.to);
  const queues = ids(f.queueIds);
  const on: SqlQuery[] = [sql`t.tenant_id = u.tenant_id`, sql`t.user_id = u.id`, sql`t.status IN ('pending','open','closed')`, ...dayRange(sql`t.created_at`, tz, f.from, f.to)];
  if (queues.length) on.push(sql`t.queue_id = ANY(${queues}::int[])`);
  return {
    rows: sql`SELECT u.id, u.name, u.email,
                     count(t.id) FILTER (WHERE t.status = 'pending')::int AS pending,
                     count(t.id) FILTER (WHERE t.status = 'open')::int AS open,
                     count(t.id) FILTER (WHERE t.status = 'closed')::int AS closed,
                     count(t.id)::int AS total
                FROM v_users u LEFT JOIN v_tickets t ON ${sql.join(on, sql` AND `)}
               WHERE u.tenant_id = ${tenantId}
               GROUP BY u.id, u.name, u.email ORDER BY lower(u.name), u.id`,
    map: (r) => ({ userId: r.id as number, name: r.name as string, email: r.email as string, pending: r.pending as number, open: r.open as number, closed: r.closed as number, total: r.total as number }),
  };
}

export type ContactReportKind = 'lista-contatos' | 'contatos-por-etiquetas' | 'contatos-por-estado' | 'contatos-por-carteira';

export interface ContactFilters {
  search?: string;
  tagIds?: string;
  walletIds?: string;
  states?: string;
}

const states = (v: string | undefined): string[] => (v ? [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))] : []);

function extraText(v: unknown): string | null {
  if (!Array.isArray(v) || !v.length) return null;
  return v.map((e: { name?: unknown; value?: unknown }) => `${String(e?.name ?? '')}: ${String(e?.value ?? '')}`).join('; ');
}

/** The contact reports: the general list, or those matching at least one selected tag, state or wallet (§5). */
export function contactReport(tenantId: number, kind: ContactReportKind, f: ContactFilters): Listing<ContactRow> {
  const where: SqlQuery[] = [sql`c.tenant_id = ${tenantId}`, sql`NOT c.is_group`];
  const term = f.search?.trim();
  if (term) {
    const like = `%${escapeLike(term)}%`;
    where.push(sql`(c.name ILIKE ${like} OR c.number LIKE ${like} OR c.email ILIKE ${like})`);
  }
  if (kind === 'contatos-por-etiquetas') {
    const tags = ids(f.tagIds);
    if (!tags.length) throw new AppError('ERR_REPORT_SELECTION');
    where.push(sql`EXISTS (SELECT 1 FROM v_contact_tags ct WHERE ct.tenant_id = c.tenant_id AND ct.contact_id = c.id AND ct.tag_id = ANY(${tags}::int[]))`);
  } else if (kind === 'contatos-por-carteira') {
    const wallets = ids(f.walletIds);
    if (!wallets.length) throw new AppError('ERR_REPORT_SELECTION');
    where.push(sql`EXISTS (SELECT 1 FROM v_contact_wallets cw WHERE cw.tenant_id = c.tenant_id AND cw.contact_id = c.id AND cw.user_id = ANY(${wallets}::int[]))`);
  } else if (kind === 'contatos-por-estado') {
    const list = states(f.states);
    if (!list.length) throw new AppError('ERR_REPORT_SELECTION');
    where.push(sql`c.state = ANY(${list}::text[])`);
  }
  const body = sql`FROM v_contacts c WHERE ${sql.join(where, sql` AND `)}`;
  return {
    count: sql`SELECT count(*)::int AS n ${body}`,
    rows: (limit, offset) =>
      sql`SELECT c.id, c.name, c.number, c.email, c.state, c.extra_info,
                 ARRAY(SELECT tg.name FROM v_contact_tags ct JOIN v_tags tg ON tg.tenant_id = ct.tenant_id AND tg.id = ct.tag_id
                        WHERE ct.tenant_id = c.tenant_id AND ct.contact_id = c.id ORDER BY lower(tg.name)) AS tags,
                 ARRAY(SELECT u.name FROM v_contact_wallets cw JOIN v_users u ON u.tenant_id = cw.tenant_id AND u.id = cw.user_id
                        WHERE cw.tenant_id = c.tenant_id AND cw.contact_id = c.id ORDER BY lower(u.name)) AS wallets
            ${body} ORDER BY lower(c.name), c.id LIMIT ${limit} OFFSET ${offset}`,
    map: (r) => ({
      id: r.id as number,
      name: r.name as string,
      number: (r.number as string | null) ?? null,
      email: (r.email as string | null) || null,
      state: (r.state as string | null) || null,
      tags: r.tags as string[],
      wallets: r.wallets as string[],
      extraInfo: extraText(r.extra_info),
    }),
  };
}
