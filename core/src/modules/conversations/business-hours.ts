import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { queueOutbound } from './outbound.ts';
import { principalOf } from '../../sdk/http.ts';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'hora inválida (HH:mm)').nullable().optional();

/**
 * Per weekday (0 Sunday … 6 Saturday): O open all day, C closed all day, H open
 * between start and end (spec §4) and, optionally, a second range after the
 * first (a lunch break: 08:00–12:00 and 13:00–18:00).
 */
export const dayHours = z
  .object({ day: z.number().int().min(0).max(6), type: z.enum(['O', 'C', 'H']), start: hhmm, end: hhmm, start2: hhmm, end2: hhmm })
  .strict()
  .refine((d) => d.type !== 'H' || (d.start && d.end && d.start < d.end), 'informe início e fim, com o início antes do fim')
  .refine((d) => d.type !== 'H' || (!d.start2 && !d.end2) || (d.start2 && d.end2 && d.end! <= d.start2 && d.start2 < d.end2), 'o segundo período precisa de início e fim, depois do fim do primeiro');

export type DayHours = z.infer<typeof dayHours>;

/** A day as answered: what `dayHours` stored (the ranges absent or null outside type H). */
const dayHoursOut = z.object({ day: z.number().int(), type: z.enum(['O', 'C', 'H']), start: z.string().nullable().optional(), end: z.string().nullable().optional(), start2: z.string().nullable().optional(), end2: z.string().nullable().optional() });

/** The tenant's hours, absence message and whether it is attending now. */
export const businessHoursAnswer = z.object({ businessHours: z.array(dayHoursOut), messageBusinessHours: z.string(), timezone: z.string(), openNow: z.boolean() });

/** The tenant's rating request settings (`rating_config` over the defaults). */
export const ratingAnswer = z.object({ enabled: z.boolean(), maxAttempts: z.number().int(), message: z.string().nullable() });

export const DEFAULT_HOURS: DayHours[] = [0, 1, 2, 3, 4, 5, 6].map((day) => (day === 0 || day === 6 ? { day, type: 'C' as const } : { day, type: 'H' as const, start: '08:00', end: '18:00' }));

/** Whether the tenant is attending at `now`, read in the tenant's own time zone. */
export function isOpenAt(hours: DayHours[], now: Date, timeZone: string): boolean {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  const hm = `${get('hour').replace('24', '00')}:${get('minute')}`;
  const d = hours.find((h) => h.day === day);
  if (!d || d.type === 'O') return true;
  if (d.type === 'C') return false;
  return (hm >= d.start! && hm < d.end!) || (!!d.start2 && !!d.end2 && hm >= d.start2 && hm < d.end2);
}

interface TenantHoursRow {
  business_hours: DayHours[];
  message_business_hours: string | null;
  timezone: string;
}

/**
 * After an inbound customer message: outside business hours, on a ticket
 * nobody has taken (automatic service has ended), send the absence message —
 * at most `maxAbsenceMessageRetries` times per ticket.
 */
export function installAbsenceMessage(kernel: Kernel) {
  // Most tenants have no absence message: remember that for a few seconds instead of asking per message.
  const configured = new Map<number, { at: number; yes: boolean }>();
  const hasAbsence = async (tenantId: number) => {
    const hit = configured.get(tenantId);
    if (hit && Date.now() - hit.at < 5000) return hit.yes;
    const r = await kernel.db.pool.query('SELECT message_business_hours IS NOT NULL AS yes FROM tenants WHERE id = $1', [tenantId]);
    const yes = !!r.rows[0]?.yes;
    configured.set(tenantId, { at: Date.now(), yes });
    return yes;
  };
  kernel.hooks.afterInbound.add(async (e) => {
    if (e.fromMe || e.ratingClosed || !(await hasAbsence(e.tenantId))) return;
    const r = await kernel.db.pool.query<TenantHoursRow & { user_id: number | null; chatbot: boolean; absence_sent: number; status: string; retries: string | null}>(
      `SELECT tn.business_hours, tn.message_business_hours, tn.timezone, t.user_id, t.chatbot, t.absence_sent, t.status,
              (SELECT value FROM settings s WHERE s.tenant_id = tn.id AND s.key = 'maxAbsenceMessageRetries') AS retries
         FROM tenants tn JOIN tickets t ON t.tenant_id = tn.id AND t.id = $2 WHERE tn.id = $1`,
      [e.tenantId, e.ticketId],
    );
    const row = r.rows[0];
    if (!row?.message_business_hours || row.user_id !== null || row.chatbot || row.status === 'closed') return;
    const hours = row.business_hours.length ? row.business_hours : DEFAULT_HOURS;
    if (isOpenAt(hours, new Date(), row.timezone)) return;
    const max = Number(row.retries ?? 3);
    const claimed = await kernel.db.pool.query('UPDATE tickets SET absence_sent = absence_sent + 1 WHERE tenant_id = $1 AND id = $2 AND absence_sent < $3 RETURNING absence_sent', [e.tenantId, e.ticketId, Number.isFinite(max) ? max : 3]);
    if (!claimed.rowCount) return;
    // queueOutbound fills the template variables like for any other sender.
    await queueOutbound(kernel, { tenantId: e.tenantId, ticketId: e.ticketId, userId: null, body: row.message_business_hours, data: { absence: true } });
  });
}

