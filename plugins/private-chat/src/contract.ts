/**
 * What the private chat's server part and its screen share: conversations,
 * messages and the plugin's events (core.md §2 `/chat-privado`, §3 "Private
 * chat: users list (id, timestamp or date, isOnline), groups list, unread
 * count, notification count").
 */
import { defineContract, isoDate, positiveId, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

export const userParam = z.object({ userId: positiveId });
export const teamParam = z.object({ teamId: positiveId });
/** `before`: the id of the oldest message already shown, to page back. */
export const historyQuery = z.object({ before: z.coerce.number().int().positive().optional() }).strict();
/** An empty (or blank) message answers `ERR_INVALID_MESSAGE`. */
export const messageBody = z.object({ body: z.string().max(4000).optional() }).strict();

export const message = z.object({
  id: z.number().int(),
  fromUserId: z.number().int(),
  fromName: z.string().nullable(),
  toUserId: z.number().int().nullable(),
  teamId: z.number().int().nullable(),
  body: z.string(),
  readAt: isoDate.nullable(),
  createdAt: isoDate,
});
export type ChatMessage = z.output<typeof message>;

/** A colleague in the users tab: name and presence only (their e-mail address stays with the users screen). */
export const chatUser = z.object({
  id: z.number().int(),
  name: z.string(),
  isOnline: z.boolean(),
  lastSeenAt: isoDate.nullable(),
  unread: z.number().int(),
  lastMessage: z.string().nullable(),
  lastMessageAt: isoDate.nullable(),
  lastMessageFromMe: z.boolean(),
});
export type ChatUser = z.output<typeof chatUser>;

export const chatTeam = z.object({
  id: z.number().int(),
  name: z.string(),
  members: z.number().int(),
  unread: z.number().int(),
  lastMessage: z.string().nullable(),
  lastMessageAt: isoDate.nullable(),
  lastMessageFrom: z.string().nullable(),
});
export type ChatTeam = z.output<typeof chatTeam>;

export const conversations = z.object({
  users: z.array(chatUser),
  teams: z.array(chatTeam),
  /** Unread messages in all conversations. */
  unreadCount: z.number().int(),
  /** Conversations holding unread messages. */
  notificationCount: z.number().int(),
  /** How many messages a conversation loads (`internalChatMessageLimit`). */
  messageLimit: z.number().int(),
});
export type Conversations = z.output<typeof conversations>;

export const history = z.object({ messages: z.array(message), hasMore: z.boolean(), limit: z.number().int() });

export const contract = defineContract({
  id: 'private-chat',
  events: {
    /** To the rooms of the two people, or of every member of the team (then with `teamName`). */
    'private_message.created': message.extend({ teamName: z.string().optional() }),
    /** The reader's other tabs and, one-to-one, the sender learn the messages were read. */
    'private_message.read': z.union([
      z.object({ readerId: z.number().int(), userId: z.number().int(), count: z.number().int() }),
      z.object({ readerId: z.number().int(), teamId: z.number().int() }),
    ]),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}
