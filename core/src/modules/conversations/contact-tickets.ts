import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { z } from 'zod';
import { idParam } from './query.ts';
import { instant } from './schemas.ts';
import { type TicketRow, TICKET_SELECT, TICKET_JOINS } from './serialize.ts';
import { canSee, visibilitySettings } from './visibility.ts';

/** How many of a contact's tickets the panel lists (newest first). */
const LIMIT = 50;

const contactTickets = z.object({
  tickets: z.array(z.object({
    id: z.number().int(),
    protocol: z.string().nullable(),
    status: z.string(),
    createdAt: instant,
    closedAt: instant.nullable(),
    lastMessageAt: instant.nullable(),
    queue: z.object({ id: z.number().int(), name: z.string().nullable(), color: z.string().nullable() }).nullable(),
    user: z.object({ id: z.number().int(), name: z.string().nullable() }).nullable(),
    channel: z.string().nullable(),
    lastMessage: z.string().nullable(),
    canOpen: z.boolean(),
  })),
});

/**
 * `GET /contacts/:id/tickets` (U2 "work from the conversation"): every ticket
 * of the contact, for any agent, so whoever talks to a customer knows their
 * history. What the visibility rules keep from the agent is listed as a fact
 * (protocol, dates, status, queue, agent) without its content, and marked
 * `canOpen: false`; the ticket itself stays refused by `GET /tickets/:id`.
 */
export async function contactTicketsRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/contacts/:id/tickets', { config: { access: { menu: 'tickets' } }, schema: { operationId: 'listContactTickets', tags: ['contacts'], summary: 'Atendimentos do contato (os que o usuário não pode abrir, sem conteúdo)', params: idParam, response: { 200: contactTickets } } }, async (req) => {
    const who = req.access!;
    const c = await kernel.db.pool.query('SELECT 1 FROM contacts WHERE tenant_id = $1 AND id = $2', [who.tenantId, req.params.id]);
    if (!c.rowCount) throw new AppError('ERR_NO_CONTACT_FOUND');
    const rows = await kernel.db.pool.query<TicketRow>(
      `SELECT ${TICKET_SELECT} FROM tickets t ${TICKET_JOINS} WHERE t.tenant_id = $1 AND t.contact_id = $2 ORDER BY t.id DESC LIMIT ${LIMIT}`,
      [who.tenantId, req.params.id],
    );
    const s = await visibilitySettings(kernel, who.tenantId);
    return {
      tickets: rows.rows.map((t) => {
        const open = canSee(who, { status: t.status, userId: t.user_id, queueId: t.queue_id, isGroup: t.is_group, chatbot: t.chatbot, contactId: t.contact_id, walletUserIds: t.contact_wallets ?? [] }, s);
        return {
          id: t.id,
          protocol: t.protocol,
          status: t.status,
          createdAt: t.created_at,
          closedAt: t.closed_at,
          lastMessageAt: t.last_message_at,
          queue: t.queue_id ? { id: t.queue_id, name: t.queue_name ?? null, color: t.queue_color ?? null } : null,
          user: t.user_id ? { id: t.user_id, name: t.user_name ?? null } : null,
          channel: t.channel_type ?? null,
          // The conversation's content only to who may open it.
          lastMessage: open ? t.last_message : null,
          canOpen: open,
        };
      }),
    };
  });
}
