/** Types and calls of the ticket screen (core.md §7 "Tickets" and "Messages"). */
import { api, type ComposerTemplate, type QueryValue } from '@atende/ui-shell/sdk';

export type TicketStatus = 'open' | 'pending' | 'closed';

export interface TicketContact {
  id: number;
  name: string;
  number: string | null;
  profilePicUrl: string | null;
  wallets?: number[];
}

export interface Ticket {
  id: number;
  status: TicketStatus | 'schedule';
  userId: number | null;
  queueId: number | null;
  channelId: number | null;
  contactId: number;
  contact?: TicketContact;
  name?: string;
  unreadMessages: number;
  lastMessage: string | null;
  lastMessageAt: string;
  updatedAt?: string;
  channel: string | null;
  channelName: string | null;
  queue: { id: number; name: string | null; color: string | null } | null;
  username: string | null;
  protocol: string | null;
  tags: { id: number; name: string; color: string }[];
  isGroup: boolean;
  ratingRequested: boolean;
  notes: string | null;
  demand: string | null;
  kanban?: number | null;
  scheduledMessages?: number;
  createdAt?: string;
  /** Since when the customer waits for an agent (set when the ticket last became pending). */
  waitingSince?: string | null;
  firstResponseAt?: string | null;
  /** Deadlines from the queue's SLA targets; null when the queue sets none. */
  sla?: { firstResponseDueAt: string | null; resolutionDueAt: string | null } | null;
}

export interface TicketCounts { open: number; pending: number; closed: number; closedCapped?: boolean }

export interface TicketPage {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
  nextCursor: string | null;
  counts: TicketCounts;
  unread?: { open: number; pending: number };
}

export interface TicketFilters {
  searchParam: string;
  queuesIds: number[];
  whatsappIds: number[];
  withUnreadMessages: boolean;
  isNotAssignedUser: boolean;
  showAll: boolean;
}

export const EMPTY_FILTERS: TicketFilters = { searchParam: '', queuesIds: [], whatsappIds: [], withUnreadMessages: false, isNotAssignedUser: false, showAll: false };

export type MessageStatus = 'pending' | 'sent' | 'delivered' | 'read' | 'received' | 'failed';

/** The parts of a transfer line (type 'system'), from the server. */
export interface SystemLineData { system: 'transfer'; from: { queue: string | null; user: string | null }; to: { queue: string | null; user: string | null }; by: string | null; note: string | null }

export type PresenceStatus = 'online' | 'paused' | 'offline';
export interface PresenceUser { id: number; name: string; profile: string; queues: number[]; status: PresenceStatus; pauseReason: string | null; since: string; openTickets: number; pendingTickets: number }
export const listPresence = (queueId?: number | null) => api.get<{ users: PresenceUser[] }>('/presence', { query: { queueId: queueId ?? undefined }, silent: true, background: true });

export interface Message {
  system?: SystemLineData;
  id: string;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  fromMe: boolean;
  isNote: boolean;
  body: string;
  type: string;
  mediaUrl: string | null;
  mediaName: string | null;
  mediaType: string | null;
  status: MessageStatus;
  failureReason: string | null;
  /** The catalogue code of a failed send (e.g. ERR_SENDING_WAPP_MSG), beside the provider's reason. */
  errorCode?: string | null;
  /** Forwarded from another conversation (by an agent, or by the customer on WhatsApp). */
  forwarded?: boolean;
  quotedMsgId: string | null;
  quotedMsg?: Partial<Message> | null;
  scheduleDate: string | null;
  edited: boolean;
  isDeleted: boolean;
  reactions: { emoji: string; by: string; fromMe: boolean }[];
  participant?: string | null;
  /** A provider template send (WhatsApp): which template; `body` is its text as the customer got it. */
  template?: { name: string; language: string };
  timestamp: string;
  createdAt: string;
  /** Client side only: an optimistic message waiting for (or failed at) the server. */
  /** `after`: the newest server message id known when it was sent; only newer ones can be its saved copy. */
  local?: { state: 'sending' | 'failed'; payload: SendPayload; file?: File; error?: string; after?: number };
}

export interface MessagesPage { messages: Message[]; hasMore: boolean; messagesOffLine: Message[]; ticket?: Ticket }

export interface SendPayload {
  body: string;
  quotedMsgId?: string;
  isNote?: boolean;
  scheduleDate?: string;
  recurrence?: number;
  repetitions?: number;
  /** A provider template (ChannelComposer.tsx); the server stores the template's own text as the body. */
  template?: ComposerTemplate;
  /** The server puts `*Agent name*:` on a line of its own before the text (always, when the tenant forces it). */
  signMessage?: boolean;
}

export interface QuickMessage { id: number; key: string; message: string; mediaUrl: string | null; asAudio?: boolean }
export interface Queue { id: number; name: string; color: string | null }
export interface UserLite { id: number; name: string; profile?: string; queues?: unknown[] }
export interface Channel { id: number; name: string; type: string; status?: string }
export interface Contact { id: number; name: string; number: string | null; email?: string | null; profilePicUrl?: string | null; blocked?: boolean; tags?: { id: number; name: string; color: string }[]; wallets?: unknown[] }
export interface LogSide { userName: string | null; queueName: string | null }
export interface TicketLog { id: number; type: string; data: Record<string, unknown> | null; createdAt: string; userId: number | null; userName: string | null; from?: LogSide; to?: LogSide }

