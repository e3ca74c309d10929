import { AppError, escapeLike, sql, type PluginContext, type SqlQuery } from '@atende/core/sdk';
import type { Board, Card, CardTicket, Column, View } from './contract.ts';

/**
 * The board's read side. Cards are the tenant's contacts (not groups), read
 * through the kernel's views (`v_contacts`, `v_contact_tags`, `v_tickets`…);
 * a card's lane is this plugin's `kanban_contact_lanes` row, the tags view
 * groups the same cards by the contact's tags. Every column is one keyset page
 * over (lower(name), id): the planner walks the contacts' name index and
 * checks the lane, or reads the lane's rows and sorts them, whichever the
 * column's size makes cheaper (docs/agent-tools.md "Large lanes").
 */

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

/** Name, e-mail or number contains the term (digits only compare against the stored number). */
function searchOf(search: string | undefined): SqlQuery | undefined {
  const term = search?.trim();
  if (!term) return undefined;
  const like = `%${escapeLike(term)}%`;
  const digits = term.replace(/\D/g, '');
  const numeric = /^[\d\s()+.-]+$/.test(term) && digits.length > 0;
  return numeric
    ? sql`(c.name ILIKE ${like} OR c.email ILIKE ${like} OR c.number LIKE ${`%${digits}%`})`
    : sql`(c.name ILIKE ${like} OR c.email ILIKE ${like})`;
}

/** The cards of one column, as a condition on `c` (a row of v_contacts). */
function columnOf(tenantId: number, view: View, id: number): SqlQuery {
  const lane = sql`SELECT 1 FROM kanban_contact_lanes l WHERE l.tenant_id = ${tenantId} AND l.contact_id = c.id`;
  const tag = sql`SELECT 1 FROM v_contact_tags ct WHERE ct.tenant_id = ${tenantId} AND ct.contact_id = c.id`;
  if (view === 'lanes') return id > 0 ? sql`EXISTS (${lane} AND l.lane_id = ${id})` : sql`NOT EXISTS (${lane})`;
  return id > 0 ? sql`EXISTS (${tag} AND ct.tag_id = ${id})` : sql`NOT EXISTS (${tag})`;
}

const where = (parts: (SqlQuery | undefined)[]) => sql.join(parts.filter((p): p is SqlQuery => !!p), sql` AND `);

export async function laneIdsOf(ctx: PluginContext, tenantId: number): Promise<number[]> {
  const rows = await ctx.query<{ id: number }>(sql`SELECT id FROM kanban_lanes WHERE tenant_id = ${tenantId}`);
  return rows.map((x) => x.id);
}

/** Whether a tag is one of the tenant's (active ones only, when asked). */
export async function tagExists(ctx: PluginContext, tenantId: number, id: number, activeOnly = false): Promise<boolean> {
  const rows = await ctx.query(sql`SELECT 1 FROM v_tags WHERE tenant_id = ${tenantId} AND id = ${id}${activeOnly ? sql` AND active` : sql``}`);
  return rows.length > 0;
}

/** One page of one column. */
export async function columnPage(
  ctx: PluginContext,
  tenantId: number,
  view: View,
  id: number,
  opts: { cursor?: string; search?: string; limit: number },
): Promise<{ cards: Card[]; nextCursor: string | null }> {
  const after = opts.cursor ? decodeCursor(opts.cursor) : undefined;
  const rows = await ctx.query<{ id: number; k: string }>(
    sql`SELECT c.id, lower(c.name) AS k FROM v_contacts c
         WHERE ${where([
           sql`c.tenant_id = ${tenantId}`,
           sql`NOT c.is_group`,
           columnOf(tenantId, view, id),
           searchOf(opts.search),
           after && sql`(lower(c.name), c.id) > (${after[0]}, ${after[1]})`,
         ])}
         ORDER BY lower(c.name), c.id LIMIT ${opts.limit + 1}`,
  );
  const hasMore = rows.length > opts.limit;
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return { cards: await cardsByIds(ctx, tenantId, page.map((x) => x.id)), nextCursor: hasMore && last ? encodeCursor(last.k, last.id) : null };
}

