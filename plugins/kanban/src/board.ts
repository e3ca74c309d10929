import { AppError, z, type PluginContext } from '@atende/core/sdk';

/**
 * The board's read side. Cards are the tenant's contacts (not groups): the
 * lane is the contact's `kanban` field in the kernel, the tags view groups the
 * same cards by the contact's tags. Every column is one keyset page over
 * (tenant_id, lane, lower(name), id) — see the `kanban_contacts_lane_idx`
 * migration — so a lane with 100k cards answers its 30th page as fast as its
 * first.
 */

export type View = 'lanes' | 'tags';

export const PAGE_SIZE = 30;
const INT = 2_147_483_647;

export interface CardTicket {
  id: number;
  status: 'open' | 'pending';
  userId: number | null;
  userName: string | null;
  unreadMessages: number;
  lastMessageAt: string;
}

export interface Card {
  id: number;
  name: string;
  number: string | null;
  profilePicUrl: string | null;
  /** The contact's lane when it names one of the tenant's lanes; otherwise null ("Sem lane"). */
  laneId: number | null;
  tags: { id: number; name: string; color: string }[];
  /** The contact's wallet owners. */
  owners: { id: number; name: string }[];
  /** The contact's most recent open or pending ticket, if any (status and agent only: its messages stay behind ticket visibility). */
  ticket: CardTicket | null;
}

export interface Column {
  key: string;
  /** Lane or tag id; 0 is the column of cards without a lane (or without a tag). */
  id: number;
  name: string;
  color: string | null;
  count: number;
  cards: Card[];
  nextCursor: string | null;
}

export const pageQuery = z.object({
  cursor: z.string().max(600).optional(),
  search: z.string().max(120).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
});
export const boardQuery = z.object({
  view: z.enum(['lanes', 'tags']).default('lanes'),
  search: z.string().max(120).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
});
export const columnParam = z.object({ id: z.coerce.number().int().min(0).max(INT) });

const encodeCursor = (k: string, id: number) => Buffer.from(JSON.stringify([k, id])).toString('base64url');
function decodeCursor(cursor: string): [string, number] {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && typeof v[0] === 'string' && Number.isInteger(v[1])) return [v[0], v[1] as number];
  } catch {
    // refused below
  }
  throw new AppError('ERR_VALIDATION', { details: 'cursor inválido' });
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** A WHERE fragment builder with numbered placeholders. */
class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  p(v: unknown): string {
    this.params.push(v);
    return `$${this.params.length}`;
  }
  add(sql: string) {
    this.parts.push(sql);
    return this;
  }
  get sql() {
    return this.parts.join(' AND ');
  }
}

/** Name, e-mail or number contains the term (digits only compare against the stored number). */
function addSearch(w: Where, search: string | undefined) {
  const term = search?.trim();
  if (!term) return;
  const like = w.p(`%${escapeLike(term)}%`);
  const digits = term.replace(/\D/g, '');
  const numeric = /^[\d\s()+.-]+$/.test(term) && digits.length > 0;
  w.add(`(c.name ILIKE ${like} OR c.email ILIKE ${like}${numeric ? ` OR c.number LIKE ${w.p(`%${digits}%`)}` : ''})`);
}

/** Restricts `c` to the cards of one column. */
function addColumn(w: Where, view: View, id: number, laneIds: number[]) {
  if (view === 'lanes') {
    if (id > 0) w.add(`c.kanban = ${w.p(id)}`);
    // A contact whose lane was deleted (or never existed) shows as without lane.
    else w.add(`(c.kanban IS NULL OR NOT (c.kanban = ANY(${w.p(laneIds)}::int[])))`);
  } else {
    const ex = 'FROM contact_tags ct WHERE ct.tenant_id = c.tenant_id AND ct.contact_id = c.id';
    if (id > 0) w.add(`EXISTS (SELECT 1 ${ex} AND ct.tag_id = ${w.p(id)})`);
    else w.add(`NOT EXISTS (SELECT 1 ${ex})`);
  }
}

function baseWhere(tenantId: number): Where {
  const w = new Where();
  w.add(`c.tenant_id = ${w.p(tenantId)}`).add('NOT c.is_group');
  return w;
}

