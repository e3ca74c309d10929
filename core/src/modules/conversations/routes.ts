import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import fs from 'node:fs';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { INLINE_MEDIA, MAX_MEDIA_BYTES, decodePath } from '../../storage/local.ts';
import { INTEGRATION_FIELDS, messageOut } from './serialize.ts';
import { idParam, ticketIdParam, ticketListQuery, listParam } from './query.ts';
import { listTickets } from './list.ts';
import { assertMayReceive, clearAssignment, createTicket, forceClose, transferToChatbot, updateTicket, visibleTicket, autoCloseIdle, AUTO_CLOSE_OPTIONS } from './tickets.ts';
import { contactMessages, deleteMessage, editMessage, forwardMessages, listMessages, reactToMessage, retryMessage, searchMessages, sendMessage, FORWARD_MAX, type SendInput } from './messages.ts';
import { defineSendJob } from './outbound.ts';
import { defineTicketJobs } from './tickets.ts';
import { defineScheduledDispatch } from './scheduled.ts';
import { canSee, factsOf, invalidateVisibility, visibilitySettings } from './visibility.ts';
import { ticketOut } from './serialize.ts';
import { bulkFailures, messagePage, messageSchema, ticketLog, ticketPage, ticketSchema } from './schemas.ts';
import { principalOf } from '../../sdk/http.ts';
import { loadTicket, loadTickets } from './ingest.ts';
import { channelRoutes } from './channel-routes.ts';
import { presenceRoutes } from './presence.ts';
import { contactTicketsRoutes } from './contact-tickets.ts';
import { businessHoursRoutes, installAbsenceMessage } from './business-hours.ts';
import { installRatingAttempts } from './rating.ts';

const tickets = { config: { access: { menu: 'tickets' } } };
const tags = ['tickets'];
const mtags = ['messages'];
const RECURRENCE_DAYS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 60];

const integrationBody = Object.fromEntries(INTEGRATION_FIELDS.map((f) => [f, z.boolean().optional()])) as Record<(typeof INTEGRATION_FIELDS)[number], z.ZodOptional<z.ZodBoolean>>;

const ticketUpdateBody = z
  .object({
    status: z.enum(['open', 'pending', 'closed']).optional(),
    userId: z.number().int().positive().nullable().optional(),
    queueId: z.number().int().positive().nullable().optional(),
    unreadMessages: z.number().int().min(0).max(1_000_000).optional(),
    sendFarewell: z.boolean().optional(),
    isFarewellMessage: z.boolean().optional(),
    farewellMessage: z.string().max(4096).optional(),
    sendRating: z.boolean().optional(),
    demand: z.string().trim().max(200).nullable().optional(),
    value: z.number().min(0).max(1e12).nullable().optional(),
    notes: z.string().max(10_000).nullable().optional(),
    chatFlowId: z.number().int().positive().nullable().optional(),
    transferNote: z.string().trim().max(1000, 'observação com até 1000 caracteres').optional(),
    ...integrationBody,
  })
  .strict();

/**
 * A provider message template (WhatsApp Cloud API): name and language as the
 * provider lists them, and one value per placeholder of each component. The
 * adapter checks them against the templates it synced before anything is stored.
 */
const templateBody = z
  .object({
    name: z.string().trim().min(1).max(512).regex(/^[a-z0-9_]+$/, 'nome de modelo inválido: letras minúsculas, números e _'),
    language: z.string().trim().min(2).max(15).regex(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/, 'idioma do modelo inválido (ex.: pt_BR)'),
    components: z
      .array(
        z
          .object({
            type: z.enum(['header', 'body', 'button']),
            index: z.number().int().min(0).max(9).optional(),
            subType: z.enum(['url', 'quick_reply', 'copy_code']).optional(),
            parameters: z.array(z.string().max(1024, 'cada variável do modelo aceita até 1024 caracteres').regex(/^[^\u0000]*$/, 'caractere inválido')).max(100),
          })
          .strict(),
      )
      .max(12)
      .optional(),
  })
  .strict();

