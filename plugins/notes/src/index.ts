import { AppError, definePlugin, queryDate, z } from '@atende/core/sdk';

/**
 * Notes (core.md §3 "Note: text, user, ticket, date"). The kernel already
 * stores an internal note as a message of the ticket with `is_note` (written
 * with `POST /api/messages/:ticketId {isNote: true}`, edited with `PATCH
 * /api/messages/:id`, removed with `DELETE /api/messages/:id`, shown in the
 * chat and never sent to the customer). This plugin adds no second store: it
 * lists and searches those messages across tickets for `/notas`.
 */

const INT = 2_147_483_647;
const PAGE = 50;

export const notesQuery = z.object({
  search: z.string().max(200).optional(),
  userId: z.coerce.number().int().positive().max(INT).optional(),
  ticketId: z.coerce.number().int().positive().max(INT).optional(),
  from: queryDate,
  to: queryDate,
  /** Id of the last note of the previous page (newest first). */
  before: z.string().regex(/^\d{1,18}$/).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(PAGE),
});

export interface Note {
  id: string;
  body: string;
  ticketId: number;
  protocol: string | null;
  ticketStatus: string;
  contactId: number;
  contactName: string;
  contactNumber: string | null;
  userId: number | null;
  userName: string | null;
  edited: boolean;
  createdAt: string;
}

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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

export default definePlugin({
  id: 'notes',
  kind: 'feature',
  name: 'Notas',
  description: 'Notas internas dos atendimentos, por atendimento e usuário, com busca.',
  migrations: [
    {
      name: '0001_init',
      up: [
        // Notes are the kernel's note messages: this index lets /notas page them newest first
        // without walking every message of the tenant. Read-only use of the kernel table.
        `CREATE INDEX notes_messages_idx ON messages (tenant_id, id DESC) WHERE is_note AND deleted_at IS NULL`,
      ],
    },
  ],
  menus: [{ key: 'notes', label: 'menu.notes', route: '/notas', profiles: ['super', 'admin', 'superadmin'], userMenu: 'notes' }],
  ui: true,
  register(ctx) {
    const read = { config: { access: { menu: 'notes' } } };

    /**
     * One page of notes, newest first, by keyset on the message id. Who may use
     * the notes menu (supervisors and admins; a demoted supervisor loses it)
     * sees the tenant's notes, as they see all its tickets.
     */
    ctx.http.get('/notes', { ...read, schema: { querystring: notesQuery } }, async (req) => {
      const q = req.query as z.infer<typeof notesQuery>;
      const tenantId = req.principal!.tenantId;
      const params: unknown[] = [tenantId];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      const where = ['m.tenant_id = $1', 'm.is_note', 'm.deleted_at IS NULL'];
      const term = q.search?.trim();
      if (term) {
        const like = p(`%${escapeLike(term)}%`);
        where.push(`(m.body ILIKE ${like} OR c.name ILIKE ${like} OR t.protocol LIKE ${like} OR c.number LIKE ${like})`);
      }
      if (q.userId) where.push(`m.user_id = ${p(q.userId)}`);
      if (q.ticketId) where.push(`m.ticket_id = ${p(q.ticketId)}`);
      if (q.from) where.push(`m.created_at >= ${p(q.from)}`);
      if (q.to) where.push(`m.created_at <= ${p(q.to)}`);
      if (q.from && q.to && q.from > q.to) throw new AppError('ERR_INVALID_DATE');
      const filter = where.join(' AND ');
      const joins = `FROM messages m
        JOIN tickets t ON t.tenant_id = m.tenant_id AND t.id = m.ticket_id
        JOIN contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
        LEFT JOIN users u ON u.tenant_id = m.tenant_id AND u.id = m.user_id`;
      const countParams = [...params];
      const page = q.before ? `${filter} AND m.id < ${p(q.before)}` : filter;
      const [rows, total] = await Promise.all([
        ctx.sql<NoteRow>(
          `SELECT m.id::text AS id, m.body, m.ticket_id, t.protocol, t.status AS ticket_status, c.id AS contact_id, c.name AS contact_name, c.number AS contact_number,
                  m.user_id, u.name AS user_name, m.edited, m.created_at
             ${joins} WHERE ${page} ORDER BY m.id DESC LIMIT ${p(q.limit + 1)}`,
          params,
        ),
        ctx.sql<{ n: number }>(`SELECT count(*)::int AS n ${joins} WHERE ${filter}`, countParams),
      ]);
      const hasMore = rows.rows.length > q.limit;
      const notes: Note[] = rows.rows.slice(0, q.limit).map((r) => ({
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
      return { notes, count: total.rows[0]?.n ?? 0, hasMore, nextBefore: hasMore ? notes[notes.length - 1]!.id : null };
    });

    /** Authors for the user filter: the tenant's users. */
    ctx.http.get('/users', read, async (req) => {
      const r = await ctx.sql<{ id: number; name: string }>('SELECT id, name FROM users WHERE tenant_id = $1 ORDER BY lower(name), id', [req.principal!.tenantId]);
      return r.rows;
    });

    /** Tickets to attach a new note to, found by protocol, contact name or number (newest first). */
    ctx.http.get('/tickets', { ...read, schema: { querystring: z.object({ search: z.string().max(120).optional() }) } }, async (req) => {
      const term = (req.query as { search?: string }).search?.trim();
      const params: unknown[] = [req.principal!.tenantId];
      let where = 't.tenant_id = $1';
      if (term) {
        params.push(`%${escapeLike(term)}%`);
        where += ` AND (t.protocol LIKE $2 OR c.name ILIKE $2 OR c.number LIKE $2)`;
      }
      const r = await ctx.sql<{ id: number; protocol: string | null; status: string; contact_name: string; contact_number: string | null }>(
        `SELECT t.id, t.protocol, t.status, c.name AS contact_name, c.number AS contact_number
           FROM tickets t JOIN contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
          WHERE ${where} ORDER BY t.id DESC LIMIT 20`,
        params,
      );
      return r.rows.map((x) => ({ id: x.id, protocol: x.protocol, status: x.status, contactName: x.contact_name, contactNumber: x.contact_number }));
    });
  },
});
