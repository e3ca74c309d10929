import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import fs from 'node:fs';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { MAX_MEDIA_BYTES } from '../../storage/local.ts';
import { INTEGRATION_FIELDS, messageOut } from './serialize.ts';
import { idParam, ticketIdParam, ticketListQuery, listParam } from './query.ts';
import { listTickets } from './list.ts';
import { clearAssignment, createTicket, forceClose, transferToChatbot, updateTicket, visibleTicket, autoCloseIdle, AUTO_CLOSE_OPTIONS } from './tickets.ts';
import { contactMessages, deleteMessage, editMessage, forwardMessages, listMessages, reactToMessage, retryMessage, searchMessages, sendMessage, FORWARD_MAX, type SendInput } from './messages.ts';
import { defineSendJob } from './outbound.ts';
import { defineTicketJobs } from './tickets.ts';
import { defineScheduledDispatch } from './scheduled.ts';
import { canSee, factsOf, invalidateVisibility, visibilitySettings } from './visibility.ts';
import { ticketOut } from './serialize.ts';
import { loadTicket, loadTickets } from './ingest.ts';
import { channelRoutes } from './channel-routes.ts';
import { businessHoursRoutes, installAbsenceMessage } from './business-hours.ts';
import { installRatingAttempts } from './rating.ts';

