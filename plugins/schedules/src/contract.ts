/**
 * What the schedules plugin's server part and its screen share: a scheduled
 * message as the routes answer it, what the screen sends (create, edit, list
 * filters) and the plugin's events. The kernel stores and dispatches; its
 * refusals (ERR_INVALID_DATE, ERR_SCHEDULE_NOT_PENDING…) are the kernel's codes.
 */
import { defineContract, isoDate, pageQuery, positiveId, queryDate, z, type EventsOf } from '@atende/core/contract';

/** Recurrence choices of core.md §9: none (0) or every N days. */
export const RECURRENCE_DAYS = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 60] as const;

/** A scheduled message (core.md §3 "Scheduled message"). */
export const scheduledMessage = z.object({
  id: z.string(),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  contactName: z.string(),
  contactNumber: z.string().nullable(),
  channelId: z.number().int().nullable(),
  channelName: z.string().nullable(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  body: z.string(),
  mediaName: z.string().nullable(),
  scheduleDate: isoDate,
  /** Days between occurrences, or null for none. */
  recurrence: z.number().int().nullable(),
  /** Occurrences left, this one included. */
  repetitions: z.number().int(),
  /** scheduled (waiting), sending (due, handed to the send job), sent, failed. */
  state: z.enum(['scheduled', 'sending', 'sent', 'failed']),
  failureReason: z.string().nullable(),
  createdAt: isoDate,
});
export type Schedule = z.output<typeof scheduledMessage>;
export type ScheduleState = Schedule['state'];

const recurrence = z
  .number()
  .int()
  .refine((n) => (RECURRENCE_DAYS as readonly number[]).includes(n), 'recorrência inválida: nenhuma ou a cada 5, 10, 15, 20, 25, 30, 35, 40, 45 ou 60 dias')
  .nullable();
const repetitions = z.number().int().min(1, 'repetições: no mínimo 1').max(100, 'repetições: no máximo 100');
const when = z.coerce.date({ error: 'Informe a data e a hora do agendamento' }).refine((d) => !Number.isNaN(d.getTime()), 'Data inválida');
const text = z.string().trim().min(1, 'A mensagem é obrigatória').max(65_536);
const rowId = z.number().int().positive().max(2_147_483_647);

/** `POST /messagesSchedule`: a message to a contact at a date and time, optionally recurring (core.md §3, §5). */
export const createScheduleInput = z
  .object({
    contactId: rowId,
    channelId: rowId.nullable().optional(),
    body: text,
    scheduleDate: when,
    recurrence: recurrence.optional(),
    repetitions: repetitions.default(1),
  })
  .strict();
export type CreateScheduleInput = z.input<typeof createScheduleInput> & { scheduleDate: string };

/** `PUT /messagesSchedule/:id`: changes a message still waiting. */
export const updateScheduleInput = z
  .object({ body: text.optional(), scheduleDate: when.optional(), recurrence: recurrence.optional(), repetitions: repetitions.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nada para alterar');
export type UpdateScheduleInput = z.input<typeof updateScheduleInput> & { scheduleDate?: string };

/** `GET /scheduleMessages`: by state, period, contact, ticket and text, paged. */
export const schedulesQuery = z
  .object({
    state: z.enum(['scheduled', 'sent', 'failed']).optional(),
    from: queryDate,
    to: queryDate,
    contactId: positiveId.optional(),
    ticketId: positiveId.optional(),
    search: z.string().trim().max(200).optional(),
  })
  .extend(pageQuery.shape)
  .strict();
export type SchedulesQuery = z.input<typeof schedulesQuery>;

export const schedulesPage = z.object({ schedules: z.array(scheduledMessage), count: z.number().int(), hasMore: z.boolean() });
export type SchedulesPage = z.output<typeof schedulesPage>;

/** A scheduled message's id (a message id: a bigint as text). */
export const scheduleIdParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'id inválido') });

export const contract = defineContract({
  id: 'schedules',
  events: {
    'schedule.created': scheduledMessage,
    'schedule.updated': scheduledMessage,
    'schedule.deleted': z.object({ id: z.string(), ticketId: z.number().int().nullable().optional() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
}
