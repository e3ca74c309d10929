import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { ChannelError, type PreparedTemplate, type TemplateSendRequest } from '../../sdk/channel.ts';
import { withTx } from '../../db/tx.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { messageOut, ticketOut, type MessageRow } from './serialize.ts';
import { loadTicket } from './ingest.ts';
import { publishTicket } from './events.ts';
import { queueOutbound, retryOutbound, type OutboundDraft } from './outbound.ts';
import { assertMayAssignPending, log, visibleTicket } from './tickets.ts';
import { findTenantChannel } from './channels.ts';
import { visibilitySettings } from './visibility.ts';
import { escapeLike } from './list.ts';

export const PAGE_SIZE = 50;

/**
 * `GET /messages/:ticketId`: the latest page (or the page before `before`),
 * oldest first for display. Opening the ticket as its owner marks it read;
 * anyone else only looks; the explicit Spy action (`spy=true`) is logged.
 */
export async function listMessages(kernel: Kernel, who: ResolvedPrincipal, ticketId: number, opts: { before?: string; pageNumber?: number; spy?: boolean }) {
  const ticket = await visibleTicket(kernel, who, ticketId);
  const params: unknown[] = [who.tenantId, ticketId];
  let where = '';
  let offset = '';
  if (opts.before) {
    params.push(opts.before);
    where = ` AND id < $${params.length}`;
  } else if (opts.pageNumber && opts.pageNumber > 1) {
    offset = ` OFFSET ${(opts.pageNumber - 1) * PAGE_SIZE}`;
  }
  const r = await kernel.db.pool.query<MessageRow>(
    `SELECT * FROM messages WHERE tenant_id = $1 AND ticket_id = $2 AND (schedule_date IS NULL OR status <> 'pending')${where} ORDER BY id DESC LIMIT ${PAGE_SIZE + 1}${offset}`,
    params,
  );
  const hasMore = r.rows.length > PAGE_SIZE;
  const page = r.rows.slice(0, PAGE_SIZE).reverse();
  const offline = await kernel.db.pool.query<MessageRow>(
    `SELECT * FROM messages WHERE tenant_id = $1 AND ticket_id = $2 AND status = 'pending' AND schedule_date IS NOT NULL ORDER BY schedule_date LIMIT 100`,
    [who.tenantId, ticketId],
  );
  if (!opts.before && ticket.unread_messages > 0 && ticket.user_id === who.userId && !opts.spy) {
    await kernel.db.pool.query('UPDATE tickets SET unread_messages = 0 WHERE tenant_id = $1 AND id = $2', [who.tenantId, ticketId]);
    const t = await loadTicket(kernel, who.tenantId, ticketId);
    if (t) await publishTicket(kernel, t);
  } else if (!opts.before && opts.spy && ticket.user_id !== who.userId) {
    // The explicit Spy action is logged once per opening, not every scroll.
    await log(kernel.db.pool, who.tenantId, ticketId, who.userId, 'spied');
  }
  return { messages: page.map(messageOut), messagesOffLine: offline.rows.map(messageOut), hasMore, ticket: ticketOut(ticket) };
}

export interface SendInput {
  body: string;
  quotedMsgId?: string;
  isNote?: boolean;
  /** Prefix the text with the agent's name (the composer's signature toggle). */
  signMessage?: boolean;
  scheduleDate?: Date;
  recurrence?: number | null;
  repetitions?: number;
  media?: { url: string; name: string; mimetype: string };
  buttons?: { label: string; value: string }[];
  type?: string;
  data?: Record<string, unknown>;
  /** A provider message template instead of free text (WhatsApp outside the 24-hour window). */
  template?: TemplateSendRequest;
}

const refuseTemplate = (details: string) => new AppError('ERR_VALIDATION', { details });

/**
 * Checks a template send on the ticket's channel. The adapter builds the
 * stored text from the template it synced, not the caller's: the history then
 * shows what the customer really got whichever client sent it, and a caller
 * cannot make the conversation say something the template does not.
 */
async function prepareTemplate(kernel: Kernel, tenantId: number, channelId: number | null, input: SendInput): Promise<PreparedTemplate> {
  // Scheduled sends are not offered for templates yet: the dispatcher would have to re-check them when they fall due.
  if (input.media || input.buttons || input.isNote || input.scheduleDate) {
    throw refuseTemplate('um modelo (template) é enviado sozinho: sem anexo, botões, nota interna ou agendamento');
  }
  // Tenant-scoped lookup: a channel (and so its templates) of another tenant is as unknown as none.
  const ch = channelId ? await findTenantChannel(kernel, tenantId, channelId) : undefined;
  const adapter = ch ? kernel.channelAdapters.get(ch.type) : undefined;
  if (!ch || !adapter?.capabilities.templates) throw refuseTemplate('o canal deste atendimento não envia modelos (templates)');
  const req = input.template!;
  if (adapter.prepareTemplate) return adapter.prepareTemplate(ch, req);
  const body = input.body?.trim() || req.name;
  return { body, template: { name: req.name, language: req.language, components: req.components ?? [] } };
}

