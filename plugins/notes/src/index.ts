import { AppError, definePlugin, escapeLike, principalOf, positiveId, queryDate, sql, z, type SqlQuery } from '@atende/core/sdk';
import { author, contract, notePage, ticketChoice, ticketsQuery, type Note } from './contract.ts';

/**
 * Notes (core.md §3 "Note: text, user, ticket, date"). The kernel already
 * stores an internal note as a message of the ticket with `is_note` (written
 * with `POST /api/messages/:ticketId {isNote: true}`, edited with `PATCH
 * /api/messages/:id`, removed with `DELETE /api/messages/:id`, shown in the
 * chat and never sent to the customer). This plugin adds no second store: it
 * lists and searches those messages across tickets for `/notas`, through the
 * kernel's read-only views (`v_messages`, whose notes the kernel indexes by
 * tenant and id, `v_tickets`, `v_contacts`, `v_users`), and owns no table.
 */

export const notesQuery = z.object({
  search: z.string().max(200).optional(),
  userId: positiveId.optional(),
  ticketId: positiveId.optional(),
  from: queryDate,
  to: queryDate,
  /** Id of the last note of the previous page (newest first). */
  before: z.string().regex(/^\d{1,18}$/).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

interface NoteRow {
  id: string;
  body: string;
  ticket_id: number;
  protocol: string | null;
  ticket_status: string;
  contact_id: number;
  contact_name: string;
  contact_number: string | null;
  user_id: number | null;
  user_name: string | null;
  edited: boolean;
  created_at: Date;
}

const JOINS = sql`FROM v_messages m
  JOIN v_tickets t ON t.tenant_id = m.tenant_id AND t.id = m.ticket_id
  JOIN v_contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
  LEFT JOIN v_users u ON u.tenant_id = m.tenant_id AND u.id = m.user_id`;

export default definePlugin({
  id: 'notes',
  kind: 'feature',
  name: 'Notas',
  description: 'Notas internas dos atendimentos, por atendimento e usuário, com busca.',
  contract,
  // (Its 0001_init of before [K4] indexed the kernel's messages; that index is the kernel's now, see core read migrations.)
  menus: [{ key: 'notes', label: 'menu.notes', route: '/notas', profiles: ['super', 'admin', 'superadmin'], userMenu: 'notes' }],
  ui: true,
  register(ctx) {
    const tags = ['notes'];
    const read = { access: { menu: 'notes' } };

    /**
     * One page of notes, newest first, by keyset on the message id. Who may use
     * the notes menu (supervisors and admins; a demoted supervisor loses it)
     * sees the tenant's notes, as they see all its tickets.
     */
    ctx.http.get(
      '/notes',
      { config: read, schema: { operationId: 'listNotes', tags, summary: 'Notas internas dos atendimentos, mais novas primeiro', querystring: notesQuery, response: { 200: notePage } } },
      async (req) => {
        const q = req.query;
        const { tenantId } = principalOf(req);
        if (q.from && q.to && q.from > q.to) throw new AppError('ERR_INVALID_DATE');
        const where: SqlQuery[] = [sql`m.tenant_id = ${tenantId}`, sql`m.is_note`, sql`m.deleted_at IS NULL`];
        const term = q.search?.trim();
        if (term) {
          const like = `%${escapeLike(term)}%`;
          where.push(sql`(m.body ILIKE ${like} OR c.name ILIKE ${like} OR t.protocol LIKE ${like} OR c.number LIKE ${like})`);
        }
        if (q.userId) where.push(sql`m.user_id = ${q.userId}`);
        if (q.ticketId) where.push(sql`m.ticket_id = ${q.ticketId}`);
        if (q.from) where.push(sql`m.created_at >= ${q.from}`);
        if (q.to) where.push(sql`m.created_at <= ${q.to}`);
        const filter = sql.join(where, sql` AND `);
        const page = q.before ? sql`${filter} AND m.id < ${q.before}::bigint` : filter;
        const [rows, total] = await Promise.all([
          ctx.query<NoteRow>(
            sql`SELECT m.id::text AS id, m.body, m.ticket_id, t.protocol, t.status AS ticket_status, c.id AS contact_id, c.name AS contact_name, c.number AS contact_number,
                       m.user_id, u.name AS user_name, m.edited, m.created_at
                  ${JOINS} WHERE ${page} ORDER BY m.id DESC LIMIT ${q.limit + 1}`,
          ),
          ctx.query<{ n: number }>(sql`SELECT count(*)::int AS n ${JOINS} WHERE ${filter}`),
        ]);
        const hasMore = rows.length > q.limit;
        const notes: Note[] = rows.slice(0, q.limit).map((r) => ({
          id: r.id,
          body: r.body,
          ticketId: r.ticket_id,
          protocol: r.protocol,
          ticketStatus: r.ticket_status,
          contactId: r.contact_id,
          contactName: r.contact_name,
          contactNumber: r.contact_number,
          userId: r.user_id,
          userName: r.user_name,
          edited: r.edited,
          createdAt: new Date(r.created_at).toISOString(),
        }));
        return { notes, count: total[0]?.n ?? 0, hasMore, nextBefore: hasMore ? notes[notes.length - 1]!.id : null };
      },
    );

    /** Authors for the user filter: the tenant's users, names only. */
    ctx.http.get('/users', { config: read, schema: { operationId: 'listNoteAuthors', tags, summary: 'Usuários para o filtro de autor', response: { 200: z.array(author) } } }, async (req) =>
      (await ctx.users.list(principalOf(req).tenantId)).map((u) => ({ id: u.id, name: u.name })),
    );

    /** Tickets to attach a new note to, found by protocol, contact name or number (newest first). */
    ctx.http.get(
      '/tickets',
      { config: read, schema: { operationId: 'findNoteTickets', tags, summary: 'Atendimentos para anexar uma nota, por protocolo, nome ou número', querystring: ticketsQuery, response: { 200: z.array(ticketChoice) } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        const term = req.query.search?.trim();
        const like = term ? `%${escapeLike(term)}%` : null;
        const rows = await ctx.query<{ id: number; protocol: string | null; status: string; contact_name: string; contact_number: string | null }>(
          sql`SELECT t.id, t.protocol, t.status, c.name AS contact_name, c.number AS contact_number
                FROM v_tickets t JOIN v_contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
               WHERE t.tenant_id = ${tenantId}${like ? sql` AND (t.protocol LIKE ${like} OR c.name ILIKE ${like} OR c.number LIKE ${like})` : sql``}
               ORDER BY t.id DESC LIMIT 20`,
        );
        return rows.map((x) => ({ id: x.id, protocol: x.protocol, status: x.status, contactName: x.contact_name, contactNumber: x.contact_number }));
      },
    );
  },
});