/** Cards per column for the whole board (the column headers' numbers); 0 is the column without lane or tag. */
async function columnCounts(ctx: PluginContext, tenantId: number, view: View, search?: string): Promise<Map<number, number>> {
  const term = searchOf(search);
  const filter = where([sql`c.tenant_id = ${tenantId}`, sql`NOT c.is_group`, term]);
  if (view === 'lanes' && !term) {
    // Without a search a lane's rows are its cards (groups hold none): count them apart from the
    // contacts, side by side, instead of joining every contact of the tenant to its lane.
    const [lanes, [all]] = await Promise.all([
      ctx.query<{ id: number; n: number }>(sql`SELECT lane_id AS id, count(*)::int AS n FROM kanban_contact_lanes WHERE tenant_id = ${tenantId} GROUP BY 1`),
      ctx.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM v_contacts c WHERE ${filter}`),
    ]);
    const out = new Map(lanes.map((x) => [x.id, x.n]));
    out.set(0, all!.n - lanes.reduce((n, x) => n + x.n, 0));
    return out;
  }
  const rows =
    view === 'lanes'
      ? await ctx.query<{ id: number; n: number }>(
          sql`SELECT COALESCE(l.lane_id, 0) AS id, count(*)::int AS n FROM v_contacts c
                LEFT JOIN kanban_contact_lanes l ON l.tenant_id = c.tenant_id AND l.contact_id = c.id
               WHERE ${filter} GROUP BY 1`,
        )
      : await ctx.query<{ id: number; n: number }>(
          sql`SELECT COALESCE(ct.tag_id, 0) AS id, count(*)::int AS n FROM v_contacts c
                LEFT JOIN v_contact_tags ct ON ct.tenant_id = c.tenant_id AND ct.contact_id = c.id
               WHERE ${filter} GROUP BY 1`,
        );
  return new Map(rows.map((x) => [x.id, x.n]));
}

/** Cards for contact ids, in the order given: three queries whatever the page size. */
export async function cardsByIds(ctx: PluginContext, tenantId: number, ids: number[]): Promise<Card[]> {
  if (!ids.length) return [];
  const [contacts, lanes, tickets] = await Promise.all([
    ctx.contacts.list(tenantId, ids),
    ctx.query<{ contact_id: number; lane_id: number }>(sql`SELECT contact_id, lane_id FROM kanban_contact_lanes WHERE tenant_id = ${tenantId} AND contact_id = ANY(${ids}::int[])`),
    ctx.query<{ contact_id: number; id: number; status: CardTicket['status']; user_id: number | null; user_name: string | null; unread_messages: number; last_message_at: Date }>(
      sql`SELECT DISTINCT ON (t.contact_id) t.contact_id, t.id, t.status, t.user_id, u.name AS user_name, t.unread_messages, t.last_message_at
            FROM v_tickets t LEFT JOIN v_users u ON u.tenant_id = t.tenant_id AND u.id = t.user_id
           WHERE t.tenant_id = ${tenantId} AND t.contact_id = ANY(${ids}::int[]) AND t.status IN ('open','pending')
           ORDER BY t.contact_id, t.last_message_at DESC, t.id DESC`,
    ),
  ]);
  const laneOf = new Map(lanes.map((l) => [l.contact_id, l.lane_id]));
  const ticketOf = new Map(tickets.map((t) => [t.contact_id, t]));
  const byId = new Map(contacts.filter((c) => !c.isGroup).map((c) => [c.id, c]));
  return ids
    .map((id) => byId.get(id))
    .filter((c): c is NonNullable<typeof c> => !!c)
    .map((c) => {
      const t = ticketOf.get(c.id);
      return {
        id: c.id,
        name: c.name,
        number: c.number,
        profilePicUrl: c.profilePicUrl,
        laneId: laneOf.get(c.id) ?? null,
        tags: c.tags,
        owners: c.wallets,
        ticket: t
          ? { id: t.id, status: t.status, userId: t.user_id, userName: t.user_name, unreadMessages: t.unread_messages, lastMessageAt: new Date(t.last_message_at).toISOString() }
          : null,
      };
    });
}

export async function cardOf(ctx: PluginContext, tenantId: number, contactId: number): Promise<Card> {
  const [found] = await cardsByIds(ctx, tenantId, [contactId]);
  if (!found) throw new AppError('ERR_NO_CONTACT_FOUND');
  return found;
}

/** The whole board: every column with its count and first page. */
export async function board(ctx: PluginContext, tenantId: number, view: View, search: string | undefined, limit: number): Promise<Board> {
  const heads: Omit<Column, 'count' | 'cards' | 'nextCursor'>[] =
    view === 'lanes'
      ? [
          { key: 'lane:0', id: 0, name: '', color: null },
          ...(await ctx.query<{ id: number; name: string }>(sql`SELECT id, name FROM kanban_lanes WHERE tenant_id = ${tenantId} ORDER BY position, id`)).map((l) => ({
            key: `lane:${l.id}`,
            id: l.id,
            name: l.name,
            color: null,
          })),
        ]
      : [
          { key: 'tag:0', id: 0, name: '', color: null },
          ...(await ctx.query<{ id: number; name: string; color: string }>(sql`SELECT id, name, color FROM v_tags WHERE tenant_id = ${tenantId} AND active ORDER BY lower(name), id`)).map((t) => ({
            key: `tag:${t.id}`,
            id: t.id,
            name: t.name,
            color: t.color,
          })),
        ];
  const [counts, pages] = await Promise.all([columnCounts(ctx, tenantId, view, search), Promise.all(heads.map((h) => columnPage(ctx, tenantId, view, h.id, { search, limit })))]);
  return { view, columns: heads.map((h, i) => ({ ...h, count: counts.get(h.id) ?? 0, ...pages[i]! })) };
}
