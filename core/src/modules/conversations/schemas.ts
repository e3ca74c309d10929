import { z } from 'zod';
import { isoDate } from '../../sdk/contract.ts';
import { INTEGRATION_FIELDS } from './serialize.ts';

/**
 * Answer schemas of the conversation routes, one per serialiser of
 * `serialize.ts` (`ticketOut`, `messageOut`): the response serializer writes
 * only the fields declared here, so each follows its serialiser line by line.
 */

/**
 * An instant as a handler holds it: a `Date` from a PostgreSQL row (written
 * as an ISO string by JSON.stringify, documented as `date-time`) or an ISO
 * string already (rows built in SQL with `to_char`/JSON, events replayed).
 */
export const instant = z.union([z.date(), isoDate]);

const int = z.number().int();

/** A tag as tickets and contacts carry it. */
export const tagRef = z.object({ id: int, name: z.string(), color: z.string() });

const integrationFields = Object.fromEntries(INTEGRATION_FIELDS.map((f) => [f, z.boolean()])) as Record<(typeof INTEGRATION_FIELDS)[number], z.ZodBoolean>;

/** `ticketOut`. */
export const ticketSchema = z
  .object({
    id: int,
    status: z.string(),
    queueId: int.nullable(),
    userId: int.nullable(),
    whatsappId: int.nullable(),
    channelId: int.nullable(),
    contactId: int,
    isGroup: z.boolean(),
    chatbot: z.boolean(),
    chatFlowId: int.nullable(),
    unreadMessages: int,
    lastMessage: z.string().nullable(),
    lastMessageAt: instant,
    updatedAt: instant,
    createdAt: instant,
    closedAt: instant.nullable(),
    answered: z.boolean(),
    protocol: z.string().nullable(),
    demand: z.string().nullable(),
    value: z.number().nullable(),
    notes: z.string().nullable(),
    rating: int.nullable(),
    ratingRequested: z.boolean(),
    // The contact's lane, kept by the kanban plugin (`ctx.records.extend('ticket')`); null without it.
    kanban: int.nullable(),
    tags: z.array(tagRef),
    contact: z.object({ id: int, name: z.string(), number: z.string().nullable(), profilePicUrl: z.string().nullable(), wallets: z.array(int) }).optional(),
    name: z.string().optional(),
    username: z.string().nullable(),
    user: z.object({ id: int, name: z.string().nullable() }).nullable(),
    channel: z.string().nullable(),
    channelName: z.string().nullable(),
    queue: z.object({ id: int, name: z.string().nullable(), color: z.string().nullable() }).nullable(),
    scheduledMessages: int,
    // How long the customer has waited and the queue's SLA deadlines (U2 "wait time").
    waitingSince: instant.nullable(),
    firstResponseAt: instant.nullable(),
    sla: z.object({ firstResponseDueAt: instant.nullable(), resolutionDueAt: instant.nullable() }).nullable(),
    ...integrationFields,
  })
  // Open: any plugin may add its own fields to tickets (`ctx.records.extend('ticket')`, merged from
  // `ext` by `ticketOut`); the kernel cannot know their names, and dropping them would hide them from the screens.
  .catchall(z.unknown());

/** `messageOut`. */
export const messageSchema = z.object({
  id: z.string(),
  ticketId: int,
  contactId: int.nullable(),
  userId: int.nullable(),
  fromMe: z.boolean(),
  isNote: z.boolean(),
  body: z.string(),
  type: z.string(),
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaType: z.string().nullable(),
  status: z.string(),
  ack: int,
  failureReason: z.string().nullable(),
  quotedMsgId: z.string().nullable(),
  scheduleDate: instant.nullable(),
  recurrence: int.nullable(),
  repetitions: int.nullable(),
  edited: z.boolean(),
  deletedAt: instant.nullable(),
  isDeleted: z.boolean(),
  synced: z.boolean(),
  reactions: z.array(z.object({ emoji: z.string(), by: z.string(), fromMe: z.boolean() })),
  participant: z.string().nullable(),
  forwarded: z.boolean(),
  // A line the system wrote (a transfer: from, to, by, note), worded by each screen (serialize.ts); without it here the
  // answer drops it and the line shows as a plain internal note.
  system: z.record(z.string(), z.unknown()).optional(),
  errorCode: z.string().nullable(),
  template: z.object({ name: z.string(), language: z.string() }).optional(),
  timestamp: instant,
  createdAt: instant,
});

/** `listTickets`. */
export const ticketPage = z.object({
  tickets: z.array(ticketSchema),
  count: int,
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
  counts: z.object({ open: int, pending: int, closed: int, closedCapped: z.boolean() }),
  unread: z.object({ open: int, pending: int }),
});

/** A row of a ticket's history (`ticket_logs`). */
/** One side of a transfer named for the history (the ids stay in `data`). */
const logSide = z.object({ userName: z.string().nullable(), queueName: z.string().nullable() });
export const ticketLog = z.object({
  id: int,
  type: z.string(),
  data: z.record(z.string(), z.unknown()).nullable(),
  createdAt: instant,
  userId: int.nullable(),
  userName: z.string().nullable(),
  from: logSide.optional(),
  to: logSide.optional(),
});

/** Bulk actions: how many succeeded and which failed with which catalogue code. */
export const bulkFailures = z.array(z.object({ id: int, error: z.string() }));

/** `listMessages`. */
export const messagePage = z.object({ messages: z.array(messageSchema), messagesOffLine: z.array(messageSchema), hasMore: z.boolean(), ticket: ticketSchema });