const sendBody = z
  .object({
    body: z.string().max(65_536).default(''),
    quotedMsgId: z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive()]).transform(String).optional(),
    isNote: z.boolean().optional(),
    signMessage: z.boolean().optional(),
    scheduleDate: z.coerce.date().optional(),
    recurrence: z.union([z.literal(0), z.number().int().refine((n) => RECURRENCE_DAYS.includes(n), 'recorrência inválida')]).nullable().optional(),
    repetitions: z.number().int().min(1).max(100).optional(),
    template: templateBody.optional(),
  })
  .strict();

const buttonBody = z
  .object({
    ticketId: z.number().int().positive(),
    body: z.string().trim().min(1, 'o texto deve ter de 1 a 60 caracteres').max(60, 'o texto deve ter de 1 a 60 caracteres'),
    buttons: z
      .array(z.object({ label: z.string().trim().min(1).max(20, 'cada botão deve ter no máximo 20 caracteres'), value: z.string().trim().min(1).max(256) }).strict())
      .min(1)
      .max(3)
      .refine((b) => new Set(b.map((x) => x.value)).size === b.length, 'os valores dos botões não podem se repetir'),
  })
  .strict();

const messageIdBody = z.object({ messageId: z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive()]).transform(String) });

/** Reads a multipart send: the text fields plus at most one file, stored through the media port. */
async function readSend(kernel: Kernel, req: FastifyRequest): Promise<SendInput> {
  if (!req.isMultipart()) {
    const parsed = sendBody.safeParse(req.body ?? {});
    if (!parsed.success) throw new AppError('ERR_VALIDATION', { details: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    return parsed.data as SendInput;
  }
  const fields: Record<string, string> = {};
  let media: SendInput['media'];
  for await (const part of req.parts({ limits: { fileSize: MAX_MEDIA_BYTES, files: 1, fields: 20, fieldSize: 65_536 } })) {
    if (part.type === 'file') {
      if (media) {
        part.file.resume();
        continue;
      }
      const stored = await kernel.storage.save(principalOf(req).tenantId, part.filename || 'arquivo', part.mimetype, part.file);
      media = { url: stored.url, name: stored.name, mimetype: stored.mimetype };
    } else fields[part.fieldname] = String(part.value);
  }
  const parsed = sendBody.safeParse({
    body: fields.body ?? '',
    quotedMsgId: fields.quotedMsgId || undefined,
    isNote: fields.isNote === 'true' ? true : undefined,
    signMessage: fields.signMessage ? fields.signMessage === 'true' : undefined,
    scheduleDate: fields.scheduleDate || undefined,
    // A scheduled file recurs like a scheduled text (spec §3: recurrence and repetition count).
    recurrence: fields.recurrence ? Number(fields.recurrence) : undefined,
    repetitions: fields.repetitions ? Number(fields.repetitions) : undefined,
  });
  if (!parsed.success) throw new AppError('ERR_VALIDATION', { details: parsed.error.issues.map((i) => i.message).join('; ') });
  return { ...(parsed.data as SendInput), media };
}

export async function conversationRoutes(app: FastifyInstance, kernel: Kernel) {
  await channelRoutes(app, kernel);
  await businessHoursRoutes(app, kernel);
  await presenceRoutes(app, kernel);
  await contactTicketsRoutes(app, kernel);
  installAbsenceMessage(kernel);
  installRatingAttempts(kernel);
  defineSendJob(kernel);
  defineTicketJobs(kernel);
  await defineScheduledDispatch(kernel);
  if (kernel.config.role !== 'api') await kernel.jobs.schedule('tickets.auto_close', 'auto-close', { everyMs: 60_000 }, {});

  // Visibility is re-applied to every real-time ticket and message event, per recipient (spec §4).
  const visible = async (who: { tenantId: number; userId: number; profile: 'user' | 'super' | 'admin' | 'superadmin'; queues: number[] }, data: { ticket?: ReturnType<typeof ticketOut> }) =>
    !data?.ticket || canSee(who, factsOf(data.ticket), await visibilitySettings(kernel, who.tenantId));
  for (const ev of ['ticket.created', 'message.created', 'message.ack_updated', 'message.updated', 'message.deleted']) kernel.realtime.addVisibilityFilter(ev, visible);
  // A ticket that moves out of someone's sight (transfer, hiding settings) is removed from their list live.
  kernel.realtime.addVisibilityFilter('ticket.updated', visible, (d: { ticket?: { id: number; updatedAt?: string } }) => (d?.ticket ? { event: 'ticket.removed', data: { id: d.ticket.id, updatedAt: d.ticket.updatedAt } } : undefined));
  kernel.realtime.addRoomAuthorizer('ticket', async (who, id) => {
    const t = await loadTicket(kernel, who.tenantId, Number(id));
    return !!t && canSee(who, factsOf(ticketOut(t)), await visibilitySettings(kernel, who.tenantId));
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_MEDIA_BYTES, files: 1 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    // --- tickets ---
    r.get('/api/tickets', { ...tickets, schema: { operationId: 'listTickets', tags, summary: 'Lista os atendimentos', querystring: ticketListQuery, response: { 200: ticketPage } } }, async (req) => listTickets(kernel, req.access!, req.query));
    r.get('/api/tickets/:id', { ...tickets, schema: { operationId: 'getTicket', tags, summary: 'Mostra um atendimento', params: idParam, response: { 200: ticketSchema } } }, async (req) => ticketOut(await visibleTicket(kernel, req.access!, req.params.id)));
    r.get('/api/tickets/:ticketId/logs', { ...tickets, schema: { operationId: 'listTicketLogs', tags, summary: 'Histórico de um atendimento', params: ticketIdParam, response: { 200: z.array(ticketLog) } } }, async (req) => {
      await visibleTicket(kernel, req.access!, req.params.ticketId);
      type Side = { userId?: number | null; queueId?: number | null } | undefined;
      type LogRow = Omit<z.output<typeof ticketLog>, 'data'> & { data: { from?: Side; to?: Side; [k: string]: unknown } | null };
      const tenantId = principalOf(req).tenantId;
      const logs = await kernel.db.pool.query<LogRow>(
        `SELECT l.id, l.type, l.data, l.created_at AS "createdAt", l.user_id AS "userId", u.name AS "userName"
           FROM ticket_logs l LEFT JOIN users u ON u.id = l.user_id WHERE l.tenant_id = $1 AND l.ticket_id = $2 ORDER BY l.id DESC LIMIT 500`,
        [tenantId, req.params.ticketId],
      );
      // A transfer says from whom and which queue to whom and which queue, by name (the ids stay in `data`).
      const sides = logs.rows.flatMap((l) => [l.data?.from, l.data?.to]).filter((x): x is NonNullable<Side> => !!x);
      const userIds = [...new Set(sides.map((x) => x.userId).filter((x): x is number => typeof x === 'number'))];
      const queueIds = [...new Set(sides.map((x) => x.queueId).filter((x): x is number => typeof x === 'number'))];
      const [users, queues] = await Promise.all([
        userIds.length ? kernel.db.pool.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, userIds]) : { rows: [] },
        queueIds.length ? kernel.db.pool.query<{ id: number; name: string }>('SELECT id, name FROM queues WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, queueIds]) : { rows: [] },
      ]);
      const userName = new Map(users.rows.map((u) => [u.id, u.name]));
      const queueName = new Map(queues.rows.map((q) => [q.id, q.name]));
      const named = (x: Side) => (x ? { userName: (x.userId && userName.get(x.userId)) || null, queueName: (x.queueId && queueName.get(x.queueId)) || null } : undefined);
      return logs.rows.map((l) => (l.data?.from || l.data?.to ? { ...l, from: named(l.data.from), to: named(l.data.to) } : l));
    });
    r.post(
      '/api/tickets',
      {
        ...tickets,
        schema: {
          operationId: 'createTicket',
          tags,
          summary: 'Abre um atendimento com um contato',
          response: { 201: ticketSchema },
          body: z.object({ contactId: z.number().int().positive(), channelId: z.number().int().positive().nullable().optional(), whatsappId: z.number().int().positive().nullable().optional(), status: z.enum(['open', 'pending']).optional(), userId: z.number().int().positive().nullable().optional(), queueId: z.number().int().positive().nullable().optional() }).strict(),
        },
      },
      async (req, reply) => reply.status(201).send(await createTicket(kernel, req.access!, { ...req.body, channelId: req.body.channelId ?? req.body.whatsappId ?? null })),
    );
    r.put('/api/tickets/:id', { ...tickets, schema: { operationId: 'updateTicket', tags, summary: 'Altera um atendimento (status, fila, atendente, campos)', params: idParam, body: ticketUpdateBody, response: { 200: ticketSchema } } }, async (req) => {
      const b = req.body;
      const integrations = Object.fromEntries(INTEGRATION_FIELDS.filter((f) => b[f] !== undefined).map((f) => [f, b[f]!]));
      return updateTicket(kernel, req.access!, req.params.id, { ...b, sendFarewell: b.sendFarewell ?? b.isFarewellMessage, integrations });
    });
    r.put('/api/ticketsForce/:id', { ...tickets, schema: { operationId: 'forceCloseTicket', tags, summary: 'Encerra um atendimento à força', params: idParam, response: { 200: ticketSchema } } }, async (req) => forceClose(kernel, req.access!, req.params.id));
    r.put('/api/ticketsNull/:id', { ...tickets, schema: { operationId: 'clearTicketAssignment', tags, summary: 'Remove atendente e fila de um atendimento', params: idParam, response: { 200: ticketSchema } } }, async (req) => clearAssignment(kernel, req.access!, req.params.id));
    // Bodies that are all optional are nullish: a PUT/POST/DELETE sent without a body arrives as null.
    r.put('/api/ticketsChatBot/:id', { ...tickets, schema: { operationId: 'transferTicketToChatbot', tags, summary: 'Transfere um atendimento para o chatbot', params: idParam, body: z.object({ chatFlowId: z.number().int().positive().nullable().optional() }).strict().nullish(), response: { 200: ticketSchema } } }, async (req) =>
      transferToChatbot(kernel, req.access!, req.params.id, req.body?.chatFlowId ?? null),
    );
    // Clears the unread badges of the user's own tickets.
    r.get('/api/ticketsClear', { ...tickets, schema: { operationId: 'clearOwnUnread', tags, summary: 'Zera as mensagens não lidas dos próprios atendimentos', response: { 200: z.object({ cleared: z.number().int() }) } } }, async (req) => {
      const who = principalOf(req);
      const r2 = await kernel.db.pool.query<{ id: number }>(`UPDATE tickets SET unread_messages = 0 WHERE tenant_id = $1 AND user_id = $2 AND unread_messages > 0 AND status IN ('open','pending') RETURNING id`, [who.tenantId, who.userId]);
      for (const row of r2.rows) {
        const t = await loadTicket(kernel, who.tenantId, row.id);
        if (t) await kernel.bus.publish({ tenantId: t.tenant_id, event: 'ticket.updated', data: { ticket: ticketOut(t) } });
      }
      return { cleared: r2.rowCount ?? 0 };
    });
    // Marks every open/pending ticket the user can see as read: page after page of the user's own
    // visible list (each page read after the previous one was marked, so it holds the next unread
    // ones), one UPDATE and one ticket read per page, then one event per ticket for every screen.
    r.get('/api/ticketsMarkAllUnread', { ...tickets, schema: { operationId: 'markAllTicketsRead', tags, summary: 'Marca como lidos todos os atendimentos visíveis', response: { 200: z.object({ marked: z.number().int() }) } } }, async (req) => {
      const { tenantId } = principalOf(req);
      let marked = 0;
      const seen = new Set<number>();
      for (;;) {
        const page = await listTickets(kernel, req.access!, { withUnreadMessages: true, limit: 200 });
        const ids = page.tickets.map((t) => t.id).filter((id) => !seen.has(id));
        if (!ids.length) break;
        ids.forEach((id) => seen.add(id));
        await kernel.db.pool.query('UPDATE tickets SET unread_messages = 0 WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, ids]);
        const rows = await loadTickets(kernel, ids.map((ticketId) => ({ tenantId, ticketId })));
        await Promise.all([...rows.values()].map((t) => kernel.bus.publish({ tenantId, event: 'ticket.updated', data: { ticket: ticketOut(t) } })));
        marked += ids.length;
      }
      return { marked };
    });
    const bulkIds = z.array(z.number().int().positive()).min(1).max(1000);
    // Bulk resolve and transfer run in blocks of 10 (spec §9): each ticket commits on its own and
    // every block tells the caller's sockets how far it got, so a long run shows progress and a
    // failure keeps earlier work. One helper for both, so they report alike.
    const inBlocks = async (req: FastifyRequest, action: 'resolve' | 'transfer', ids: number[], apply: (id: number) => Promise<unknown>) => {
      let ok = 0;
      const failed: { id: number; error: string }[] = [];
      for (let i = 0; i < ids.length; i += 10) {
        for (const id of ids.slice(i, i + 10)) {
          try {
            await apply(id);
            ok++;
          } catch (err) {
            failed.push({ id, error: err instanceof AppError ? err.code : 'ERR_INTERNAL' });
          }
        }
        const who = principalOf(req);
        await kernel.bus.publish({ tenantId: who.tenantId, event: 'tickets.bulk_progress', data: { action, done: Math.min(i + 10, ids.length), total: ids.length }, rooms: [`user:${who.userId}`] });
      }
      return { ok, failed };
    };
    const resolveMany = async (req: FastifyRequest, ids: number[]) => {
      const { ok, failed } = await inBlocks(req, 'resolve', ids, (id) => updateTicket(kernel, req.access!, id, { status: 'closed' }));
      return { resolved: ok, failed };
    };
    const resolved = z.object({ resolved: z.number().int(), failed: bulkFailures });
    r.post('/api/tickets/bulk-resolve', { config: { access: { menu: 'ticketPanel' } }, schema: { operationId: 'resolveTickets', tags, summary: 'Resolve vários atendimentos', body: z.object({ ticketIds: bulkIds }).strict(), response: { 200: resolved } } }, async (req) => resolveMany(req, req.body.ticketIds));
    r.post('/api/pending/resolvePending', { config: { access: { menu: 'ticketPanel' } }, schema: { operationId: 'resolvePendingTickets', tags, summary: 'Resolve os atendimentos pendentes', body: z.object({ ticketIds: bulkIds.optional() }).strict().nullish(), response: { 200: resolved } } }, async (req) => {
      const ids = req.body?.ticketIds ?? (await kernel.db.pool.query<{ id: number }>(`SELECT id FROM tickets WHERE tenant_id = $1 AND status = 'pending' ORDER BY id LIMIT 1000`, [principalOf(req).tenantId])).rows.map((x) => x.id);
      return resolveMany(req, ids);
    });
    r.post(
      '/api/tickets/bulk-transfer',
      {
        config: { access: { menu: 'ticketPanel' } },
        schema: {
          operationId: 'transferTickets',
          tags,
          summary: 'Transfere vários atendimentos',
          body: z.object({ ticketIds: bulkIds, userId: z.number().int().positive(), queueId: z.number().int().positive() }).strict(),
          response: { 200: z.object({ transferred: z.number().int(), failed: bulkFailures }) },
        },
      },
      async (req) => {
        const { userId, queueId } = req.body;
        // One answer for the whole selection when the receiver cannot take tickets of that queue, not one failure per ticket.
        await assertMayReceive(kernel, req.access!, userId, queueId);
        const { ok, failed } = await inBlocks(req, 'transfer', req.body.ticketIds, (id) => updateTicket(kernel, req.access!, id, { userId, queueId }));
        return { transferred: ok, failed };
      },
    );
    // Drops this tenant's cached settings on every node's next read and runs the idle auto-close now.
    r.post(
      '/api/noRedis',
      { config: { access: { menu: 'settings' } }, schema: { operationId: 'refreshTicketSettings', tags, summary: 'Relê as configurações e encerra os atendimentos ociosos', response: { 200: z.object({ ok: z.literal(true), closed: z.number().int() }) } } },
      async (req) => {
        invalidateVisibility(kernel, principalOf(req).tenantId);
        return { ok: true as const, ...(await autoCloseIdle(kernel)) };
      },
    );
    r.get('/api/tickets/auto-close-options', { ...tickets, schema: { operationId: 'listAutoCloseOptions', tags, summary: 'Prazos de encerramento automático', response: { 200: z.array(z.object({ minutes: z.number().int() })) } } }, async () => AUTO_CLOSE_OPTIONS.map((m) => ({ minutes: m })));

    // --- messages ---
    r.get('/api/messages/:ticketId', { ...tickets, schema: { params: ticketIdParam, querystring: z.object({ pageNumber: z.coerce.number().int().min(1).max(100_000).optional(), before: z.string().regex(/^\d{1,18}$/).optional(), spy: z.enum(['true', 'false']).optional() }), operationId: 'listMessages', tags: mtags, summary: 'Mensagens de um atendimento', response: { 200: messagePage } } }, async (req) =>
      listMessages(kernel, req.access!, req.params.ticketId, { before: req.query.before, pageNumber: req.query.pageNumber, spy: req.query.spy === 'true' }),
    );
    // Body: JSON (`sendBody`) or multipart with one file, read by `readSend`.
    r.post('/api/messages/:ticketId', { ...tickets, schema: { operationId: 'sendMessage', tags: mtags, summary: 'Envia uma mensagem (texto, arquivo, nota, agendada ou modelo)', params: ticketIdParam, response: { 201: messageSchema } } }, async (req, reply) => {
      const input = await readSend(kernel, req);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.params.ticketId, input));
    });
    const messageIdParam = z.object({ id: z.string().regex(/^\d{1,18}$/) });
    r.patch('/api/messages/:id', { ...tickets, schema: { operationId: 'editMessage', tags: mtags, summary: 'Edita uma mensagem enviada', params: messageIdParam, body: z.object({ body: z.string().max(65_536) }).strict(), response: { 200: messageSchema } } }, async (req) => editMessage(kernel, req.access!, req.params.id, req.body.body));
    r.post('/api/messages/editMessage', { ...tickets, schema: { operationId: 'editMessageById', tags: mtags, summary: 'Edita uma mensagem enviada (id no corpo)', body: messageIdBody.extend({ body: z.string().max(65_536) }).strict(), response: { 200: messageSchema } } }, async (req) => editMessage(kernel, req.access!, req.body.messageId, req.body.body));
    r.post('/api/messages/:id/retry', { ...tickets, schema: { operationId: 'retryMessage', tags: mtags, summary: 'Reenvia uma mensagem que falhou', params: messageIdParam, response: { 200: messageSchema } } }, async (req) => retryMessage(kernel, req.access!, req.params.id));
    r.delete('/api/messages/:id', { ...tickets, schema: { operationId: 'deleteMessage', tags: mtags, summary: 'Apaga uma mensagem', params: messageIdParam, response: { 200: messageSchema } } }, async (req) => deleteMessage(kernel, req.access!, req.params.id));
    r.delete('/api/messages', { ...tickets, schema: { querystring: z.object({ id: z.string().regex(/^\d{1,18}$/).optional(), messageId: z.string().regex(/^\d{1,18}$/).optional() }), body: z.object({ id: z.union([z.string(), z.number()]).optional(), messageId: z.union([z.string(), z.number()]).optional() }).nullish(), operationId: 'deleteMessageById', tags: mtags, summary: 'Apaga uma mensagem (id na consulta ou no corpo)', response: { 200: messageSchema } } }, async (req) => {
      const id = String(req.body?.id ?? req.body?.messageId ?? req.query.id ?? req.query.messageId ?? '');
      if (!/^\d{1,18}$/.test(id)) throw new AppError('ERR_INVALID_MESSAGE');
      return deleteMessage(kernel, req.access!, id);
    });
    r.post('/api/messages/reactionMessage', { ...tickets, schema: { operationId: 'reactToMessage', tags: mtags, summary: 'Reage a uma mensagem', body: messageIdBody.extend({ emoji: z.string().max(16) }).strict(), response: { 200: messageSchema } } }, async (req) => reactToMessage(kernel, req.access!, req.body.messageId, req.body.emoji));
    r.post('/api/forward-messages', { ...tickets, schema: { body: z.object({ messages: z.array(z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive(), z.object({ id: z.union([z.string(), z.number()]) }).transform((o) => o.id)])).transform((a) => a.map(String)), contact: z.union([z.number().int().positive(), z.object({ id: z.number().int().positive() }).transform((o) => o.id)]) }).strict(), operationId: 'forwardMessages', tags: mtags, summary: 'Encaminha mensagens a um contato', response: { 200: z.object({ ticketId: z.number().int(), messages: z.array(messageSchema) }) } } }, async (req) => {
      if (req.body.messages.length > FORWARD_MAX || req.body.messages.length < 1) throw new AppError('ERR_FORWARD_LIMIT');
      return forwardMessages(kernel, req.access!, req.body.messages, req.body.contact);
    });
    r.get('/api/searchMessage', { ...tickets, schema: { querystring: z.object({ ticketId: z.coerce.number().int().positive(), searchParam: z.string().trim().min(2).max(200) }), operationId: 'searchMessages', tags: mtags, summary: 'Busca mensagens de um atendimento', response: { 200: z.object({ messages: z.array(messageSchema) }) } } }, async (req) => searchMessages(kernel, req.access!, req.query.ticketId, req.query.searchParam));
    r.get('/api/messagesContact/:contactId', { ...tickets, schema: { params: z.object({ contactId: z.coerce.number().int().positive() }), querystring: z.object({ before: z.string().regex(/^\d{1,18}$/).optional() }), operationId: 'listContactMessages', tags: mtags, summary: 'Mensagens de um contato em todos os atendimentos', response: { 200: z.object({ messages: z.array(messageSchema), hasMore: z.boolean() }) } } }, async (req) => contactMessages(kernel, req.access!, req.params.contactId, req.query.before));
    r.post('/api/sendButton', { ...tickets, schema: { operationId: 'sendButtonMessage', tags: mtags, summary: 'Envia uma mensagem com botões', body: buttonBody, response: { 201: messageSchema } } }, async (req, reply) =>
      reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, buttons: req.body.buttons, type: 'buttons' })),
    );
    const mentionBody = z.object({ ticketId: z.number().int().positive(), body: z.string().trim().min(1).max(65_536), mentions: z.array(z.string().regex(/^\d{5,20}$/)).max(1024).optional() }).strict();
    const groupOnly = async (req: FastifyRequest, ticketId: number) => {
      const t = await visibleTicket(kernel, req.access!, ticketId);
      if (!t.is_group) throw new AppError('ERR_INVALID_MESSAGE');
    };
    r.post('/api/messages/mentionMessage', { ...tickets, schema: { operationId: 'sendMentionMessage', tags: mtags, summary: 'Envia uma mensagem mencionando participantes do grupo', body: mentionBody, response: { 201: messageSchema } } }, async (req, reply) => {
      await groupOnly(req, req.body.ticketId);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, data: { mentions: req.body.mentions ?? [] } }));
    });
    r.post('/api/messages/mentionAllMessage', { ...tickets, schema: { operationId: 'sendMentionAllMessage', tags: mtags, summary: 'Envia uma mensagem mencionando todo o grupo', body: mentionBody.omit({ mentions: true }), response: { 201: messageSchema } } }, async (req, reply) => {
      await groupOnly(req, req.body.ticketId);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, data: { mentionAll: true } }));
    });
    // A "ghost" mention notifies every participant without showing the mention in the text.
    r.post('/api/messages/ghostMessage', { ...tickets, schema: { operationId: 'sendGhostMentionMessage', tags: mtags, summary: 'Envia uma mensagem que notifica todo o grupo sem mostrar a menção', body: mentionBody.omit({ mentions: true }), response: { 201: messageSchema } } }, async (req, reply) => {
      await groupOnly(req, req.body.ticketId);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, data: { mentionAll: true, hidden: true } }));
    });
    const participant = z.object({ id: z.number().int(), name: z.string(), number: z.string().nullable() });
    r.post('/api/messages/listParticipants', { ...tickets, schema: { operationId: 'listGroupParticipants', tags: mtags, summary: 'Participantes de um grupo', body: z.object({ ticketId: z.number().int().positive() }).strict(), response: { 200: z.object({ participants: z.array(participant) }) } } }, async (req) => {
      await groupOnly(req, req.body.ticketId);
      const p = await kernel.db.pool.query<z.output<typeof participant>>(
        `SELECT DISTINCT c.id, c.name, c.number FROM messages m JOIN contacts c ON c.id = m.contact_id
          WHERE m.tenant_id = $1 AND m.ticket_id = $2 AND NOT m.from_me AND NOT c.is_group ORDER BY c.name LIMIT 1024`,
        [principalOf(req).tenantId, req.body.ticketId],
      );
      return { participants: p.rows };
    });

    // Media: URLs signed with an expiry (storage/local.ts `clientUrl`), so <img src> works without a bearer
    // token; they are handed out only to users of the file's tenant, and stop working after a few hours.
    r.get(
      '/media/*',
      { config: { access: { public: true } }, schema: { querystring: z.object({ e: z.string().max(20).optional(), s: z.string().max(100).optional() }) } },
      async (req, reply) => {
        const rel = (req.params as { '*': string })['*'];
        // A path that is not valid percent-encoding (`/media/%`) names no file: 404, like a bad or expired signature.
        const decoded = decodePath(rel);
        const abs = decoded === undefined ? undefined : kernel.storage.verifyClient(decoded, req.query.e, req.query.s);
        if (!abs) throw new AppError('ERR_NOT_FOUND');
        const type = await kernel.storage.typeOf(abs);
        const name = (abs.split('/').pop() ?? 'arquivo').replace(/^[0-9a-f-]{36}-/, '');
        // The stored type, never sniffed; anything a browser would not just show (HTML, SVG, PDF…) is a download.
        return reply
          .header('content-type', type)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('content-disposition', INLINE_MEDIA.test(type) ? 'inline' : `attachment; filename="${name.replace(/[^\w.\- ]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
          .header('cache-control', 'private, max-age=3600')
          .send(fs.createReadStream(abs));
      },
    );
  });
  void listParam;
  void messageOut;
}
