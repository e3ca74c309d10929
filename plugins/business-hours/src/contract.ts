/**
 * What the business-hours screen and the server share: a weekday's hours, the
 * week with its absence message, and what the screen saves. The routes are
 * still the kernel's (`GET|PUT /tenants/business-hours`, `PUT
 * /tenants/message-business-hours`) and apply the same rules.
 */
import { defineContract, z } from '@atende/core/contract';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'hora inválida (HH:mm)').nullable().optional();

/**
 * One weekday (0 Sunday … 6 Saturday): O open all day, C closed all day, H open
 * between start and end and, optionally, a second range after the first (a
 * lunch break: 08:00–12:00 and 13:00–18:00).
 */
export const dayHours = z
  .object({ day: z.number().int().min(0).max(6), type: z.enum(['O', 'C', 'H']), start: hhmm, end: hhmm, start2: hhmm, end2: hhmm })
  .strict()
  .refine((d) => d.type !== 'H' || (d.start && d.end && d.start < d.end), { message: 'informe início e fim, com o início antes do fim', path: ['start'] })
  .refine((d) => d.type !== 'H' || (!d.start2 && !d.end2) || (d.start2 && d.end2 && d.end && d.end <= d.start2 && d.start2 < d.end2), {
    message: 'o segundo período precisa de início e fim, depois do fim do primeiro',
    path: ['start2'],
  });
export type DayHours = z.output<typeof dayHours>;

/** The week (7 days) as `PUT /tenants/business-hours` takes it. */
export const businessHoursInput = z.object({ businessHours: z.array(dayHours).length(7, 'informe os 7 dias da semana') }).strict();
export type BusinessHoursInput = z.input<typeof businessHoursInput>;

/** The absence message sent outside business hours (blank = none). */
export const absenceInput = z.object({ messageBusinessHours: z.string().max(4096, 'No máximo 4096 caracteres') }).strict();
export type AbsenceInput = z.input<typeof absenceInput>;

/** The tenant's week, absence message, time zone and whether it is attending now. */
export const businessHours = z.object({
  businessHours: z.array(dayHours),
  messageBusinessHours: z.string(),
  timezone: z.string(),
  openNow: z.boolean(),
});
export type BusinessHours = z.output<typeof businessHours>;

export const contract = defineContract({ id: 'business-hours' });
