/**
 * Live updates of the ticket screen: the socket's ticket and message events
 * are folded into the TanStack Query caches, so every agent watching sees new
 * tickets arrive, moved tickets leave and counts follow, without refetching.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Message, MessagesPage, Ticket, TicketFilters, TicketPage, TicketStatus } from './api.ts';

export const ticketsKey = ['tickets'] as const;
export const listKey = (status: TicketStatus, filters: TicketFilters) => ['tickets', 'list', status, filters] as const;
export const ticketKey = (id: number) => ['tickets', 'one', id] as const;
export const messagesKey = (id: number, spy: boolean) => ['tickets', 'messages', id, spy] as const;

/** Last status seen of each ticket, to move counts from one tab to another. */
const lastStatus = new Map<number, string>();
/** Last `updatedAt` seen of each ticket. */
const lastUpdated = new Map<number, string>();
/**
 * The version of each ticket that left the user's sight (`ticket.removed` carries it): an HTTP answer
 * about that same version, arriving after the event (the PUT of the transfer that moved it away),
 * must not put it back in the list.
 */
const removedAt = new Map<number, string>();

export function rememberStatuses(tickets: Ticket[]): void {
  for (const t of tickets) lastStatus.set(t.id, t.status);
}

function matches(t: Ticket, status: TicketStatus, f: TicketFilters): boolean {
  if (t.status !== status) return false;
  return matchesFilters(t, f);
}

function matchesFilters(t: Ticket, f: TicketFilters): boolean {
  const term = f.searchParam.trim().toLowerCase();
  if (term) {
    const name = (t.contact?.name ?? t.name ?? '').toLowerCase();
    const digits = term.replace(/\D/g, '');
    const byNumber = digits.length >= 3 && (t.contact?.number ?? '').includes(digits);
    if (!name.includes(term) && !byNumber && t.protocol !== f.searchParam.trim()) return false;
  }
  if (f.queuesIds.length && t.queueId !== null && !f.queuesIds.includes(t.queueId)) return false;
  if (f.whatsappIds.length && (t.channelId === null || !f.whatsappIds.includes(t.channelId))) return false;
  if (f.withUnreadMessages && !(t.unreadMessages > 0)) return false;
  if (f.isNotAssignedUser && t.userId !== null) return false;
  return true;
}

const byRecent = (a: Ticket, b: Ticket) => (a.lastMessageAt < b.lastMessageAt ? 1 : a.lastMessageAt > b.lastMessageAt ? -1 : b.id - a.id);
/** Pendentes: the longest wait first, as the server orders it. */
const byWait = (a: Ticket, b: Ticket) => {
  const x = a.waitingSince ?? a.createdAt ?? a.lastMessageAt;
  const y = b.waitingSince ?? b.createdAt ?? b.lastMessageAt;
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};

type CountKey = 'open' | 'pending' | 'closed';
const isCountKey = (s: string | undefined): s is CountKey => s === 'open' || s === 'pending' || s === 'closed';

