import type { Kernel } from '../../kernel.ts';
import { ticketOut, type TicketRow } from './serialize.ts';

/**
 * Ticket events go to the tenant room; the visibility filter registered for
 * `ticket.*` and `message.*` decides per recipient (spec §4: visibility rules
 * are re-applied on every real-time ticket update). A ticket that a user can
 * no longer see arrives as `ticket.removed` so lists drop it.
 */
export async function publishTicket(kernel: Kernel, t: TicketRow, event: 'ticket.created' | 'ticket.updated' | 'ticket.deleted' = 'ticket.updated') {
  await kernel.bus.publish({ tenantId: t.tenant_id, event, data: { ticket: ticketOut(t) }, rooms: ['tenant'] });
}