/**
 * `POST /messages/:ticketId`: stores and queues a reply. Replying to an
 * unassigned pending ticket takes it (an agent answering is attending);
 * a closed ticket must be reopened first.
 */
export async function sendMessage(kernel: Kernel, who: ResolvedPrincipal, ticketId: number, input: SendInput) {
  const ticket = await visibleTicket(kernel, who, ticketId);
  if (!input.body?.trim() && !input.media && !input.template) throw new AppError('ERR_INVALID_MESSAGE');
  if (ticket.status === 'closed' && !input.isNote) throw new AppError('ERR_SENDING_MESSAGE');
  const template = input.template ? await prepareTemplate(kernel, who.tenantId, ticket.channel_id, input) : undefined;
  let body = template?.body ?? input.body?.trim() ?? '';
  // ForceSignature (core.md §6): users may not turn their signature off, so every text they send is signed.
  // Notes stay internal, templates are the provider's text and interactive bodies have their own 60-character limit.
  if (body && !input.isNote && !template && !input.buttons && !input.type) {
    const forced = (await visibilitySettings(kernel, who.tenantId)).ForceSignature === 'enabled';
    if (forced || input.signMessage) body = signed(who.name, body);
  }
  if (input.scheduleDate && input.scheduleDate.getTime() < Date.now() - 60_000) throw new AppError('ERR_INVALID_DATE');
  if (input.quotedMsgId) {
    const q = await kernel.db.pool.query('SELECT 1 FROM messages WHERE tenant_id = $1 AND ticket_id = $2 AND id = $3', [who.tenantId, ticketId, input.quotedMsgId]);
    if (!q.rowCount) throw new AppError('ERR_INVALID_MESSAGE');
  }
  if (input.buttons || input.media) {
    const ch = ticket.channel_id ? await findTenantChannel(kernel, who.tenantId, ticket.channel_id) : undefined;
    const adapter = ch ? kernel.channelAdapters.get(ch.type) : undefined;
    if (input.buttons && adapter && !adapter.capabilities.buttons) throw new AppError('ERR_INVALID_MESSAGE');
  }
  if (ticket.status === 'pending' && ticket.user_id === null && !input.isNote && !input.scheduleDate) {
    // Replying takes the ticket, which is an assignment like any other.
    await assertMayAssignPending(kernel, who);
    await withTx(kernel.db.pool, async (sql) => {
      const r = await sql.query(`UPDATE tickets SET status = 'open', user_id = $3, chatbot = false, updated_at = now() WHERE tenant_id = $1 AND id = $2 AND status = 'pending' AND user_id IS NULL`, [who.tenantId, ticketId, who.userId]);
      if (r.rowCount) await log(sql, who.tenantId, ticketId, who.userId, 'started', { by: 'reply' });
    });
  }
  const draft: OutboundDraft = {
    tenantId: who.tenantId,
    ticketId,
    userId: who.userId,
    body,
    type: template ? 'templates' : input.type,
    media: input.media,
    quotedId: input.quotedMsgId,
    isNote: input.isNote,
    scheduleDate: input.scheduleDate ?? null,
    recurrenceDays: input.recurrence ?? null,
    repetitions: input.repetitions ?? null,
    buttons: input.buttons,
    data: template ? { ...input.data, template: template.template } : input.data,
  };
  return queueOutbound(kernel, draft);
}

/** The signature as WhatsApp shows it: the agent's name in bold on its own line, then the text. */
export const signed = (name: string, body: string) => `*${name}*:\n${body}`;
/** The signature line `signed` writes, with the name it carries. */
const SIGNATURE = /^\*([^*\n]+)\*:\n/;

async function ownMessage(kernel: Kernel, who: ResolvedPrincipal, messageId: string) {
  if (!/^\d{1,18}$/.test(messageId)) throw new AppError('ERR_INVALID_MESSAGE');
  const r = await kernel.db.pool.query<MessageRow>('SELECT * FROM messages WHERE tenant_id = $1 AND id = $2', [who.tenantId, messageId]);
  const m = r.rows[0];
  if (!m) throw new AppError('ERR_NOT_FOUND');
  await visibleTicket(kernel, who, m.ticket_id);
  return m;
}

async function adapterFor(kernel: Kernel, tenantId: number, channelId: number | null) {
  const ch = channelId ? await findTenantChannel(kernel, tenantId, channelId) : undefined;
  return { channel: ch, adapter: ch ? kernel.channelAdapters.get(ch.type) : undefined };
}

