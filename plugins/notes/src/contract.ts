/**
 * What the notes plugin's server part and its screen share (core.md §3 "Note:
 * text, user, ticket, date"): a note is the kernel's internal-note message of
 * a ticket, listed here across tickets.
 */
import { defineContract, isoDate, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

export const note = z.object({
  /** The message id (a bigint, as text). */
  id: z.string(),
  body: z.string(),
  ticketId: z.number().int(),
  protocol: z.string().nullable(),
  ticketStatus: z.string(),
  contactId: z.number().int(),
  contactName: z.string(),
  contactNumber: z.string().nullable(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  edited: z.boolean(),
  createdAt: isoDate,
});
export type Note = z.output<typeof note>;

export const notePage = z.object({ notes: z.array(note), count: z.number().int(), hasMore: z.boolean(), nextBefore: z.string().nullable() });
export type NotePage = z.output<typeof notePage>;

export const ticketsQuery = z.object({ search: z.string().max(120).optional() });
/** A ticket a new note can be attached to. */
export const ticketChoice = z.object({ id: z.number().int(), protocol: z.string().nullable(), status: z.string(), contactName: z.string(), contactNumber: z.string().nullable() });
export type TicketChoice = z.output<typeof ticketChoice>;

export const author = z.object({ id: z.number().int(), name: z.string() });

/** The new-note form: a ticket and some text (at most 4000 characters, as the screen takes them). */
export const noteForm = z.object({
  ticketId: z.string().nullable().refine((v) => v !== null && /^\d+$/.test(v), 'O campo atendimento é obrigatório'),
  body: z.string().trim().min(1, 'O campo nota é obrigatório').max(4000),
});
export type NoteFormValues = z.input<typeof noteForm>;

export const contract = defineContract({ id: 'notes' });

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}
