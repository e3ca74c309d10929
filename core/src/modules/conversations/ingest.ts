import type { Kernel } from '../../kernel.ts';
import type { InboundMessage, IngestResult, AckStatus } from '../../sdk/channel.ts';
import { lockKey, type Sql } from '../../db/tx.ts';
import { messageOut, ticketOut, type MessageRow, type TicketRow, TICKET_SELECT, TICKET_JOINS } from './serialize.ts';
import { nextProtocol } from './protocol.ts';
import { publishTicket } from './events.ts';

/** Maps an inbound media mimetype to the spec's message types. */
export function messageTypeOf(mimetype: string | undefined, declared?: string): string {
  if (declared) return declared;
  if (!mimetype) return 'chat';
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  return 'application';
}

export interface ChannelDefaults {
  queue_id: number | null;
  user_id: number | null;
  type: string;
}

/**
 * Finds the contact's open/pending ticket on the channel or creates one.
 * The advisory lock serialises concurrent first messages; the partial unique
 * index is the final guarantee that two cannot exist.
 */
export async function findOrCreateTicket(
  sql: Sql,
  tenantId: number,
  contactId: number,
  channelId: number | null,
  defaults: { queueId: number | null; userId: number | null; isGroup: boolean; status?: 'open' | 'pending' },
): Promise<{ ticket: TicketRow; created: boolean }> {
  await lockKey(sql, `ticket:${tenantId}:${contactId}:${channelId ?? 0}`);
  const existing = await sql.query<TicketRow>(
    `SELECT * FROM tickets WHERE tenant_id = $1 AND contact_id = $2 AND COALESCE(channel_id, 0) = $3 AND status IN ('open','pending') FOR UPDATE`,
    [tenantId, contactId, channelId ?? 0],
  );
  if (existing.rows[0]) return { ticket: existing.rows[0], created: false };
  const protocol = await nextProtocol(sql, tenantId);
  const status = defaults.status ?? (defaults.userId ? 'open' : 'pending');
  const r = await sql.query<TicketRow>(
    `INSERT INTO tickets (tenant_id, contact_id, channel_id, queue_id, user_id, status, is_group, protocol)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [tenantId, contactId, channelId, defaults.queueId, defaults.userId, status, defaults.isGroup, protocol],
  );
  await sql.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, type, data) VALUES ($1, $2, 'created', $3)`, [tenantId, r.rows[0].id, JSON.stringify({ status, queueId: defaults.queueId, userId: defaults.userId })]);
  return { ticket: r.rows[0], created: true };
}

const LOAD_TICKET_SQL = `SELECT ${TICKET_SELECT},
       (SELECT count(*) FROM messages m WHERE m.tenant_id = t.tenant_id AND m.ticket_id = t.id AND m.status = 'pending' AND m.schedule_date IS NOT NULL)::int AS scheduled_count
     FROM tickets t ${TICKET_JOINS} WHERE t.tenant_id = $1 AND t.id = $2`;

/**
 * One ticket with everything its screens show, plugins' fields included
 * (`kernel.records`). A named statement: planning these joins took ~4 ms
 * against ~0.5 ms to run them, on every event.
 */
export async function loadTicket(kernel: Kernel, tenantId: number, ticketId: number): Promise<TicketRow | undefined> {
  const r = await kernel.db.pool.query<TicketRow>({ name: 'atende_load_ticket', text: LOAD_TICKET_SQL, values: [tenantId, ticketId] });
  return (await withPluginFields(kernel, r.rows))[0];
}

/** Loads the fields plugins keep for these tickets (of one or many tenants: one query per plugin) into each row's `ext`. */
export async function withPluginFields(kernel: Kernel, rows: TicketRow[]): Promise<TicketRow[]> {
  if (!rows.length || !kernel.records.has('ticket')) return rows;
  const values = await kernel.records.loadMany('ticket', rows.map((t) => ({ tenantId: t.tenant_id, id: t.id })));
  for (const t of rows) t.ext = values.get(t.id);
  return rows;
}

/**
 * Loads several tickets in one query (the events of an ingest batch). Same
 * columns as `loadTicket`; tickets of other tenants never match because the
 * pairs are (tenant, id).
 *
 * Deliberately not a named statement: PostgreSQL switches a named statement
 * to a generic plan on its sixth run on a connection, and on a young database
 * (tables of a few hundred rows, not yet analysed) that plan hashes a
 * sequential scan of all tickets, which then stays on that connection while
 * the table grows (B1 measured it at 17 ms per batch after 20 s). No form of
 * this join kept index lookups in the generic plan at that size; planning it
 * each time costs under 1 ms, once per batch.
 */
