/**
 * "A customer is waiting" (issue U2): page-wide, whatever screen is open.
 *
 * - The tab title and the favicon carry how many things wait for the user:
 *   the sum of the menu badges (`attentionAtom`), e.g. tickets with unread
 *   messages plus unread internal-chat messages.
 * - New tickets and customer messages play a sound (unless the user muted it
 *   in the user menu) and, while the page is in the background, show a desktop
 *   notification that opens the ticket when clicked.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import {
  accessQuery, api, attentionAtom, desktopNotify, getSession, menuAllowed, pageWatched, playSound, sessionAtom, useAttention, useRealtime,
} from '@atende/ui-shell/sdk';

/** What the alerts read of a ticket and a message in real-time frames. */
interface TicketFacts {
  id: number;
  status: string;
  userId: number | null;
  name?: string;
  contact?: { name?: string | null } | null;
  lastMessage?: string | null;
  unreadMessages?: number;
}
interface MessageFacts {
  ticketId: number;
  fromMe: boolean;
  isNote: boolean;
  body: string;
  type: string;
  mediaName?: string | null;
}

const TITLE_COUNT = /^\(\d+\+?\) /;

/** The tab title with the count in front, as messaging apps do: "(3) Atende". */
export function titleWithCount(title: string, count: number): string {
  const base = title.replace(TITLE_COUNT, '');
  return count > 0 ? `(${count > 99 ? '99+' : count}) ${base}` : base;
}

const FAVICON_SIZE = 64;

/** Draws the favicon with a red count in its corner, as a PNG data URL. */
async function badgedIcon(href: string, count: number): Promise<string | undefined> {
  const img = new Image();
  img.src = href;
  try {
    await img.decode();
  } catch {
    return undefined;
  }
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = FAVICON_SIZE;
  const g = canvas.getContext('2d');
  if (!g) return undefined;
  g.drawImage(img, 0, 0, FAVICON_SIZE, FAVICON_SIZE);
  const r = 19;
  const cx = FAVICON_SIZE - r;
  const cy = r;
  g.beginPath();
  g.arc(cx, cy, r, 0, 2 * Math.PI);
  g.fillStyle = '#e03131';
  g.fill();
  g.lineWidth = 3;
  g.strokeStyle = '#ffffff';
  g.stroke();
  g.fillStyle = '#ffffff';
  g.font = `bold ${count > 9 ? 22 : 28}px system-ui, sans-serif`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(count > 9 ? '9+' : String(count), cx, cy + 1);
  return canvas.toDataURL('image/png');
}

/** Keeps the tab title and the favicon in step with the attention counts. */
export function useAttentionIndicators(): void {
  const counts = useAtomValue(attentionAtom);
  const loggedIn = useAtomValue(sessionAtom) !== null;
  const total = loggedIn ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  useEffect(() => {
    document.title = titleWithCount(document.title, total);
    const link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
    if (!link) return;
    // The customised favicon stays the source; the badge is drawn over it each time.
    link.dataset.original ??= link.href;
    const original = link.dataset.original;
    if (!total) {
      link.href = original;
      link.removeAttribute('data-count');
      return;
    }
    let live = true;
    void badgedIcon(original, total).then((url) => {
      if (!live || !url) return;
      link.href = url;
      link.dataset.count = String(total);
    });
    return () => {
      live = false;
    };
  }, [total]);
}

/** Messages of one ticket closer than this make one alert (its `message.created` and `ticket.created` arrive together). */
const COALESCE_MS = 250;
/** The unread count is asked again at most this often while events keep coming. */
const RECOUNT_MS = 1500;
/** The first count, once the page's first screen has had its turn. */
const COUNT_AFTER_MS = 2500;

const openTicketId = () => /^#\/atendimento\/(\d+)/.exec(window.location.hash)?.[1];

function preview(m: MessageFacts | undefined, ticket: TicketFacts): string {
  if (m?.body) return m.body;
  if (m?.mediaName) return m.mediaName;
  return ticket.lastMessage || i18next.t('attention.media');
}

