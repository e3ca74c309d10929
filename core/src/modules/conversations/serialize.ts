/** Row shapes of the hot-path SQL and their API (spec) representation. */

export interface TicketRow {
  id: number;
  tenant_id: number;
  contact_id: number;
  channel_id: number | null;
  queue_id: number | null;
  user_id: number | null;
  status: string;
  is_group: boolean;
  chatbot: boolean;
  chatflow_id: number | null;
  unread_messages: number;
  last_message: string | null;
  last_message_at: Date;
  answered: boolean;
  protocol: string | null;
  demand: string | null;
  value: string | null;
  notes: string | null;
  rating: number | null;
  integrations: Record<string, boolean>;
  rating_requested_at: Date | null;
  farewell_sent_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  waiting_since?: Date | null;
  first_response_at?: Date | null;
  // joined
  contact_name?: string;
  contact_number?: string | null;
  contact_pic?: string | null;
  contact_wallets?: number[] | null;
  contact_tags?: { id: number; name: string; color: string }[] | null;
  user_name?: string | null;
  channel_type?: string | null;
  channel_name?: string | null;
  queue_name?: string | null;
  queue_color?: string | null;
  queue_sla_first?: number | null;
  queue_sla_resolution?: number | null;
  scheduled_count?: number;
  /** Fields plugins keep for the ticket (`kernel.records`, loaded by the ticket loaders). */
  ext?: Record<string, unknown>;
}

/** Integration status fields a ticket carries, one per bot/AI integration (spec §3). */
export const INTEGRATION_FIELDS = [
  'difyStatus', 'lmStatus', 'geminiStatus', 'deepseekStatus', 'qwenStatus', 'claudeStatus',
  'grokStatus', 'ollamaStatus', 'n8nStatus', 'typebotStatus', 'dialogflowStatus', 'chatgptStatus',
] as const;

export function ticketOut(t: TicketRow) {
  const integrations = Object.fromEntries(INTEGRATION_FIELDS.map((f) => [f, t.integrations?.[f] ?? false])) as Record<(typeof INTEGRATION_FIELDS)[number], boolean>;
  return {
    id: t.id,
    status: t.status,
    queueId: t.queue_id,
    userId: t.user_id,
    whatsappId: t.channel_id,
    channelId: t.channel_id,
    contactId: t.contact_id,
    isGroup: t.is_group,
    chatbot: t.chatbot,
    chatFlowId: t.chatflow_id,
    unreadMessages: t.unread_messages,
    lastMessage: t.last_message,
    lastMessageAt: t.last_message_at,
    updatedAt: t.updated_at,
    createdAt: t.created_at,
    closedAt: t.closed_at,
    answered: t.answered,
    protocol: t.protocol,
    demand: t.demand,
    value: t.value === null ? null : Number(t.value),
    notes: t.notes,
    rating: t.rating,
    ratingRequested: !!t.rating_requested_at,
    // The contact's lane: a field of the spec a plugin fills (`ext`), null without it.
    kanban: null as number | null,
    tags: t.contact_tags ?? [],
    contact:
      t.contact_name !== undefined
        ? { id: t.contact_id, name: t.contact_name, number: t.contact_number ?? null, profilePicUrl: t.contact_pic ?? null, wallets: t.contact_wallets ?? [] }
        : undefined,
    name: t.contact_name,
    username: t.user_name ?? null,
    user: t.user_id ? { id: t.user_id, name: t.user_name ?? null } : null,
    channel: t.channel_type ?? null,
    channelName: t.channel_name ?? null,
    queue: t.queue_id ? { id: t.queue_id, name: t.queue_name ?? null, color: t.queue_color ?? null } : null,
    scheduledMessages: t.scheduled_count ?? 0,
    waitingSince: t.waiting_since ?? null,
    firstResponseAt: t.first_response_at ?? null,
    sla: slaOf(t),
    ...integrations,
    ...t.ext,
  };
}

export type TicketOut = ReturnType<typeof ticketOut>;

const addMinutes = (d: Date, m: number) => new Date(d.getTime() + m * 60_000);

/**
 * The ticket's SLA deadlines from its queue's targets: the first response is due
 * `sla_first_response_minutes` after the customer started waiting (until an agent
 * answers), the resolution `sla_resolution_minutes` after it (until it is closed).
 * Null when the queue sets no target or the clock has stopped.
 */