export async function loadTickets(kernel: Kernel, pairs: { tenantId: number; ticketId: number }[], pool: Kernel['db']['pool'] = kernel.db.pool): Promise<Map<number, TicketRow>> {
  if (!pairs.length) return new Map();
  const r = await pool.query<TicketRow>({
    text: `SELECT ${TICKET_SELECT},
       (SELECT count(*) FROM messages m WHERE m.tenant_id = t.tenant_id AND m.ticket_id = t.id AND m.status = 'pending' AND m.schedule_date IS NOT NULL)::int AS scheduled_count
     FROM tickets t ${TICKET_JOINS} WHERE (t.tenant_id, t.id) IN (SELECT * FROM unnest($1::int[], $2::int[]))`,
    values: [pairs.map((p) => p.tenantId), pairs.map((p) => p.ticketId)],
  });
  return new Map((await withPluginFields(kernel, r.rows)).map((t) => [t.id, t]));
}

/** Most items in one ingest transaction (see INGEST_BATCH_FUNCTION: subtransactions per item). */
const MAX_BATCH = 50;
/**
 * Batches in PostgreSQL at once per node. With one, the node waited for each
 * batch's round trip and WAL flush before sending the next, and PostgreSQL's
 * second core sat idle; two overlap them. Two batches can meet on a ticket or
 * a tenant's protocol counter: both take their locks in (tenant, sender)
 * order, the second waits for the first's commit, and a deadlock left is
 * retried like one with another node.
 */
const MAX_IN_FLIGHT = 2;

interface Waiting {
  msg: InboundMessage;
  item: Record<string, unknown>;
  resolve(r: IngestResult): void;
  reject(err: unknown): void;
}

/**
 * Groups concurrent inbound messages into one `atende_ingest_batch` call.
 * There is no timer: the first message goes out alone at once, and whatever
 * arrives while a batch is in PostgreSQL goes together in the next one, so a
 * quiet node answers each webhook immediately and a busy one amortises the
 * round trip and the commit over up to 50 messages. At most MAX_IN_FLIGHT
 * batches at a time per node, items sorted by (tenant, sender): concurrent
 * batches (this node's or other nodes') then take their locks in the same
 * order; the rare deadlock left (new tickets share their tenant's protocol
 * counter) is retried.
 *
 * After commit, events go out the same way: whatever batches committed while
 * the previous events were being published are published together, with one
 * ticket read for all of them. Publishing one batch at a time made the ticket
 * read (a round trip and a plan) a per-batch serial step that every webhook
 * answer waited for; under load it, not PostgreSQL's ingest, set the pace and
 * shrank the ingest batches to one or two messages.
 */
class IngestBatcher {
  private queue: Waiting[] = [];
  private inFlight = 0;
  private drainQueued = false;
  /** Committed batches whose events are not out yet, in commit order. */
  private committed: { batch: Waiting[]; rows: IngestRow[] }[] = [];
  private publishing = false;

  constructor(private readonly kernel: Kernel) {}

