import { AppError, definePlugin, queryDate, z } from '@atende/core/sdk';

/**
 * Protocols (core.md §3 "Protocol: number, user, ticket, date"). The kernel
 * gives every ticket its protocol when the ticket is created (`YYYYMMDD` + a
 * per-tenant counter, unique per tenant by the `tickets_protocol_key` index),
 * so this plugin owns no table: `/protocolos` lists and searches the tickets'
 * protocols with their agent, contact and date.
 */

const INT = 2_147_483_647;
const PAGE = 50;

export const protocolsQuery = z.object({
  /** Protocol digits (any part), contact name or number. */
  search: z.string().max(120).optional(),
  userId: z.coerce.number().int().positive().max(INT).optional(),
  status: z.enum(['open', 'pending', 'closed']).optional(),
  from: queryDate,
  to: queryDate,
  /** Ticket id of the last row of the previous page (newest first: ticket ids grow with creation). */
  before: z.coerce.number().int().positive().max(INT).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(PAGE),
});

export interface Protocol {
  protocol: string;
  ticketId: number;
  status: string;
  userId: number | null;
  userName: string | null;
  contactId: number;
  contactName: string;
  contactNumber: string | null;
  createdAt: string;
  closedAt: string | null;
}

interface Row {
  protocol: string;
  id: number;
  status: string;
  user_id: number | null;
  user_name: string | null;
  contact_id: number;
  contact_name: string;
  contact_number: string | null;
  created_at: Date;
  closed_at: Date | null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

export default definePlugin({
  id: 'protocols',
  kind: 'feature',
  name: 'Protocolos',
  description: 'Protocolos dos atendimentos (número único por empresa), por atendimento e usuário, com busca.',
  migrations: [
    {
      name: '0001_init',
      up: [
        // /protocolos pages tickets newest first; read-only use of the kernel's table.
        `CREATE INDEX protocols_tickets_idx ON tickets (tenant_id, id DESC) WHERE protocol IS NOT NULL`,
      ],
    },
  ],
  menus: [{ key: 'protocols', label: 'menu.protocols', route: '/protocolos', profiles: ['super', 'admin', 'superadmin'], userMenu: 'protocols' }],
  ui: true,
  register(ctx) {
    const read = { config: { access: { menu: 'protocols' } } };

    ctx.http.get('/protocols', { ...read, schema: { querystring: protocolsQuery } }, async (req) => {
      const q = req.query as z.infer<typeof protocolsQuery>;
      if (q.from && q.to && q.from > q.to) throw new AppError('ERR_INVALID_DATE');
      const params: unknown[] = [req.principal!.tenantId];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      const where = ['t.tenant_id = $1', 't.protocol IS NOT NULL'];
      const term = q.search?.trim();
      if (term) {
        const digits = term.replace(/\D/g, '');
        const like = p(`%${escapeLike(term)}%`);
        // A protocol is digits: "2026-11-26 / 000012" still finds 20261126000012.
        const protocolLike = /^[\d\s./-]+$/.test(term) && digits ? p(`%${digits}%`) : like;
        where.push(`(t.protocol LIKE ${protocolLike} OR c.name ILIKE ${like} OR c.number LIKE ${protocolLike})`);
      }
      if (q.userId) where.push(`t.user_id = ${p(q.userId)}`);
      if (q.status) where.push(`t.status = ${p(q.status)}`);
      if (q.from) where.push(`t.created_at >= ${p(q.from)}`);
      if (q.to) where.push(`t.created_at <= ${p(q.to)}`);
      const filter = where.join(' AND ');
      const countParams = [...params];
      const page = q.before ? `${filter} AND t.id < ${p(q.before)}` : filter;
      const joins = `FROM tickets t
        JOIN contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
        LEFT JOIN users u ON u.tenant_id = t.tenant_id AND u.id = t.user_id`;
      const [rows, total] = await Promise.all([
        ctx.sql<Row>(
          `SELECT t.protocol, t.id, t.status, t.user_id, u.name AS user_name, c.id AS contact_id, c.name AS contact_name, c.number AS contact_number, t.created_at, t.closed_at
             ${joins} WHERE ${page} ORDER BY t.id DESC LIMIT ${p(q.limit + 1)}`,
          params,
        ),
        ctx.sql<{ n: number }>(`SELECT count(*)::int AS n ${joins} WHERE ${filter}`, countParams),
      ]);
      const hasMore = rows.rows.length > q.limit;
      const list: Protocol[] = rows.rows.slice(0, q.limit).map((r) => ({
        protocol: r.protocol,
        ticketId: r.id,
        status: r.status,
        userId: r.user_id,
        userName: r.user_name,
        contactId: r.contact_id,
        contactName: r.contact_name,
        contactNumber: r.contact_number,
        createdAt: new Date(r.created_at).toISOString(),
        closedAt: r.closed_at ? new Date(r.closed_at).toISOString() : null,
      }));
      return { protocols: list, count: total.rows[0]?.n ?? 0, hasMore, nextBefore: hasMore ? list[list.length - 1]!.ticketId : null };
    });

    /** The ticket a protocol names (exact number), for "go to ticket" from a number a customer quotes. */
    ctx.http.get('/protocols/:protocol', { ...read, schema: { params: z.object({ protocol: z.string().regex(/^\d{1,30}$/, 'protocolo inválido') }) } }, async (req) => {
      const r = await ctx.sql<{ id: number }>('SELECT id FROM tickets WHERE tenant_id = $1 AND protocol = $2', [req.principal!.tenantId, (req.params as { protocol: string }).protocol]);
      if (!r.rows[0]) throw new AppError('ERR_NO_TICKET_FOUND');
      return { protocol: (req.params as { protocol: string }).protocol, ticketId: r.rows[0].id };
    });

    /** Agents for the user filter. */
    ctx.http.get('/users', read, async (req) => {
      const r = await ctx.sql<{ id: number; name: string }>('SELECT id, name FROM users WHERE tenant_id = $1 ORDER BY lower(name), id', [req.principal!.tenantId]);
      return r.rows;
    });
  },
});