export function filtersQuery(status: TicketStatus, f: TicketFilters): Record<string, QueryValue> {
  return {
    status,
    searchParam: f.searchParam.trim() || undefined,
    queuesIds: f.queuesIds.length ? f.queuesIds : undefined,
    whatsappIds: f.whatsappIds.length ? f.whatsappIds : undefined,
    withUnreadMessages: f.withUnreadMessages || undefined,
    isNotAssignedUser: f.isNotAssignedUser || undefined,
    showAll: f.showAll || undefined,
  };
}

export const listTickets = (status: TicketStatus, f: TicketFilters, cursor: string | undefined, signal?: AbortSignal) =>
  api.get<TicketPage>('/tickets', { query: { ...filtersQuery(status, f), cursor, limit: 50 }, signal, background: !!cursor });
/** `PUT /ticketsForce/:id`: an admin closes at once, without farewell or rating request. */
export const forceCloseTicket = (id: number) => api.put<Ticket>(`/ticketsForce/${id}`, {}, { silent: true });
/** `GET /ticketsMarkAllUnread`: every open or pending ticket the user can see becomes read. */
export const markAllRead = () => api.get<{ marked: number }>('/ticketsMarkAllUnread', { silent: true });
export const getTicket = (id: number, signal?: AbortSignal) => api.get<Ticket>(`/tickets/${id}`, { signal, silent: true });
export const getLogs = (id: number) => api.get<TicketLog[]>(`/tickets/${id}/logs`);
export const updateTicket = (id: number, body: Record<string, unknown>) => api.put<Ticket>(`/tickets/${id}`, body, { silent: true });
export const createTicket = (body: { contactId: number; channelId?: number | null; status?: 'open' | 'pending' }) => api.post<Ticket>('/tickets', body, { silent: true });
export const getMessages = (ticketId: number, before: string | undefined, spy: boolean, signal?: AbortSignal) =>
  api.get<MessagesPage>(`/messages/${ticketId}`, { query: { before, spy: spy || undefined }, signal, background: !!before });
export const sendMessage = (ticketId: number, p: SendPayload, file?: File | Blob, fileName?: string) => {
  if (!file) return api.post<Message>(`/messages/${ticketId}`, p, { silent: true });
  const form = new FormData();
  form.append('body', p.body);
  if (p.quotedMsgId) form.append('quotedMsgId', p.quotedMsgId);
  if (p.isNote) form.append('isNote', 'true');
  if (p.signMessage) form.append('signMessage', 'true');
  form.append('file', file, fileName ?? (file instanceof File ? file.name : 'arquivo'));
  return api.post<Message>(`/messages/${ticketId}`, form, { silent: true, timeoutMs: 120_000 });
};
export const editMessage = (id: string, body: string) => api.patch<Message>(`/messages/${id}`, { body });
export const deleteMessage = (id: string) => api.delete<unknown>(`/messages/${id}`);
/** `POST /messages/:id/retry`: sends a reply the provider refused once more (the same message). */
export const retryMessage = (id: string) => api.post<Message>(`/messages/${id}/retry`, {}, { silent: true });
export const reactMessage = (messageId: string, emoji: string) => api.post<unknown>('/messages/reactionMessage', { messageId, emoji });
export const forwardMessages = (messages: string[], contact: number) => api.post<unknown>('/forward-messages', { messages, contact });
export const searchMessages = (ticketId: number, searchParam: string) => api.get<Message[] | { messages: Message[] }>('/searchMessage', { query: { ticketId, searchParam } });
export const listQuickMessages = () => api.get<QuickMessage[]>('/quick-messages', { background: true });
export const resolveQuickMessage = (text: string) => api.get<QuickMessage>('/quick-messages/resolve', { query: { text }, silent: true });
export const searchContacts = (searchParam: string, signal?: AbortSignal) =>
  api.get<{ contacts: Contact[] } | Contact[]>('/contacts', { query: { searchParam }, signal, background: true });
export const getContact = (id: number) => api.get<Contact>(`/contacts/${id}`, { silent: true });
/** Blocks or unblocks a contact (PUT /contacts/:id/block): a blocked contact's messages are ignored. */
export const setContactBlocked = (id: number, blocked: boolean) => api.put<Contact>(`/contacts/${id}/block`, { blocked });
export const listQueues = () => api.get<Queue[] | { queues: Queue[] }>('/queues', { background: true });
export const listUsers = (search?: string) => api.get<UserLite[] | { users: UserLite[] }>('/users', { query: { searchParam: search || undefined }, silent: true, background: true });
export const listChannels = () => api.get<Channel[] | { channels: Channel[] }>('/channels', { background: true });
/** Saved farewell texts of the farewells plugin (404 while the tenant has it off: the dialog then hides the picker). */
export const listFarewells = () => api.get<{ id: number; message: string }[]>('/plugins/farewells/farewells', { silent: true, background: true });
/** The tenant's rating settings (`GET /tenants/rating`): the resolve dialog offers the rating request only when enabled. */
export const getRatingConfig = () => api.get<{ enabled: boolean }>('/tenants/rating', { silent: true, background: true });
export const listDemands = () => api.get<{ id: number; name: string }[] | { demands: { id: number; name: string }[] }>('/plugins/demands/demands', { silent: true, background: true });

/** Lists answered either bare or wrapped (`{users: [...]}`). */
export function unwrap<T>(v: T[] | Record<string, unknown> | undefined, key: string): T[] {
  if (!v) return [];
  if (Array.isArray(v)) return v;
  const inner = (v as Record<string, unknown>)[key];
  return Array.isArray(inner) ? (inner as T[]) : [];
}