  submit(msg: InboundMessage): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ msg, item: itemOf(msg), resolve, reject });
      if (this.inFlight === 0) this.drain();
      else if (!this.drainQueued) {
        // The second slot waits for the end of this I/O turn, so the webhooks read in it go together.
        this.drainQueued = true;
        setImmediate(() => {
          this.drainQueued = false;
          this.drain();
        });
      }
    });
  }

  /** Starts batches while there are waiting items and fewer than MAX_IN_FLIGHT in PostgreSQL. */
  private drain() {
    while (this.queue.length && this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.queue.splice(0, MAX_BATCH);
      batch.sort((a, b) => (a.msg.tenantId - b.msg.tenantId) || lockOrder(a.msg).localeCompare(lockOrder(b.msg)));
      this.inFlight++;
      this.run(batch).then(
        (rows) => {
          // In commit order; not awaited: the next batch goes to PostgreSQL while these events are published.
          this.committed.push({ batch, rows });
          if (!this.publishing) void this.publish();
        },
        (err) => {
          for (const w of batch) w.reject(err);
        },
      ).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private async run(batch: Waiting[]): Promise<IngestRow[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        // Its own pool: a customer's message never waits for a connection behind background work (a bulk send).
        const r = await this.kernel.db.ingestPool.query<{ r: IngestRow[] }>('SELECT atende_ingest_batch($1::jsonb) AS r', [JSON.stringify(batch.map((w) => w.item))]);
        return r.rows[0].r;
      } catch (err) {
        // 40P01 deadlock, 40001 serialization: the transaction was rolled back whole, so running it again is safe.
        const code = (err as { code?: string }).code;
        if (attempt < 3 && (code === '40P01' || code === '40001')) continue;
        throw err;
      }
    }
  }

  /**
   * Publishes committed batches in commit order, all that are waiting at once.
   * Each ticket is read after its batch committed, so an event never carries
   * an older ticket state than the event before it.
   */
  private async publish() {
    this.publishing = true;
    try {
      while (this.committed.length) {
        const done = this.committed.splice(0, this.committed.length);
        const items = done.flatMap(({ batch, rows }) => batch.map((w, i) => ({ w, r: rows[i] })));
        let results: (IngestResult | Error)[];
        try {
          results = await this.afterCommit(items);
        } catch (err) {
          for (const { w } of items) w.reject(err);
          continue;
        }
        items.forEach(({ w }, i) => (results[i] instanceof Error ? w.reject(results[i]) : w.resolve(results[i] as IngestResult)));
      }
    } finally {
      this.publishing = false;
    }
  }

  /** Events and hooks once the items are durable; returns each item's result (or its error). */
  private async afterCommit(items: { w: Waiting; r: IngestRow }[]): Promise<(IngestResult | Error)[]> {
    const live = items.filter(({ w, r }) => !r.error && !r.duplicate && !r.blocked && r.message && !w.msg.history);
    const tickets = await loadTickets(this.kernel, [...new Map(live.map(({ w, r }) => [r.ticketId!, { tenantId: w.msg.tenantId, ticketId: r.ticketId! }])).values()], this.kernel.db.ingestPool);
    const publishes: Promise<unknown>[] = [];
    for (const { w, r } of live) {
      const ticket = tickets.get(r.ticketId!);
      if (!ticket) continue;
      const message = messageOut(r.message!);
      // Issued together: the bus pipelines them on one connection, in this order.
      publishes.push(this.kernel.bus.publish({ tenantId: w.msg.tenantId, event: 'message.created', data: { message, ticket: ticketOut(ticket) }, rooms: ['tenant'] }));
      publishes.push(publishTicket(this.kernel, ticket, r.created ? 'ticket.created' : 'ticket.updated'));
    }
    await Promise.all(publishes);
    // Hooks run in message order within a ticket and side by side across tickets: some hooks hold
    // a transaction on the ticket (rating attempts), and one after another across a whole batch they
    // added a commit's wait per message to every webhook answer of the batch.
    const perTicket = new Map<number, typeof live>();
    for (const x of live) perTicket.set(x.r.ticketId!, [...(perTicket.get(x.r.ticketId!) ?? []), x]);
    await Promise.all(
      [...perTicket.values()].map(async (group) => {
        for (const { w, r } of group) {
          const ticket = tickets.get(r.ticketId!);
          await this.kernel.hooks.afterInbound.run({
            tenantId: w.msg.tenantId, ticketId: r.ticketId!, contactId: r.contactId!, created: !!r.created, message: messageOut(r.message!), fromMe: !!w.msg.fromMe, ratingClosed: r.ratingClosed,
            ticket: ticket ? { channelId: ticket.channel_id, status: ticket.status, userId: ticket.user_id, chatflowId: ticket.chatflow_id, ratingRequested: !!ticket.rating_requested_at } : undefined,
          });
        }
      }),
    );
    return items.map(({ r }) => {
      if (r.error) return Object.assign(new Error(r.error), { code: r.code });
      if (r.duplicate || r.blocked || !r.message) return { duplicate: r.duplicate, contactId: r.contactId };
      return { duplicate: false, messageId: messageOut(r.message).id, ticketId: r.ticketId, contactId: r.contactId, ticketCreated: !!r.created };
    });
  }
}

/** The key the ingest function locks first for a sender: batches sort by it. */
function lockOrder(m: InboundMessage): string {
  return m.group ? `${m.group.kind}:${m.group.externalId}` : `${m.from.kind}:${m.from.externalId}`;
}

/** Earliest and how far ahead of our clock a provider's message time is believed. */
const TS_FLOOR = Date.UTC(2000, 0, 1);
const TS_SKEW_MS = 24 * 60 * 60 * 1000;

/**
 * The provider's time of a message, when it is a plausible one. A provider (or
 * whoever signs its webhooks) may send any date: one past what PostgreSQL
 * reads (`+275760-…`) failed the whole ingest batch, and a far-future one
 * would pin the ticket at the top of every list. Those take the arrival time.
 */
