import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import type { HistorySyncRequest, InboundMessage } from '../../sdk/channel.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { ingestInbound, loadTicket, previewOf } from '../conversations/ingest.ts';
import { publishTicket } from '../conversations/events.ts';
import { findTenantChannel } from '../conversations/channels.ts';
import { channelSessions } from './sessions.ts';

/** Job that imports a channel's old messages; long-lived channels get one queue per node (the node running the session). */
export const HISTORY_JOB = 'channels.history_import';
const historyJobOf = (nodeId?: string) => (nodeId ? `${HISTORY_JOB}@${nodeId}` : HISTORY_JOB);

export interface HistoryImportInput {
  channelId: number;
  from?: Date;
  to?: Date;
  limit?: number;
  queueId?: number | null;
  closeTickets?: boolean;
  groups?: boolean;
  deviceMessages?: boolean;
  contactId?: number;
}

interface HistoryJobData {
  importId: string;
  tenantId: number;
  channelId: number;
  userId: number;
  request: { from?: string; to?: string; limitPerChat?: number; groups: boolean; deviceMessages: boolean; contact?: { kind: string; externalId: string } };
  queueId: number | null;
  closeTickets: boolean;
}

/**
 * `POST /messages/syncOld` and `/messages/syncOldByUser`: checks the request
 * and queues the import as a job; progress reaches the user's room as
 * `channel.history_progress` events, and the import row keeps the outcome.
 */
export async function queueHistoryImport(kernel: Kernel, actor: ResolvedPrincipal, input: HistoryImportInput) {
  if (input.limit !== undefined && !(Number.isInteger(input.limit) && input.limit > 0)) throw new AppError('ERR_POSITIVE_LIMIT');
  if (input.from && input.to && input.from > input.to) throw new AppError('ERR_INVALID_DATE');
  const channel = await findTenantChannel(kernel, actor.tenantId, input.channelId);
  if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
  const adapter = kernel.channelAdapters.get(channel.type);
  if (!adapter?.syncHistory || !adapter.capabilities.historyImport) throw new AppError('ERR_CHANNEL_NOT_SUPPORTED', { feature: 'importação de mensagens antigas' });
  if (input.queueId) {
    const q = await kernel.db.pool.query('SELECT 1 FROM queues WHERE tenant_id = $1 AND id = $2', [actor.tenantId, input.queueId]);
    if (!q.rowCount) throw new AppError('ERR_NOT_FOUND');
  }
  let contact: HistorySyncRequest['contact'];
  if (input.contactId) {
    const c = await kernel.db.pool.query<{ external_id: string | null; number: string | null }>(
      `SELECT (SELECT external_id FROM contact_identities i WHERE i.tenant_id = c.tenant_id AND i.contact_id = c.id AND i.kind = $3 LIMIT 1) AS external_id, c.number
         FROM contacts c WHERE c.tenant_id = $1 AND c.id = $2`,
      [actor.tenantId, input.contactId, adapter.identityKind],
    );
    if (!c.rows[0]) throw new AppError('ERR_NO_CONTACT_FOUND');
    const externalId = c.rows[0].external_id ?? c.rows[0].number;
    if (!externalId) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    contact = { kind: adapter.identityKind, externalId };
  }
  let node: string | undefined;
  if (adapter.longLived) {
    // The history comes through the live session, so the import runs on the node that holds it.
    node = await channelSessions(kernel).owner(channel.id);
    if (!node) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }
  const request: HistoryJobData['request'] = {
    from: input.from?.toISOString(),
    to: input.to?.toISOString(),
    limitPerChat: input.limit,
    groups: input.groups ?? false,
    deviceMessages: input.deviceMessages ?? true,
    contact,
  };
  const row = await kernel.db.pool.query<{ id: string }>(
    `INSERT INTO channel_history_imports (tenant_id, channel_id, user_id, request) VALUES ($1, $2, $3, $4) RETURNING id`,
    [actor.tenantId, channel.id, actor.userId, JSON.stringify({ ...request, queueId: input.queueId ?? null, closeTickets: !!input.closeTickets })],
  );
  const importId = String(row.rows[0].id);
  const data: HistoryJobData = { importId, tenantId: actor.tenantId, channelId: channel.id, userId: actor.userId, request, queueId: input.queueId ?? null, closeTickets: !!input.closeTickets };
  await kernel.jobs.enqueue(historyJobOf(node), data, { jobId: `history-${importId}`, attempts: 1 });
  return { importId, status: 'queued' as const };
}

/** Defines the shared import queue (webhook channels) and, on nodes that run sessions, this node's own. */
export function defineHistoryJobs(kernel: Kernel, nodeId?: string) {
  kernel.jobs.define<HistoryJobData>(historyJobOf(nodeId), (data, job) => runImport(kernel, data, (p) => job.progress(p)), { concurrency: 2 });
}