export async function laneIdsOf(ctx: PluginContext, tenantId: number): Promise<number[]> {
  const r = await ctx.sql<{ id: number }>('SELECT id FROM kanban_lanes WHERE tenant_id = $1', [tenantId]);
  return r.rows.map((x) => x.id);
}

/** One page of one column. */
export async function columnPage(
  ctx: PluginContext,
  tenantId: number,
  view: View,
  id: number,
  opts: { cursor?: string; search?: string; limit: number },
  laneIds?: number[],
): Promise<{ cards: Card[]; nextCursor: string | null }> {
  const lanes = laneIds ?? (await laneIdsOf(ctx, tenantId));
  const w = baseWhere(tenantId);
  addColumn(w, view, id, lanes);
  addSearch(w, opts.search);
  if (opts.cursor) {
    const [k, cid] = decodeCursor(opts.cursor);
    w.add(`(lower(c.name), c.id) > (${w.p(k)}, ${w.p(cid)})`);
  }
  const r = await ctx.sql<{ id: number; k: string }>(
    `SELECT c.id, lower(c.name) AS k FROM contacts c WHERE ${w.sql} ORDER BY lower(c.name), c.id LIMIT ${w.p(opts.limit + 1)}`,
    w.params,
  );
  const hasMore = r.rows.length > opts.limit;
  const rows = r.rows.slice(0, opts.limit);
  const last = rows[rows.length - 1];
  return { cards: await cardsByIds(ctx, tenantId, rows.map((x) => x.id), lanes), nextCursor: hasMore && last ? encodeCursor(last.k, last.id) : null };
}

/** Cards per column for the whole board in one statement (the column headers' numbers). */
export async function columnCounts(ctx: PluginContext, tenantId: number, view: View, laneIds: number[], search?: string): Promise<Map<number, number>> {
  const w = baseWhere(tenantId);
  addSearch(w, search);
  const out = new Map<number, number>();
  if (view === 'lanes') {
    const lanes = w.p(laneIds);
    const r = await ctx.sql<{ lane: number; n: number }>(
      `SELECT CASE WHEN c.kanban = ANY(${lanes}::int[]) THEN c.kanban ELSE 0 END AS lane, count(*)::int AS n FROM contacts c WHERE ${w.sql} GROUP BY 1`,
      w.params,
    );
    for (const x of r.rows) out.set(x.lane, x.n);
  } else {
    const r = await ctx.sql<{ tag: number; n: number }>(
      `SELECT COALESCE(ct.tag_id, 0) AS tag, count(*)::int AS n FROM contacts c
         LEFT JOIN contact_tags ct ON ct.tenant_id = c.tenant_id AND ct.contact_id = c.id
        WHERE ${w.sql} GROUP BY 1`,
      w.params,
    );
    for (const x of r.rows) out.set(x.tag, x.n);
  }
  return out;
}

