/**
 * What the protocols plugin's server part and its screen share (core.md §3
 * "Protocol: number, user, ticket, date"): a ticket's protocol with its agent,
 * contact and dates.
 */
import { defineContract, isoDate, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

export const STATUSES = ['open', 'pending', 'closed', 'schedule'] as const;

export const protocol = z.object({
  protocol: z.string(),
  ticketId: z.number().int(),
  status: z.enum(STATUSES),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  contactId: z.number().int(),
  contactName: z.string(),
  contactNumber: z.string().nullable(),
  createdAt: isoDate,
  closedAt: isoDate.nullable(),
});
export type Protocol = z.output<typeof protocol>;

export const protocolPage = z.object({ protocols: z.array(protocol), count: z.number().int(), hasMore: z.boolean(), nextBefore: z.number().int().nullable() });
export type ProtocolPage = z.output<typeof protocolPage>;

/** A protocol number as customers quote it: digits only. */
export const protocolParam = z.object({ protocol: z.string().regex(/^\d{1,30}$/, 'protocolo inválido') });
export const protocolTicket = z.object({ protocol: z.string(), ticketId: z.number().int() });

export const agent = z.object({ id: z.number().int(), name: z.string() });

export const contract = defineContract({ id: 'protocols' });

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}