async function runImport(kernel: Kernel, d: HistoryJobData, jobProgress: (p: Record<string, unknown>) => Promise<void>) {
  const emit = (data: Record<string, unknown>) =>
    kernel.bus.publish({ tenantId: d.tenantId, event: 'channel.history_progress', data: { importId: d.importId, channelId: d.channelId, ...data }, rooms: [`user:${d.userId}`] });
  const channel = await findTenantChannel(kernel, d.tenantId, d.channelId);
  const adapter = channel ? kernel.channelAdapters.get(channel.type) : undefined;
  const fail = async (error: string) => {
    await kernel.db.pool.query(`UPDATE channel_history_imports SET status = 'failed', error = $2, finished_at = now() WHERE id = $1`, [d.importId, error]);
    await emit({ status: 'failed', error });
    return { failed: true, error };
  };
  if (!channel || !adapter?.syncHistory) return fail('Canal não encontrado ou sem importação de histórico');
  await kernel.db.pool.query(`UPDATE channel_history_imports SET status = 'running' WHERE id = $1`, [d.importId]);
  await emit({ status: 'running', imported: 0 });

  const touched = new Set<number>();
  const created = new Set<number>();
  let imported = 0;
  let lastEmit = 0;
  const controller = new AbortController();
  const sink = {
    signal: controller.signal,
    ingest: async (m: Omit<InboundMessage, 'history' | 'tenantId' | 'channelId'>) => {
      const r = await ingestInbound(kernel, { ...m, tenantId: d.tenantId, channelId: d.channelId, history: true });
      if (!r.duplicate && r.messageId && r.ticketId) {
        imported++;
        touched.add(r.ticketId);
        if (r.ticketCreated) created.add(r.ticketId);
        // Imported messages are old: marked synced, and they do not count as unread.
        await kernel.db.pool.query(`UPDATE messages SET synced = true WHERE tenant_id = $1 AND id = $2`, [d.tenantId, r.messageId]);
        if (!m.fromMe) await kernel.db.pool.query(`UPDATE tickets SET unread_messages = GREATEST(unread_messages - 1, 0) WHERE tenant_id = $1 AND id = $2`, [d.tenantId, r.ticketId]);
      }
      return r;
    },
    progress: async (done: number, total?: number) => {
      await kernel.db.pool.query(`UPDATE channel_history_imports SET imported = $2, total = $3 WHERE id = $1`, [d.importId, done, total ?? null]);
      await jobProgress({ done, total });
      // At most a few events a second, however fast the provider streams.
      if (Date.now() - lastEmit > 250 || (total !== undefined && done >= total)) {
        lastEmit = Date.now();
        await emit({ status: 'running', imported: done, total: total ?? null });
      }
    },
  };
  try {
    await adapter.syncHistory(
      channel,
      {
        from: d.request.from ? new Date(d.request.from) : undefined,
        to: d.request.to ? new Date(d.request.to) : undefined,
        limitPerChat: d.request.limitPerChat,
        groups: d.request.groups,
        deviceMessages: d.request.deviceMessages,
        contact: d.request.contact,
      },
      sink,
    );
  } catch (err) {
    controller.abort();
    await finishTickets(kernel, d, touched, created);
    return fail(`${(err as Error).message}`.slice(0, 500) || 'Error syncing messages');
  }
  await finishTickets(kernel, d, touched, created);
  await kernel.db.pool.query(`UPDATE channel_history_imports SET status = 'done', imported = $2, finished_at = now() WHERE id = $1`, [d.importId, imported]);
  await emit({ status: 'done', imported, tickets: touched.size });
  return { imported, tickets: touched.size };
}

/** After an import: queue for tickets it opened, the real latest preview, optionally closed, and one update each to the screens. */
async function finishTickets(kernel: Kernel, d: HistoryJobData, touched: Set<number>, created: Set<number>) {
  const ids = [...touched];
  if (!ids.length) return;
  if (d.queueId && created.size) await kernel.db.pool.query(`UPDATE tickets SET queue_id = $3 WHERE tenant_id = $1 AND id = ANY($2::int[]) AND queue_id IS NULL`, [d.tenantId, [...created], d.queueId]);
  const latest = await kernel.db.pool.query<{ ticket_id: number; body: string; type: string }>(
    `SELECT DISTINCT ON (ticket_id) ticket_id, body, type FROM messages WHERE tenant_id = $1 AND ticket_id = ANY($2::int[]) AND NOT is_note ORDER BY ticket_id, timestamp DESC, id DESC`,
    [d.tenantId, ids],
  );
  for (const m of latest.rows) await kernel.db.pool.query('UPDATE tickets SET last_message = $3 WHERE tenant_id = $1 AND id = $2', [d.tenantId, m.ticket_id, previewOf(m.body, m.type)]);
  // Only tickets the import itself opened are closed: a conversation an agent is working stays as it is.
  if (d.closeTickets && created.size) {
    const closed = await kernel.db.pool.query<{ id: number }>(`UPDATE tickets SET status = 'closed', closed_at = now(), unread_messages = 0, updated_at = now() WHERE tenant_id = $1 AND id = ANY($2::int[]) AND status IN ('open','pending') RETURNING id`, [d.tenantId, [...created]]);
    if (closed.rows.length) await kernel.db.pool.query(`INSERT INTO ticket_logs (tenant_id, ticket_id, user_id, type, data) SELECT $1, unnest($2::int[]), $3, 'closed', '{"reason":"history_import"}'`, [d.tenantId, closed.rows.map((r) => r.id), d.userId]);
  }
  for (const id of ids) {
    const t = await loadTicket(kernel, d.tenantId, id);
    if (t) await publishTicket(kernel, t);
  }
}