async function afterChange(kernel: Kernel, m: MessageRow, event: string) {
  const t = await loadTicket(kernel, m.tenant_id, m.ticket_id);
  await kernel.bus.publish({ tenantId: m.tenant_id, event, data: { message: messageOut(m), ticket: t ? ticketOut(t) : undefined } });
  return messageOut(m);
}

/**
 * Only the user who sent a message or wrote a note may change or delete it:
 * seeing the ticket is not enough (a colleague's reply, or note, is theirs).
 */
function authorOnly(who: ResolvedPrincipal, m: MessageRow) {
  if (m.user_id === null || m.user_id !== who.userId) throw new AppError('ERR_NO_PERMISSION');
}

/** Edits the agent's own sent text message, on the provider too when the channel supports it. */
export async function editMessage(kernel: Kernel, who: ResolvedPrincipal, messageId: string, body: string) {
  const m = await ownMessage(kernel, who, messageId);
  authorOnly(who, m);
  let text = body.trim();
  if (!text || !m.from_me || m.deleted_at || m.type !== 'chat') throw new AppError('ERR_INVALID_MESSAGE');
  if (!m.is_note) {
    // The signature is part of what the customer got: an edit changes the text under it and keeps it
    // (issue U2 #8), whatever the edit carries in its place; under ForceSignature an unsigned text gets one.
    const kept = SIGNATURE.exec(m.body);
    const typed = SIGNATURE.exec(text);
    if (typed) text = text.slice(typed[0].length).trim();
    if (!text) throw new AppError('ERR_INVALID_MESSAGE');
    if (kept) text = signed(kept[1]!, text);
    else if ((await visibilitySettings(kernel, who.tenantId)).ForceSignature === 'enabled') text = signed(who.name, text);
  }
  if (m.provider_id && !m.is_note) {
    const { channel, adapter } = await adapterFor(kernel, who.tenantId, m.channel_id);
    if (!adapter?.capabilities.edit || !adapter.edit || !channel) throw new AppError('ERR_INVALID_MESSAGE');
    await callProvider(() => adapter.edit!(channel, m.provider_id!, text));
  }
  const r = await kernel.db.pool.query<MessageRow>(`UPDATE messages SET body = $3, edited = true, updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING *`, [who.tenantId, messageId, text]);
  return afterChange(kernel, r.rows[0], 'message.updated');
}

/** Deletes a message for everyone (own messages) — the row stays, marked deleted, so history keeps its place. */
export async function deleteMessage(kernel: Kernel, who: ResolvedPrincipal, messageId: string) {
  const m = await ownMessage(kernel, who, messageId);
  authorOnly(who, m);
  if (!m.from_me || m.deleted_at) throw new AppError('ERR_INVALID_MESSAGE');
  if (m.provider_id && !m.is_note) {
    const { channel, adapter } = await adapterFor(kernel, who.tenantId, m.channel_id);
    if (adapter?.capabilities.delete && adapter.delete && channel) await callProvider(() => adapter.delete!(channel, m.provider_id!), 'ERR_DELETE_WAPP_MSG');
  }
  const r = await kernel.db.pool.query<MessageRow>(`UPDATE messages SET deleted_at = now(), updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING *`, [who.tenantId, messageId]);
  return afterChange(kernel, r.rows[0], 'message.deleted');
}

/**
 * `POST /messages/:id/retry`: sends again a reply the provider refused (status
 * `failed`, its reason shown under the bubble). Only a failed text or file the
 * users of the ticket sent; the ticket must still be open or pending.
 */
export async function retryMessage(kernel: Kernel, who: ResolvedPrincipal, messageId: string) {
  const m = await ownMessage(kernel, who, messageId);
  if (!m.from_me || m.is_note || m.deleted_at || m.status !== 'failed') throw new AppError('ERR_INVALID_MESSAGE');
  const ticket = await loadTicket(kernel, who.tenantId, m.ticket_id);
  if (!ticket || ticket.status === 'closed') throw new AppError('ERR_SENDING_MESSAGE');
  const row = await retryOutbound(kernel, who.tenantId, messageId);
  // Another click (or tab) retried it first.
  if (!row) throw new AppError('ERR_INVALID_MESSAGE');
  return afterChange(kernel, row, 'message.updated');
}

/** Adds (or, with an empty emoji, removes) the agent's reaction. */
export async function reactToMessage(kernel: Kernel, who: ResolvedPrincipal, messageId: string, emoji: string) {
  const m = await ownMessage(kernel, who, messageId);
  if (m.deleted_at) throw new AppError('ERR_INVALID_MESSAGE');
  if (m.provider_id) {
    const { channel, adapter } = await adapterFor(kernel, who.tenantId, m.channel_id);
    if (adapter?.capabilities.reactions && adapter.react && channel) await callProvider(() => adapter.react!(channel, m.provider_id!, emoji));
  }
  const by = `user:${who.userId}`;
  const reactions = (m.reactions ?? []).filter((x) => x.by !== by);
  if (emoji) reactions.push({ emoji, by, fromMe: true });
  const r = await kernel.db.pool.query<MessageRow>(`UPDATE messages SET reactions = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING *`, [who.tenantId, messageId, JSON.stringify(reactions)]);
  return afterChange(kernel, r.rows[0], 'message.updated');
}