/** Folds a created or updated ticket into every cached list; `removed` drops it (it left the user's sight). */
export function applyTicket(qc: QueryClient, ticket: Ticket | { id: number; updatedAt?: string }, removed = false): void {
  // An HTTP answer can arrive after a newer socket event about the same ticket: never go back in time.
  const stamp = removed ? undefined : (ticket as Ticket).updatedAt;
  const seen = lastUpdated.get(ticket.id);
  if (stamp && seen && stamp < seen) return;
  const gone = removedAt.get(ticket.id);
  if (stamp && gone && stamp <= gone) return;
  if (removed && ticket.updatedAt) removedAt.set(ticket.id, ticket.updatedAt);
  else if (stamp) removedAt.delete(ticket.id);
  if (stamp) lastUpdated.set(ticket.id, stamp);
  const prev = lastStatus.get(ticket.id);
  const full = removed ? undefined : (ticket as Ticket);
  for (const [key, data] of qc.getQueriesData<InfiniteData<TicketPage>>({ queryKey: ['tickets', 'list'] })) {
    if (!data?.pages.length) continue;
    const status = key[2] as TicketStatus;
    const filters = key[3] as TicketFilters;
    let found = false;
    const pages = data.pages.map((p) => {
      const rest = p.tickets.filter((t) => t.id !== ticket.id);
      if (rest.length !== p.tickets.length) found = true;
      return rest.length === p.tickets.length ? p : { ...p, tickets: rest };
    });
    const inTab = full ? matches(full, status, filters) : false;
    const first = pages[0]!;
    let tickets = first.tickets;
    if (full && inTab) tickets = [full, ...tickets].sort(status === 'pending' ? byWait : byRecent);
    let counts = first.counts;
    const sameFilters = full ? matchesFilters(full, filters) : true;
    if (sameFilters && counts) {
      const next = removed ? undefined : full?.status;
      if (prev !== next) {
        counts = { ...counts };
        if (isCountKey(prev) && (prev !== 'closed' || !counts.closedCapped)) counts[prev] = Math.max(0, counts[prev] - 1);
        if (isCountKey(next) && (next !== 'closed' || !counts.closedCapped)) counts[next] += 1;
      }
    }
    if (!found && !inTab && counts === first.counts) continue;
    pages[0] = { ...first, tickets, counts };
    qc.setQueryData<InfiniteData<TicketPage>>(key, { ...data, pages });
  }
  if (full) {
    lastStatus.set(ticket.id, full.status);
    qc.setQueryData(ticketKey(ticket.id), (old: Ticket | undefined) => (old ? { ...old, ...full } : full));
  } else {
    lastStatus.delete(ticket.id);
    // The user may no longer see it (force-closed, given to someone else): a conversation open on it asks the
    // server again and shows what it answers, instead of the state it had when it left the user's view.
    void qc.invalidateQueries({ queryKey: ticketKey(ticket.id) });
  }
}

const RANK: Record<string, number> = { pending: 0, sent: 1, delivered: 2, read: 3, received: 3 };

/**
 * The POST answer (status pending) can arrive after the socket's ack (sent,
 * delivered, or failed when the provider refused at once): an ack never goes
 * backwards, except to failed; a failed message goes back to pending only by
 * the answer to its own retry.
 */
function merge(old: Message, next: Message, retried: boolean): Message {
  const out = { ...old, ...next };
  const stale = old.status === 'failed' ? !retried && next.status === 'pending' : next.status !== 'failed' && (RANK[old.status] ?? -1) > (RANK[next.status] ?? -1);
  if (stale) {
    out.status = old.status;
    out.failureReason = old.failureReason;
    out.errorCode = old.errorCode;
  }
  return out;
}

/** Adds or replaces a message in the open conversation caches of its ticket (`retried`: the answer to a retry of a failed send). */
export function applyMessage(qc: QueryClient, message: Message, opts: { retried?: boolean } = {}): void {
  for (const [key, data] of qc.getQueriesData<InfiniteData<MessagesPage>>({ queryKey: ['tickets', 'messages', message.ticketId] })) {
    if (!data?.pages.length) {
      // The conversation's first page is still on its way and may have been read before this message was
      // written: ask again rather than lose it (the answer in flight is dropped).
      if (qc.getQueryState(key)?.fetchStatus === 'fetching') void qc.invalidateQueries({ queryKey: key, exact: true });
      continue;
    }
    let replaced = false;
    const pages = data.pages.map((p) => {
      if (!p.messages.some((m) => m.id === message.id)) return p;
      replaced = true;
      return { ...p, messages: p.messages.map((m) => (m.id === message.id ? merge(m, message, opts.retried === true) : m)) };
    });
    if (!replaced) {
      if (message.scheduleDate && message.status === 'pending') {
        const first = pages[0]!;
        if (!first.messagesOffLine?.some((m) => m.id === message.id)) pages[0] = { ...first, messagesOffLine: [...(first.messagesOffLine ?? []), message] };
      } else {
        const first = pages[0]!;
        pages[0] = { ...first, messages: [...first.messages, message] };
      }
    }
    // A scheduled message that was sent leaves the scheduled list.
    pages[0] = { ...pages[0]!, messagesOffLine: (pages[0]!.messagesOffLine ?? []).filter((m) => m.id !== message.id || (m.status === 'pending' && message.status === 'pending')) };
    qc.setQueryData(key, { ...data, pages });
  }
}
