import { AppError, definePlugin, pageOffset, principalOf, toPage, z, type PluginContext } from '@atende/core/sdk';
import type { AtendeEvents } from '@atende/core/contract';
import { contract, createScheduleInput, RECURRENCE_DAYS, scheduledMessage, scheduleIdParam, schedulesPage, schedulesQuery, updateScheduleInput } from './contract.ts';

export { RECURRENCE_DAYS };

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

  const tags = ['schedules'];

  // The spec names both paths for the list (core.md §5); one handler answers both.
  for (const [path, operationId] of [['/scheduleMessages', 'listScheduleMessages'], ['/messagesSchedule', 'listMessagesSchedule']] as const) {
    ctx.api.get(path, { ...access, schema: { operationId, tags, summary: 'Lista as mensagens agendadas do tenant', querystring: schedulesQuery, response: { 200: schedulesPage } } }, async (req) => {
      const q = req.query;
      const { rows, count } = await ctx.agentTools.listScheduled(principalOf(req).tenantId, { ...q, offset: pageOffset(q) });
      const page = toPage(rows, count, q);
      return { schedules: page.rows, count: page.count, hasMore: page.hasMore };
    });
  }

  ctx.api.get(
    '/messagesSchedule/:id',
    { ...access, schema: { operationId: 'getMessageSchedule', tags, summary: 'Mostra uma mensagem agendada', params: scheduleIdParam, response: { 200: scheduledMessage } } },
    async (req) => {
      const s = await ctx.agentTools.getScheduled(principalOf(req).tenantId, req.params.id);
      if (!s) throw new AppError('ERR_NOT_FOUND');
      return s;
    },
  );

  ctx.api.post(
    '/messagesSchedule',
    { ...access, schema: { operationId: 'createMessageSchedule', tags, summary: 'Agenda uma mensagem para um contato', body: createScheduleInput, response: { 201: scheduledMessage } } },
    async (req, reply) => {
      const b = req.body;
      const p = principalOf(req);
      const s = await ctx.agentTools.schedule({ tenantId: p.tenantId, userId: p.userId }, { ...b, recurrence: b.recurrence || null, repetitions: b.recurrence ? b.repetitions : 1 });
      await publish(p.tenantId, 'schedule.created', s);
      return reply.status(201).send(s);
    },
  );

  ctx.api.put(
    '/messagesSchedule/:id',
    { ...access, schema: { operationId: 'updateMessageSchedule', tags, summary: 'Altera uma mensagem agendada que ainda não saiu', params: scheduleIdParam, body: updateScheduleInput, response: { 200: scheduledMessage } } },
    async (req) => {
      const { tenantId } = principalOf(req);
      const s = await ctx.agentTools.updateScheduled(tenantId, req.params.id, req.body);
      await publish(tenantId, 'schedule.updated', s);
      return s;
    },
  );

  ctx.api.delete(
    '/messagesSchedule/:id',
    { ...access, schema: { operationId: 'deleteMessageSchedule', tags, summary: 'Cancela uma mensagem agendada que ainda não saiu', params: scheduleIdParam, response: { 204: z.null() } } },
    async (req, reply) => {
      const { tenantId } = principalOf(req);
      const { id } = req.params;
      const before = await ctx.agentTools.getScheduled(tenantId, id);
      await ctx.agentTools.cancelScheduled(tenantId, id);
      // The ticket goes with the event so its visibility filter can tell who may learn of it.
      await publish(tenantId, 'schedule.deleted', { id, ticketId: before?.ticketId ?? null });
      return reply.status(204).send(null);
    },
  );
}

export default definePlugin({
  id: 'schedules',
  kind: 'feature',
  name: 'Agendamentos',
  description: 'Mensagens agendadas de todos os atendimentos: lista com filtros, criação, edição e cancelamento.',
  contract,
  menus: [{ key: 'schedules', label: 'menu.schedules', route: '/agendamentos', profiles: ['super', 'admin', 'superadmin'], userMenu: 'schedules' }],
  ui: true,
  register(ctx) {
    routes(ctx);
  },
});