async function callProvider(fn: () => Promise<void>, fallback: 'ERR_SENDING_WAPP_MSG' | 'ERR_DELETE_WAPP_MSG' = 'ERR_SENDING_WAPP_MSG') {
  try {
    await fn();
  } catch (err) {
    throw new AppError(err instanceof ChannelError ? err.code : fallback);
  }
}

export const FORWARD_MAX = 10;

/** Forwards up to 10 messages to exactly one contact, through that contact's ticket on the original channel. */
export async function forwardMessages(kernel: Kernel, who: ResolvedPrincipal, messageIds: string[], contactId: number) {
  if (messageIds.length < 1 || messageIds.length > FORWARD_MAX) throw new AppError('ERR_FORWARD_LIMIT');
  const msgs: MessageRow[] = [];
  for (const id of messageIds) msgs.push(await ownMessage(kernel, who, id));
  const c = await kernel.db.pool.query('SELECT 1 FROM contacts WHERE tenant_id = $1 AND id = $2', [who.tenantId, contactId]);
  if (!c.rowCount) throw new AppError('ERR_NO_CONTACT_FOUND');
  const channelId = msgs[0].channel_id;
  const { findOrCreateTicket } = await import('./ingest.ts');
  const ticketId = await withTx(kernel.db.pool, async (sql) => {
    const { ticket, created } = await findOrCreateTicket(sql, who.tenantId, contactId, channelId, { queueId: null, userId: who.userId, isGroup: false, status: 'open' });
    if (created) await log(sql, who.tenantId, ticket.id, who.userId, 'opened_by_forward');
    return ticket.id;
  });
  const out = [];
  for (const m of msgs.sort((a, b) => Number(a.id) - Number(b.id))) {
    out.push(
      await queueOutbound(kernel, {
        tenantId: who.tenantId,
        ticketId,
        userId: who.userId,
        body: m.body,
        type: m.type,
        media: m.media_url ? { url: m.media_url, name: m.media_name ?? 'arquivo', mimetype: m.media_type ?? 'application/octet-stream' } : undefined,
        data: { forwarded: true },
      }),
    );
  }
  return { ticketId, messages: out };
}

/** Searches one ticket's messages (2+ characters). */
export async function searchMessages(kernel: Kernel, who: ResolvedPrincipal, ticketId: number, term: string) {
  await visibleTicket(kernel, who, ticketId);
  const r = await kernel.db.pool.query<MessageRow>(
    // A scheduled message not sent yet is not part of the conversation (the conversation lists it apart).
    `SELECT * FROM messages WHERE tenant_id = $1 AND ticket_id = $2 AND deleted_at IS NULL AND (schedule_date IS NULL OR status <> 'pending') AND body ILIKE $3 ORDER BY id DESC LIMIT 100`,
    [who.tenantId, ticketId, `%${escapeLike(term)}%`],
  );
  return { messages: r.rows.map(messageOut) };
}

/** A contact's messages across its tickets that the user may see, newest first. */
export async function contactMessages(kernel: Kernel, who: ResolvedPrincipal, contactId: number, before?: string) {
  const c = await kernel.db.pool.query('SELECT 1 FROM contacts WHERE tenant_id = $1 AND id = $2', [who.tenantId, contactId]);
  if (!c.rowCount) throw new AppError('ERR_NO_CONTACT_FOUND');
  const tickets = await kernel.db.pool.query<{ id: number }>('SELECT id FROM tickets WHERE tenant_id = $1 AND contact_id = $2', [who.tenantId, contactId]);
  const visible: number[] = [];
  for (const t of tickets.rows) {
    try {
      await visibleTicket(kernel, who, t.id);
      visible.push(t.id);
    } catch {
      /* not visible to this user */
    }
  }
  if (!visible.length) return { messages: [], hasMore: false };
  const params: unknown[] = [who.tenantId, visible];
  if (before) params.push(before);
  const r = await kernel.db.pool.query<MessageRow>(
    `SELECT * FROM messages WHERE tenant_id = $1 AND ticket_id = ANY($2::int[]) AND (schedule_date IS NULL OR status <> 'pending')${before ? ' AND id < $3' : ''} ORDER BY id DESC LIMIT ${PAGE_SIZE + 1}`,
    params,
  );
  return { messages: r.rows.slice(0, PAGE_SIZE).map(messageOut), hasMore: r.rows.length > PAGE_SIZE };
}
