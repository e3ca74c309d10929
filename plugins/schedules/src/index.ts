import { AppError, definePlugin, z, type PluginContext } from '@atende/core/sdk';
import type { AtendeEvents } from '@atende/core/contract';
import './contract.js';

/** Recurrence choices of core.md §9: none (0) or every N days. */
export const RECURRENCE_DAYS = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 60] as const;

const recurrence = z
  .number()
  .int()
  .refine((n) => (RECURRENCE_DAYS as readonly number[]).includes(n), 'recorrência inválida: nenhuma ou a cada 5, 10, 15, 20, 25, 30, 35, 40, 45 ou 60 dias')
  .nullable();
const repetitions = z.number().int().min(1, 'repetições: no mínimo 1').max(100, 'repetições: no máximo 100');
const when = z.coerce.date({ error: 'Informe a data e a hora do agendamento' }).refine((d) => !Number.isNaN(d.getTime()), 'Data inválida');
const text = z.string().trim().min(1, 'A mensagem é obrigatória').max(65_536);

/** `POST /messagesSchedule`: a message to a contact at a date and time, optionally recurring (core.md §3, §5). */
export const createBody = z
  .object({
    contactId: z.number().int().positive().max(2_147_483_647),
    channelId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
    body: text,
    scheduleDate: when,
    recurrence: recurrence.optional(),
    repetitions: repetitions.default(1),
  })
  .strict();

export const updateBody = z
  .object({ body: text.optional(), scheduleDate: when.optional(), recurrence: recurrence.optional(), repetitions: repetitions.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nada para alterar');

export const listQuery = z
  .object({
    state: z.enum(['scheduled', 'sent', 'failed']).optional(),
    from: z.coerce.date().optional(),
    to: z.coerce.date().optional(),
    contactId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    ticketId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    search: z.string().trim().max(200).optional(),
    pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

const idParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'id inválido') });

/**
 * Routes of the screen. The kernel stores, dispatches (every 30 s, claimed
 * once across nodes) and repeats scheduled messages; this plugin is the
 * tenant-wide list and editor over `ctx.agentTools`.
 */
function routes(ctx: PluginContext) {
  const access = { config: { access: { menu: 'schedules' } } };
  // Schedule events are published to the whole tenant; each socket gets only those of schedules its user
  // may see (X1-8): the schedules screen's users, and whoever may open the schedule's ticket.
  const mayKnow = async (who: Parameters<PluginContext['visibility']['maySeeTicket']>[0], s: { ticketId?: number | null }) =>
    ctx.visibility.mayUseMenu(who, 'schedules') || (typeof s?.ticketId === 'number' && (await ctx.visibility.maySeeTicket(who, s.ticketId)));
  for (const event of ['schedule.created', 'schedule.updated', 'schedule.deleted']) ctx.realtime.addVisibilityFilter(event, mayKnow);
  const publish = <E extends 'schedule.created' | 'schedule.updated' | 'schedule.deleted'>(tenantId: number, event: E, data: AtendeEvents[E]) =>
    ctx.events.publish(tenantId, event, data, ['tenant']);

  const list = async (req: { principal?: { tenantId: number }; query: unknown }) => {
    const q = req.query as z.infer<typeof listQuery>;
    const { rows, count } = await ctx.agentTools.listScheduled(req.principal!.tenantId, { ...q, offset: (q.pageNumber - 1) * q.limit });
    return { schedules: rows, count, hasMore: q.pageNumber * q.limit < count };
  };
  ctx.api.get('/scheduleMessages', { ...access, schema: { querystring: listQuery } }, list);
  ctx.api.get('/messagesSchedule', { ...access, schema: { querystring: listQuery } }, list);

  ctx.api.get('/messagesSchedule/:id', { ...access, schema: { params: idParam } }, async (req) => {
    const s = await ctx.agentTools.getScheduled(req.principal!.tenantId, (req.params as z.infer<typeof idParam>).id);
    if (!s) throw new AppError('ERR_NOT_FOUND');
    return s;
  });

  ctx.api.post('/messagesSchedule', { ...access, schema: { body: createBody } }, async (req, reply) => {
    const b = req.body as z.infer<typeof createBody>;
    const p = req.principal!;
    const s = await ctx.agentTools.schedule({ tenantId: p.tenantId, userId: p.userId }, { ...b, recurrence: b.recurrence || null, repetitions: b.recurrence ? b.repetitions : 1 });
    await publish(p.tenantId, 'schedule.created', s);
    return reply.status(201).send(s);
  });

  ctx.api.put('/messagesSchedule/:id', { ...access, schema: { params: idParam, body: updateBody } }, async (req) => {
    const s = await ctx.agentTools.updateScheduled(req.principal!.tenantId, (req.params as z.infer<typeof idParam>).id, req.body as z.infer<typeof updateBody>);
    await publish(req.principal!.tenantId, 'schedule.updated', s);
    return s;
  });

  ctx.api.delete('/messagesSchedule/:id', { ...access, schema: { params: idParam } }, async (req, reply) => {
    const { id } = req.params as z.infer<typeof idParam>;
    const before = await ctx.agentTools.getScheduled(req.principal!.tenantId, id);
    await ctx.agentTools.cancelScheduled(req.principal!.tenantId, id);
    // The ticket goes with the event so its visibility filter can tell who may learn of it.
    await publish(req.principal!.tenantId, 'schedule.deleted', { id, ticketId: before?.ticketId ?? null });
    return reply.status(204).send();
  });
}

export default definePlugin({
  id: 'schedules',
  kind: 'feature',
  name: 'Agendamentos',
  description: 'Mensagens agendadas de todos os atendimentos: lista com filtros, criação, edição e cancelamento.',
  menus: [{ key: 'schedules', label: 'menu.schedules', route: '/agendamentos', profiles: ['super', 'admin', 'superadmin'], userMenu: 'schedules' }],
  ui: true,
  register(ctx) {
    routes(ctx);
  },
});