const tickets = { config: { access: { menu: 'tickets' } } };
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
      const stored = await kernel.storage.save(req.principal!.tenantId, part.filename || 'arquivo', part.mimetype, part.file);
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
    r.get('/api/tickets', { ...tickets, schema: { querystring: ticketListQuery } }, async (req) => listTickets(kernel, req.access!, req.query));
    r.get('/api/tickets/:id', { ...tickets, schema: { params: idParam } }, async (req) => ticketOut(await visibleTicket(kernel, req.access!, req.params.id)));
    r.get('/api/tickets/:ticketId/logs', { ...tickets, schema: { params: ticketIdParam } }, async (req) => {
      await visibleTicket(kernel, req.access!, req.params.ticketId);
      const logs = await kernel.db.pool.query(
        `SELECT l.id, l.type, l.data, l.created_at AS "createdAt", l.user_id AS "userId", u.name AS "userName"
           FROM ticket_logs l LEFT JOIN users u ON u.id = l.user_id WHERE l.tenant_id = $1 AND l.ticket_id = $2 ORDER BY l.id DESC LIMIT 500`,
        [req.principal!.tenantId, req.params.ticketId],
      );
      // A transfer says from whom and which queue to whom and which queue, by name (the ids stay in `data`).
      type Side = { userId?: number | null; queueId?: number | null } | undefined;
      const sides = logs.rows.flatMap((l: { data: { from?: Side; to?: Side } | null }) => [l.data?.from, l.data?.to]).filter((x): x is NonNullable<Side> => !!x);
      const userIds = [...new Set(sides.map((x) => x.userId).filter((x): x is number => typeof x === 'number'))];
      const queueIds = [...new Set(sides.map((x) => x.queueId).filter((x): x is number => typeof x === 'number'))];
      const [users, queues] = await Promise.all([
        userIds.length ? kernel.db.pool.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE tenant_id = $1 AND id = ANY($2::int[])', [req.principal!.tenantId, userIds]) : { rows: [] },
        queueIds.length ? kernel.db.pool.query<{ id: number; name: string }>('SELECT id, name FROM queues WHERE tenant_id = $1 AND id = ANY($2::int[])', [req.principal!.tenantId, queueIds]) : { rows: [] },
      ]);
      const userName = new Map(users.rows.map((u) => [u.id, u.name]));
      const queueName = new Map(queues.rows.map((q) => [q.id, q.name]));
      const named = (x: Side) => (x ? { userName: (x.userId && userName.get(x.userId)) || null, queueName: (x.queueId && queueName.get(x.queueId)) || null } : undefined);
      return logs.rows.map((l: { data: { from?: Side; to?: Side } | null }) => (l.data?.from || l.data?.to ? { ...l, from: named(l.data.from), to: named(l.data.to) } : l));
    });
    r.post(
      '/api/tickets',
      {
        ...tickets,
        schema: {
          body: z.object({ contactId: z.number().int().positive(), channelId: z.number().int().positive().nullable().optional(), whatsappId: z.number().int().positive().nullable().optional(), status: z.enum(['open', 'pending']).optional(), userId: z.number().int().positive().nullable().optional(), queueId: z.number().int().positive().nullable().optional() }).strict(),
        },
      },
      async (req, reply) => reply.status(201).send(await createTicket(kernel, req.access!, { ...req.body, channelId: req.body.channelId ?? req.body.whatsappId ?? null })),
    );
    r.put('/api/tickets/:id', { ...tickets, schema: { params: idParam, body: ticketUpdateBody } }, async (req) => {
      const b = req.body;
      const integrations = Object.fromEntries(INTEGRATION_FIELDS.filter((f) => b[f] !== undefined).map((f) => [f, b[f]!]));
      return updateTicket(kernel, req.access!, req.params.id, { ...b, sendFarewell: b.sendFarewell ?? b.isFarewellMessage, integrations });
    });
    r.put('/api/ticketsForce/:id', { ...tickets, schema: { params: idParam } }, async (req) => forceClose(kernel, req.access!, req.params.id));
    r.put('/api/ticketsNull/:id', { ...tickets, schema: { params: idParam } }, async (req) => clearAssignment(kernel, req.access!, req.params.id));
    // Bodies that are all optional are nullish: a PUT/POST/DELETE sent without a body arrives as null.
    r.put('/api/ticketsChatBot/:id', { ...tickets, schema: { params: idParam, body: z.object({ chatFlowId: z.number().int().positive().nullable().optional() }).strict().nullish() } }, async (req) =>
      transferToChatbot(kernel, req.access!, req.params.id, req.body?.chatFlowId ?? null),
    );
    // Clears the unread badges of the user's own tickets.
    r.get('/api/ticketsClear', tickets, async (req) => {
      const r2 = await kernel.db.pool.query(`UPDATE tickets SET unread_messages = 0 WHERE tenant_id = $1 AND user_id = $2 AND unread_messages > 0 AND status IN ('open','pending') RETURNING id`, [req.principal!.tenantId, req.principal!.userId]);
      for (const row of r2.rows) {
        const t = await loadTicket(kernel, req.principal!.tenantId, row.id);
        if (t) await kernel.bus.publish({ tenantId: t.tenant_id, event: 'ticket.updated', data: { ticket: ticketOut(t) } });
      }
      return { cleared: r2.rowCount };
    });
    // Marks every open/pending ticket the user can see as read: page after page of the user's own
    // visible list (each page read after the previous one was marked, so it holds the next unread
    // ones), one UPDATE and one ticket read per page, then one event per ticket for every screen.
    r.get('/api/ticketsMarkAllUnread', tickets, async (req) => {
      const tenantId = req.principal!.tenantId;
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
        await kernel.bus.publish({ tenantId: req.principal!.tenantId, event: 'tickets.bulk_progress', data: { action, done: Math.min(i + 10, ids.length), total: ids.length }, rooms: [`user:${req.principal!.userId}`] });
      }
      return { ok, failed };
    };
    const resolveMany = async (req: FastifyRequest, ids: number[]) => {
      const { ok, failed } = await inBlocks(req, 'resolve', ids, (id) => updateTicket(kernel, req.access!, id, { status: 'closed' }));
      return { resolved: ok, failed };
    };
    r.post('/api/tickets/bulk-resolve', { config: { access: { menu: 'ticketPanel' } }, schema: { body: z.object({ ticketIds: bulkIds }).strict() } }, async (req) => resolveMany(req, req.body.ticketIds));
    r.post('/api/pending/resolvePending', { config: { access: { menu: 'ticketPanel' } }, schema: { body: z.object({ ticketIds: bulkIds.optional() }).strict().nullish() } }, async (req) => {
      const ids = req.body?.ticketIds ?? (await kernel.db.pool.query<{ id: number }>(`SELECT id FROM tickets WHERE tenant_id = $1 AND status = 'pending' ORDER BY id LIMIT 1000`, [req.principal!.tenantId])).rows.map((x) => x.id);
      return resolveMany(req, ids);
    });
    r.post(
      '/api/tickets/bulk-transfer',
      { config: { access: { menu: 'ticketPanel' } }, schema: { body: z.object({ ticketIds: bulkIds, userId: z.number().int().positive(), queueId: z.number().int().positive() }).strict() } },
      async (req) => {
        const { userId, queueId } = req.body;
        const { ok, failed } = await inBlocks(req, 'transfer', req.body.ticketIds, (id) => updateTicket(kernel, req.access!, id, { userId, queueId }));
        return { transferred: ok, failed };
      },
    );
    // Drops this tenant's cached settings on every node's next read and runs the idle auto-close now.
    r.post('/api/noRedis', { config: { access: { menu: 'settings' } } }, async (req) => {
      invalidateVisibility(kernel, req.principal!.tenantId);
      return { ok: true, ...(await autoCloseIdle(kernel)) };
    });
    r.get('/api/tickets/auto-close-options', tickets, async () => AUTO_CLOSE_OPTIONS.map((m) => ({ minutes: m })));

    // --- messages ---
    r.get('/api/messages/:ticketId', { ...tickets, schema: { params: ticketIdParam, querystring: z.object({ pageNumber: z.coerce.number().int().min(1).max(100_000).optional(), before: z.string().regex(/^\d{1,18}$/).optional(), spy: z.enum(['true', 'false']).optional() }) } }, async (req) =>
      listMessages(kernel, req.access!, req.params.ticketId, { before: req.query.before, pageNumber: req.query.pageNumber, spy: req.query.spy === 'true' }),
    );
    r.post('/api/messages/:ticketId', { ...tickets, schema: { params: ticketIdParam } }, async (req, reply) => {
      const input = await readSend(kernel, req);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.params.ticketId, input));
    });
    r.patch('/api/messages/:id', { ...tickets, schema: { params: z.object({ id: z.string().regex(/^\d{1,18}$/) }), body: z.object({ body: z.string().max(65_536) }).strict() } }, async (req) => editMessage(kernel, req.access!, req.params.id, req.body.body));
    r.post('/api/messages/editMessage', { ...tickets, schema: { body: messageIdBody.extend({ body: z.string().max(65_536) }).strict() } }, async (req) => editMessage(kernel, req.access!, req.body.messageId, req.body.body));
    r.post('/api/messages/:id/retry', { ...tickets, schema: { params: z.object({ id: z.string().regex(/^\d{1,18}$/) }) } }, async (req) => retryMessage(kernel, req.access!, req.params.id));
    r.delete('/api/messages/:id', { ...tickets, schema: { params: z.object({ id: z.string().regex(/^\d{1,18}$/) }) } }, async (req) => deleteMessage(kernel, req.access!, req.params.id));
    r.delete('/api/messages', { ...tickets, schema: { querystring: z.object({ id: z.string().regex(/^\d{1,18}$/).optional(), messageId: z.string().regex(/^\d{1,18}$/).optional() }), body: z.object({ id: z.union([z.string(), z.number()]).optional(), messageId: z.union([z.string(), z.number()]).optional() }).nullish() } }, async (req) => {
      const id = String(req.body?.id ?? req.body?.messageId ?? req.query.id ?? req.query.messageId ?? '');
      if (!/^\d{1,18}$/.test(id)) throw new AppError('ERR_INVALID_MESSAGE');
      return deleteMessage(kernel, req.access!, id);
    });
    r.post('/api/messages/reactionMessage', { ...tickets, schema: { body: messageIdBody.extend({ emoji: z.string().max(16) }).strict() } }, async (req) => reactToMessage(kernel, req.access!, req.body.messageId, req.body.emoji));
    r.post('/api/forward-messages', { ...tickets, schema: { body: z.object({ messages: z.array(z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive(), z.object({ id: z.union([z.string(), z.number()]) }).transform((o) => o.id)])).transform((a) => a.map(String)), contact: z.union([z.number().int().positive(), z.object({ id: z.number().int().positive() }).transform((o) => o.id)]) }).strict() } }, async (req) => {
      if (req.body.messages.length > FORWARD_MAX || req.body.messages.length < 1) throw new AppError('ERR_FORWARD_LIMIT');
      return forwardMessages(kernel, req.access!, req.body.messages, req.body.contact);
    });
    r.get('/api/searchMessage', { ...tickets, schema: { querystring: z.object({ ticketId: z.coerce.number().int().positive(), searchParam: z.string().trim().min(2).max(200) }) } }, async (req) => searchMessages(kernel, req.access!, req.query.ticketId, req.query.searchParam));
    r.get('/api/messagesContact/:contactId', { ...tickets, schema: { params: z.object({ contactId: z.coerce.number().int().positive() }), querystring: z.object({ before: z.string().regex(/^\d{1,18}$/).optional() }) } }, async (req) => contactMessages(kernel, req.access!, req.params.contactId, req.query.before));
    r.post('/api/sendButton', { ...tickets, schema: { body: buttonBody } }, async (req, reply) =>
      reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, buttons: req.body.buttons, type: 'buttons' })),
    );
    const mentionBody = z.object({ ticketId: z.number().int().positive(), body: z.string().trim().min(1).max(65_536), mentions: z.array(z.string().regex(/^\d{5,20}$/)).max(1024).optional() }).strict();
    const groupOnly = async (req: FastifyRequest, ticketId: number) => {
      const t = await visibleTicket(kernel, req.access!, ticketId);
      if (!t.is_group) throw new AppError('ERR_INVALID_MESSAGE');
    };
    r.post('/api/messages/mentionMessage', { ...tickets, schema: { body: mentionBody } }, async (req, reply) => {
      await groupOnly(req, req.body.ticketId);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, data: { mentions: req.body.mentions ?? [] } }));
    });
    r.post('/api/messages/mentionAllMessage', { ...tickets, schema: { body: mentionBody.omit({ mentions: true }) } }, async (req, reply) => {
      await groupOnly(req, req.body.ticketId);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, data: { mentionAll: true } }));
    });
    // A "ghost" mention notifies every participant without showing the mention in the text.
    r.post('/api/messages/ghostMessage', { ...tickets, schema: { body: mentionBody.omit({ mentions: true }) } }, async (req, reply) => {
      await groupOnly(req, req.body.ticketId);
      return reply.status(201).send(await sendMessage(kernel, req.access!, req.body.ticketId, { body: req.body.body, data: { mentionAll: true, hidden: true } }));
    });
    r.post('/api/messages/listParticipants', { ...tickets, schema: { body: z.object({ ticketId: z.number().int().positive() }).strict() } }, async (req) => {
      await groupOnly(req, req.body.ticketId);
      const p = await kernel.db.pool.query(
        `SELECT DISTINCT c.id, c.name, c.number FROM messages m JOIN contacts c ON c.id = m.contact_id
          WHERE m.tenant_id = $1 AND m.ticket_id = $2 AND NOT m.from_me AND NOT c.is_group ORDER BY c.name LIMIT 1024`,
        [req.principal!.tenantId, req.body.ticketId],
      );
      return { participants: p.rows };
    });

    // Media: signed URLs so <img src> works without a bearer token.
    r.get('/media/*', { config: { access: { public: true } }, schema: { querystring: z.object({ s: z.string().max(100).optional() }) } }, async (req, reply) => {
      const rel = (req.params as { '*': string })['*'];
      const abs = kernel.storage.verify(decodeURIComponent(rel), req.query.s);
      if (!abs) throw new AppError('ERR_NOT_FOUND');
      return reply.header('cache-control', 'private, max-age=86400').header('content-disposition', 'inline').send(fs.createReadStream(abs));
    });
  });
  void listParam;
  void messageOut;
}