export function slaOf(t: TicketRow): { firstResponseDueAt: Date | null; resolutionDueAt: Date | null } | null {
  if (!t.queue_sla_first && !t.queue_sla_resolution) return null;
  const active = t.status === 'open' || t.status === 'pending';
  const since = t.waiting_since ?? t.created_at;
  return {
    firstResponseDueAt: active && t.queue_sla_first && !t.first_response_at ? addMinutes(since, t.queue_sla_first) : null,
    resolutionDueAt: active && t.queue_sla_resolution ? addMinutes(since, t.queue_sla_resolution) : null,
  };
}

export interface MessageRow {
  id: string;
  tenant_id: number;
  ticket_id: number;
  contact_id: number | null;
  channel_id: number | null;
  user_id: number | null;
  provider_id: string | null;
  from_me: boolean;
  is_note: boolean;
  body: string;
  type: string;
  media_url: string | null;
  media_name: string | null;
  media_type: string | null;
  status: string;
  failure_reason: string | null;
  quoted_id: string | null;
  schedule_date: Date | null;
  recurrence_days: number | null;
  repetitions: number | null;
  edited: boolean;
  deleted_at: Date | null;
  synced: boolean;
  reactions: { emoji: string; by: string; fromMe: boolean }[];
  data: Record<string, unknown>;
  timestamp: Date;
  created_at: Date;
  updated_at?: Date;
}

export function messageOut(m: MessageRow) {
  return {
    id: String(m.id),
    ticketId: m.ticket_id,
    contactId: m.contact_id,
    userId: m.user_id,
    fromMe: m.from_me,
    isNote: m.is_note,
    body: m.deleted_at ? '' : m.body,
    type: m.type,
    mediaUrl: m.deleted_at ? null : m.media_url,
    mediaName: m.media_name,
    mediaType: m.media_type,
    status: m.status,
    ack: ({ pending: 0, sent: 1, delivered: 2, read: 3, received: 3, failed: -1 } as Record<string, number>)[m.status] ?? 0,
    failureReason: m.failure_reason,
    quotedMsgId: m.quoted_id ? String(m.quoted_id) : null,
    scheduleDate: m.schedule_date,
    recurrence: m.recurrence_days,
    repetitions: m.repetitions,
    edited: m.edited,
    deletedAt: m.deleted_at,
    isDeleted: !!m.deleted_at,
    synced: m.synced,
    reactions: m.reactions ?? [],
    participant: (m.data?.participant as string | undefined) ?? null,
    // Forwarded by an agent (POST /forward-messages) or, inbound, marked so by the provider: the bubble says "Encaminhada".
    forwarded: m.data?.forwarded === true,
    // A line the system wrote in the conversation (a transfer): its parts, worded by each screen.
    ...(m.type === 'system' ? { system: m.data } : {}),
    /** The catalogue code of a failed send (ChannelError.code), beside the provider's reason in `failureReason`. */
    errorCode: m.status === 'failed' ? ((m.data?.errorCode as string | undefined) ?? null) : null,
    // A template send names its template, so the conversation can label the bubble (the body is its filled-in text).
    ...(m.data?.template ? { template: { name: (m.data.template as { name: string }).name, language: (m.data.template as { language: string }).language } } : {}),
    timestamp: m.timestamp,
    createdAt: m.created_at,
  };
}

export type MessageOut = ReturnType<typeof messageOut>;

/** The columns and joins that turn a ticket row into its list representation. */
export const TICKET_SELECT = `
  t.*, c.name AS contact_name, c.number AS contact_number, c.profile_pic_url AS contact_pic,
  u.name AS user_name, ch.type AS channel_type, ch.name AS channel_name, q.name AS queue_name, q.color AS queue_color,
  q.sla_first_response_minutes AS queue_sla_first, q.sla_resolution_minutes AS queue_sla_resolution,
  (SELECT coalesce(json_agg(w.user_id), '[]') FROM contact_wallets w WHERE w.tenant_id = t.tenant_id AND w.contact_id = t.contact_id) AS contact_wallets,
  (SELECT coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) ORDER BY g.name), '[]')
     FROM contact_tags ct JOIN tags g ON g.id = ct.tag_id WHERE ct.tenant_id = t.tenant_id AND ct.contact_id = t.contact_id) AS contact_tags`;

export const TICKET_JOINS = `
  JOIN contacts c ON c.id = t.contact_id
  LEFT JOIN users u ON u.id = t.user_id
  LEFT JOIN channels ch ON ch.id = t.channel_id
  LEFT JOIN queues q ON q.id = t.queue_id`;