/** Cards for contact ids, in the order given: four queries whatever the page size. */
export async function cardsByIds(ctx: PluginContext, tenantId: number, ids: number[], laneIds: number[]): Promise<Card[]> {
  if (!ids.length) return [];
  const [contacts, tags, owners, tickets] = await Promise.all([
    ctx.sql<{ id: number; name: string; number: string | null; profile_pic_url: string | null; kanban: number | null }>(
      'SELECT id, name, number, profile_pic_url, kanban FROM contacts WHERE tenant_id = $1 AND id = ANY($2::int[])',
      [tenantId, ids],
    ),
    ctx.sql<{ contact_id: number; id: number; name: string; color: string }>(
      `SELECT ct.contact_id, t.id, t.name, t.color FROM contact_tags ct JOIN tags t ON t.tenant_id = ct.tenant_id AND t.id = ct.tag_id
        WHERE ct.tenant_id = $1 AND ct.contact_id = ANY($2::int[]) ORDER BY lower(t.name), t.id`,
      [tenantId, ids],
    ),
    ctx.sql<{ contact_id: number; id: number; name: string }>(
      `SELECT cw.contact_id, u.id, u.name FROM contact_wallets cw JOIN users u ON u.tenant_id = cw.tenant_id AND u.id = cw.user_id
        WHERE cw.tenant_id = $1 AND cw.contact_id = ANY($2::int[]) ORDER BY lower(u.name), u.id`,
      [tenantId, ids],
    ),
    ctx.sql<{ contact_id: number; id: number; status: 'open' | 'pending'; user_id: number | null; user_name: string | null; unread_messages: number; last_message_at: Date }>(
      `SELECT DISTINCT ON (t.contact_id) t.contact_id, t.id, t.status, t.user_id, u.name AS user_name, t.unread_messages, t.last_message_at
         FROM tickets t LEFT JOIN users u ON u.tenant_id = t.tenant_id AND u.id = t.user_id
        WHERE t.tenant_id = $1 AND t.contact_id = ANY($2::int[]) AND t.status IN ('open','pending')
        ORDER BY t.contact_id, t.last_message_at DESC, t.id DESC`,
      [tenantId, ids],
    ),
  ]);
  const group = <T extends { contact_id: number }>(rows: T[]) => {
    const m = new Map<number, T[]>();
    for (const r of rows) (m.get(r.contact_id) ?? m.set(r.contact_id, []).get(r.contact_id)!).push(r);
    return m;
  };
  const tagsOf = group(tags.rows);
  const ownersOf = group(owners.rows);
  const ticketOf = new Map(tickets.rows.map((t) => [t.contact_id, t]));
  const lanes = new Set(laneIds);
  const byId = new Map(contacts.rows.map((c) => [c.id, c]));
  return ids
    .map((id) => byId.get(id))
    .filter((c): c is NonNullable<typeof c> => !!c)
    .map((c) => {
      const t = ticketOf.get(c.id);
      return {
        id: c.id,
        name: c.name,
        number: c.number,
        profilePicUrl: c.profile_pic_url,
        laneId: c.kanban !== null && lanes.has(c.kanban) ? c.kanban : null,
        tags: (tagsOf.get(c.id) ?? []).map(({ id, name, color }) => ({ id, name, color })),
        owners: (ownersOf.get(c.id) ?? []).map(({ id, name }) => ({ id, name })),
        ticket: t
          ? { id: t.id, status: t.status, userId: t.user_id, userName: t.user_name, unreadMessages: t.unread_messages, lastMessageAt: new Date(t.last_message_at).toISOString() }
          : null,
      };
    });
}

export async function cardOf(ctx: PluginContext, tenantId: number, contactId: number): Promise<Card> {
  const [card] = await cardsByIds(ctx, tenantId, [contactId], await laneIdsOf(ctx, tenantId));
  if (!card) throw new AppError('ERR_NO_CONTACT_FOUND');
  return card;
}

/** The whole board: every column with its count and first page. */
export async function board(ctx: PluginContext, tenantId: number, view: View, search: string | undefined, limit: number): Promise<{ view: View; columns: Column[] }> {
  const laneRows = await ctx.sql<{ id: number; name: string; position: number }>('SELECT id, name, position FROM kanban_lanes WHERE tenant_id = $1 ORDER BY position, id', [tenantId]);
  const laneIds = laneRows.rows.map((l) => l.id);
  const heads: Omit<Column, 'count' | 'cards' | 'nextCursor'>[] =
    view === 'lanes'
      ? [{ key: 'lane:0', id: 0, name: '', color: null }, ...laneRows.rows.map((l) => ({ key: `lane:${l.id}`, id: l.id, name: l.name, color: null }))]
      : [
          { key: 'tag:0', id: 0, name: '', color: null },
          ...(await ctx.sql<{ id: number; name: string; color: string }>('SELECT id, name, color FROM tags WHERE tenant_id = $1 AND active ORDER BY lower(name), id', [tenantId])).rows.map((t) => ({
            key: `tag:${t.id}`,
            id: t.id,
            name: t.name,
            color: t.color,
          })),
        ];
  const counts = await columnCounts(ctx, tenantId, view, laneIds, search);
  const pages = await Promise.all(heads.map((h) => columnPage(ctx, tenantId, view, h.id, { search, limit }, laneIds)));
  return { view, columns: heads.map((h, i) => ({ ...h, count: counts.get(h.id) ?? 0, ...pages[i] })) };
}
