import { AppError, definePlugin, escapeLike, principalOf, queryDate, sql, z, type SqlQuery } from '@atende/core/sdk';
import { STATUSES, agent, contract, protocolPage, protocolParam, protocolTicket, type Protocol } from './contract.ts';

/**
 * Protocols (core.md §3 "Protocol: number, user, ticket, date"). The kernel
 * gives every ticket its protocol when the ticket is created (`YYYYMMDD` + a
 * per-tenant counter, unique per tenant by the `tickets_protocol_key` index),
 * so this plugin owns no table: `/protocolos` lists and searches the tickets'
 * protocols with their agent, contact and date through the kernel's read-only
 * views (`v_tickets`, which the kernel indexes newest first per tenant,
 * `v_contacts`, `v_users`).
 */

export const protocolsQuery = z.object({
  /** Protocol digits (any part), contact name or number. */
  search: z.string().max(120).optional(),
  userId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  status: z.enum(['open', 'pending', 'closed']).optional(),
  from: queryDate,
  to: queryDate,
  /** Ticket id of the last row of the previous page (newest first: ticket ids grow with creation). */
  before: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

interface Row {
  protocol: string;
  id: number;
  status: (typeof STATUSES)[number];
  user_id: number | null;
  user_name: string | null;
  contact_id: number;
  contact_name: string;
  contact_number: string | null;
  created_at: Date;
  closed_at: Date | null;
}

const JOINS = sql`FROM v_tickets t
  JOIN v_contacts c ON c.tenant_id = t.tenant_id AND c.id = t.contact_id
  LEFT JOIN v_users u ON u.tenant_id = t.tenant_id AND u.id = t.user_id`;

export default definePlugin({
  id: 'protocols',
  kind: 'feature',
  name: 'Protocolos',
  description: 'Protocolos dos atendimentos (número único por empresa), por atendimento e usuário, com busca.',
  contract,
  // (Its 0001_init of before [K4] indexed the kernel's tickets; that index is the kernel's now, see core read migrations.)
  menus: [{ key: 'protocols', label: 'menu.protocols', route: '/protocolos', profiles: ['super', 'admin', 'superadmin'], userMenu: 'protocols' }],
  ui: true,
  register(ctx) {
    const tags = ['protocols'];
    const read = { access: { menu: 'protocols' } };

    ctx.http.get(
      '/protocols',
      { config: read, schema: { operationId: 'listProtocols', tags, summary: 'Protocolos dos atendimentos, mais novos primeiro', querystring: protocolsQuery, response: { 200: protocolPage } } },
      async (req) => {
        const q = req.query;
        if (q.from && q.to && q.from > q.to) throw new AppError('ERR_INVALID_DATE');
        const where: SqlQuery[] = [sql`t.tenant_id = ${principalOf(req).tenantId}`, sql`t.protocol IS NOT NULL`];
        const term = q.search?.trim();
        if (term) {
          const digits = term.replace(/\D/g, '');
          const like = `%${escapeLike(term)}%`;
          // A protocol is digits: "2026-11-26 / 000012" still finds 20261126000012.
          const protocolLike = /^[\d\s./-]+$/.test(term) && digits ? `%${digits}%` : like;
          where.push(sql`(t.protocol LIKE ${protocolLike} OR c.name ILIKE ${like} OR c.number LIKE ${protocolLike})`);
        }
        if (q.userId) where.push(sql`t.user_id = ${q.userId}`);
        if (q.status) where.push(sql`t.status = ${q.status}`);
        if (q.from) where.push(sql`t.created_at >= ${q.from}`);
        if (q.to) where.push(sql`t.created_at <= ${q.to}`);
        const filter = sql.join(where, sql` AND `);
        const page = q.before ? sql`${filter} AND t.id < ${q.before}` : filter;
        const [rows, total] = await Promise.all([
          ctx.query<Row>(
            sql`SELECT t.protocol, t.id, t.status, t.user_id, u.name AS user_name, c.id AS contact_id, c.name AS contact_name, c.number AS contact_number, t.created_at, t.closed_at
                  ${JOINS} WHERE ${page} ORDER BY t.id DESC LIMIT ${q.limit + 1}`,
          ),
          ctx.query<{ n: number }>(sql`SELECT count(*)::int AS n ${JOINS} WHERE ${filter}`),
        ]);
        const hasMore = rows.length > q.limit;
        const list: Protocol[] = rows.slice(0, q.limit).map((r) => ({
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
        return { protocols: list, count: total[0]?.n ?? 0, hasMore, nextBefore: hasMore ? list[list.length - 1]!.ticketId : null };
      },
    );

    /** The ticket a protocol names (exact number), for "go to ticket" from a number a customer quotes. */
    ctx.http.get(
      '/protocols/:protocol',
      { config: read, schema: { operationId: 'findProtocolTicket', tags, summary: 'O atendimento de um número de protocolo', params: protocolParam, response: { 200: protocolTicket } } },
      async (req) => {
        const found = await ctx.tickets.byProtocol(principalOf(req).tenantId, req.params.protocol);
        if (!found) throw new AppError('ERR_NO_TICKET_FOUND');
        return { protocol: req.params.protocol, ticketId: found.id };
      },
    );

    /** Agents for the user filter, names only. */
    ctx.http.get('/users', { config: read, schema: { operationId: 'listProtocolAgents', tags, summary: 'Usuários para o filtro de agente', response: { 200: z.array(agent) } } }, async (req) =>
      (await ctx.users.list(principalOf(req).tenantId)).map((u) => ({ id: u.id, name: u.name })),
    );
  },
});