export async function businessHoursRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { config: { access: { menu: 'tickets' } } };
  const write = { config: { access: { menu: 'businessHours' } } };
  const current = async (tenantId: number) => {
    const row = (await kernel.db.pool.query<TenantHoursRow>('SELECT business_hours, message_business_hours, timezone FROM tenants WHERE id = $1', [tenantId])).rows[0];
    const hours = row.business_hours.length ? row.business_hours : DEFAULT_HOURS;
    return { businessHours: hours, messageBusinessHours: row.message_business_hours ?? '', timezone: row.timezone, openNow: isOpenAt(hours, new Date(), row.timezone) };
  };
  const tags = ['business-hours'];
  r.get(
    '/api/tenants/business-hours',
    { ...read, schema: { operationId: 'getBusinessHours', tags, summary: 'Horário de atendimento da empresa', response: { 200: businessHoursAnswer } } },
    async (req) => current(principalOf(req).tenantId),
  );
  r.put(
    '/api/tenants/business-hours',
    {
      ...write,
      schema: {
        operationId: 'updateBusinessHours',
        tags,
        summary: 'Altera o horário de atendimento',
        body: z.union([z.array(dayHours), z.object({ businessHours: z.array(dayHours) }).strict()]),
        response: { 200: businessHoursAnswer },
      },
    },
    async (req) => {
      const { tenantId } = principalOf(req);
      const list = Array.isArray(req.body) ? req.body : req.body.businessHours;
      const days = new Set(list.map((d) => d.day));
      if (list.length !== 7 || days.size !== 7) throw new AppError('ERR_VALIDATION', { details: 'informe os 7 dias da semana, de 0 (domingo) a 6 (sábado)' });
      await kernel.db.pool.query('UPDATE tenants SET business_hours = $2, updated_at = now() WHERE id = $1', [tenantId, JSON.stringify([...list].sort((a, b) => a.day - b.day))]);
      const out = await current(tenantId);
      await kernel.bus.publish({ tenantId, event: 'tenant.business_hours_updated', data: out });
      return out;
    },
  );
  r.put(
    '/api/tenants/message-business-hours',
    { ...write, schema: { operationId: 'updateAbsenceMessage', tags, summary: 'Altera a mensagem de fora do horário', body: z.object({ messageBusinessHours: z.string().max(4096) }).strict(), response: { 200: businessHoursAnswer } } },
    async (req) => {
      const { tenantId } = principalOf(req);
      await kernel.db.pool.query('UPDATE tenants SET message_business_hours = $2, updated_at = now() WHERE id = $1', [tenantId, req.body.messageBusinessHours.trim() || null]);
      return current(tenantId);
    },
  );

  // A blank or null message goes back to the default request with the scale (rating.ts).
  const ratingConfig = z.object({ message: z.string().trim().max(1024).nullable().optional().transform((v) => (v === '' ? null : v)), maxAttempts: z.number().int().min(1).max(10).optional(), enabled: z.boolean().optional() }).strict();
  const ratingTags = ['rating'];
  r.get('/api/tenants/rating', { ...read, schema: { operationId: 'getRatingSettings', tags: ratingTags, summary: 'Configuração da avaliação de atendimento', response: { 200: ratingAnswer } } }, async (req) => {
    const row = (await kernel.db.pool.query<{ rating_config: Record<string, unknown> }>('SELECT rating_config FROM tenants WHERE id = $1', [principalOf(req).tenantId])).rows[0];
    return { enabled: true, maxAttempts: 1, message: null, ...row.rating_config };
  });
  r.put('/api/tenants/rating', { config: { access: { menu: 'evaluations' } }, schema: { operationId: 'updateRatingSettings', tags: ratingTags, summary: 'Altera a avaliação de atendimento', body: ratingConfig, response: { 200: ratingAnswer } } }, async (req) => {
    const r2 = await kernel.db.pool.query<{ rating_config: Record<string, unknown> }>('UPDATE tenants SET rating_config = rating_config || $2::jsonb, updated_at = now() WHERE id = $1 RETURNING rating_config', [principalOf(req).tenantId, JSON.stringify(req.body)]);
    return { enabled: true, maxAttempts: 1, message: null, ...r2.rows[0].rating_config };
  });
}