export function providerTime(ts: Date | undefined): string | null {
  const ms = ts?.getTime();
  if (ms === undefined || !Number.isFinite(ms) || ms < TS_FLOOR || ms > Date.now() + TS_SKEW_MS) return null;
  return new Date(ms).toISOString();
}

function itemOf(msg: InboundMessage): Record<string, unknown> {
  const type = messageTypeOf(msg.media?.mimetype, msg.type);
  const isGroup = !!msg.group;
  const data = { ...(msg.data ?? {}), ...(isGroup ? { participant: msg.from.name ?? msg.from.number ?? msg.from.externalId } : {}) };
  return {
    tenant: msg.tenantId, channel: msg.channelId, providerId: msg.providerMessageId,
    fromKind: msg.from.kind, fromExt: msg.from.externalId, fromNumber: msg.from.number ?? null, fromName: msg.from.name ?? null, fromPic: msg.from.profilePicUrl ?? null, aliases: msg.from.aliases ?? [],
    groupKind: msg.group?.kind ?? null, groupExt: msg.group?.externalId ?? null, groupName: msg.group?.name ?? null,
    fromMe: !!msg.fromMe, body: msg.body ?? '', type, mediaUrl: msg.media?.url ?? msg.media?.path ?? null, mediaName: msg.media?.name ?? null, mediaType: msg.media?.mimetype ?? null,
    ts: providerTime(msg.timestamp), quoted: msg.quotedProviderId ?? null, data, preview: previewOf(msg.body, type),
  };
}

const batchers = new WeakMap<Kernel, IngestBatcher>();

/**
 * The inbound pipeline (docs/conversations.md): dedup by (tenant, channel, provider
 * id) → contact upsert → ticket find-or-create → message row → ticket
 * counters, in one transaction inside `atende_ingest` (ingest-sql.ts),
 * batched with whatever else arrives at the same moment; events only after
 * commit. Resolves once the message is durably stored and its events are
 * published, so a webhook may answer 2xx.
 */
export function ingestInbound(kernel: Kernel, msg: InboundMessage): Promise<IngestResult> {
  let b = batchers.get(kernel);
  if (!b) batchers.set(kernel, (b = new IngestBatcher(kernel)));
  return b.submit(msg);
}

interface IngestRow {
  duplicate: boolean;
  /** Set when this item failed inside the batch (its subtransaction rolled back; the others committed). */
  error?: string;
  code?: string;
  blocked?: boolean;
  message?: MessageRow;
  ticketId?: number;
  contactId?: number;
  created?: boolean;
  ratingClosed?: boolean;
}

export function previewOf(body: string | undefined, type: string): string {
  // A signed reply previews as "Ana: texto", not with the WhatsApp bold markers and line break of its signature.
  const text = (body ?? '').trim().replace(/^\*([^*\n]+)\*:\n/, '$1: ');
  if (text) return text.length > 255 ? `${text.slice(0, 252)}...` : text;
  return { image: '📷 Imagem', video: '🎥 Vídeo', audio: '🎤 Áudio', application: '📎 Arquivo', sticker: 'Figurinha' }[type] ?? '';
}

const ACK_RANK: Record<string, number> = { pending: 0, received: 0, sent: 1, delivered: 2, read: 3, failed: 1 };

/**
 * Applies a provider status callback. Status only moves forward
 * (pending → sent → delivered → read); failed only from pending or sent.
 * Returns whether anything changed.
 */
export async function applyAck(kernel: Kernel, tenantId: number, channelId: number, providerId: string, status: AckStatus, reason?: string): Promise<boolean> {
  const r = await kernel.db.pool.query<MessageRow>(
    `UPDATE messages SET status = $4, failure_reason = CASE WHEN $4 = 'failed' THEN $5 ELSE failure_reason END, updated_at = now()
      WHERE tenant_id = $1 AND channel_id = $2 AND provider_id = $3
        AND (CASE status WHEN 'pending' THEN 0 WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 ELSE 9 END) < $6
        AND NOT ($4 = 'failed' AND status IN ('delivered','read','failed'))
      RETURNING *`,
    [tenantId, channelId, providerId, status, reason ?? null, status === 'failed' ? 2 : ACK_RANK[status]],
  );
  const m = r.rows[0];
  if (!m) return false;
  const ticket = await loadTicket(kernel, tenantId, m.ticket_id);
  if (ticket) await kernel.bus.publish({ tenantId, event: 'message.ack_updated', data: { message: messageOut(m), ticket: ticketOut(ticket) } });
  return true;
}