/**
 * Alerts for tickets: a sound and (in the background) a desktop notification
 * for a new ticket waiting in the queue and for customer messages in the
 * user's tickets or in pending ones; the count of tickets with unread messages
 * on the rail's ticket entry (and so in the title and favicon).
 */
export function useTicketAlerts(): void {
  const session = useAtomValue(sessionAtom);
  // Logged out (the login page) nothing is asked: the access map would answer 401.
  const access = useQuery({ ...accessQuery, enabled: !!session }).data;
  const qc = useQueryClient();
  // The count waits for the first screen to be up: it must not compete with the screen's own first queries (U1).
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), COUNT_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  const enabled = !!session && !!access && !access.superadmin && menuAllowed(access, 'tickets');
  const unread = useQuery({
    queryKey: ['attention', 'tickets', session?.userId],
    queryFn: ({ signal }) => api.get<{ unread?: { open: number; pending: number } }>('/tickets', { query: { limit: 1 }, signal, silent: true, background: true }),
    enabled: enabled && settled,
    staleTime: 60_000,
    select: (page) => (page.unread ? page.unread.open + page.unread.pending : 0),
  });
  useAttention('tickets', enabled ? unread.data : undefined);

  const recount = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scheduleRecount = () => {
    if (!enabled || recount.current) return;
    recount.current = setTimeout(() => {
      recount.current = undefined;
      void qc.invalidateQueries({ queryKey: ['attention', 'tickets'] });
    }, RECOUNT_MS);
  };
  useEffect(() => () => clearTimeout(recount.current), []);

  // Alerts wait a moment per ticket, so a new ticket's first message rings once, as a new ticket.
  const pending = useRef(new Map<number, { kind: 'ticket' | 'message'; ticket: TicketFacts; message?: MessageFacts; timer: ReturnType<typeof setTimeout> }>());
  useEffect(() => () => pending.current.forEach((p) => clearTimeout(p.timer)), []);
  const alert = (kind: 'ticket' | 'message', ticket: TicketFacts, message?: MessageFacts) => {
    const queued = pending.current.get(ticket.id);
    if (queued) {
      if (kind === 'ticket') queued.kind = 'ticket';
      queued.ticket = ticket;
      queued.message ??= message;
      return;
    }
    const timer = setTimeout(() => {
      const p = pending.current.get(ticket.id)!;
      pending.current.delete(ticket.id);
      // The conversation on screen, watched: the agent sees it arrive, as in WhatsApp Web.
      if (p.kind === 'message' && openTicketId() === String(ticket.id) && pageWatched()) return;
      playSound(p.kind);
      const name = p.ticket.contact?.name ?? p.ticket.name ?? '';
      desktopNotify({
        title: p.kind === 'ticket' ? i18next.t('attention.newTicket', { name }) : name,
        body: preview(p.message, p.ticket),
        tag: `ticket-${ticket.id}`,
        onClick: () => {
          window.location.hash = `#/atendimento/${ticket.id}`;
        },
      });
    }, COALESCE_MS);
    pending.current.set(ticket.id, { kind, ticket, message, timer });
  };

  const me = () => getSession()?.userId;
  /** Tickets the user is expected to answer: theirs, or waiting for anyone in a queue they see. */
  const concernsMe = (t: TicketFacts) => t.userId === me() || (t.status === 'pending' && t.userId === null);

  useRealtime<{ ticket?: TicketFacts }>('ticket.created', (d) => {
    scheduleRecount();
    const t = d?.ticket;
    if (enabled && t && t.status === 'pending' && concernsMe(t)) alert('ticket', t);
  });
  useRealtime<{ message?: MessageFacts; ticket?: TicketFacts }>('message.created', (d) => {
    scheduleRecount();
    const { message: m, ticket: t } = d ?? {};
    if (enabled && m && t && !m.fromMe && !m.isNote && concernsMe(t)) alert('message', t, m);
  });
  useRealtime('ticket.updated', scheduleRecount);
  useRealtime('ticket.removed', scheduleRecount);
  useRealtime('resync', scheduleRecount);
}
