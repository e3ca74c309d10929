import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { updateTicket, type Ticket } from './api.ts';
import { applyTicket } from './live.ts';

/**
 * Messages that arrive in the ticket the agent has open in front of them are read (issue U2 #4): the
 * server's count goes back to 0 as they come, so the list badge, the tab counts and the title agree.
 * Only the agent's own ticket (the server marks those read when they open it, messages.ts), never
 * while spying, and only while the page is visible: a message arriving in a hidden tab stays unread
 * until the agent comes back to it.
 */
export function useReadWhileOpen(ticket: Ticket | undefined, opts: { spy: boolean; userId: number | undefined; ready: boolean }): void {
  const qc = useQueryClient();
  const busy = useRef(false);
  const mine = !!ticket && !opts.spy && opts.ready && ticket.userId !== null && ticket.userId === opts.userId && ticket.status !== 'closed';
  const unread = ticket?.unreadMessages ?? 0;
  const id = ticket?.id;
  useEffect(() => {
    if (!mine || !id || unread <= 0) return;
    const mark = () => {
      if (document.visibilityState !== 'visible' || busy.current) return;
      busy.current = true;
      updateTicket(id, { unreadMessages: 0 })
        .then((t) => applyTicket(qc, t))
        .catch(() => undefined)
        .finally(() => { busy.current = false; });
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [mine, id, unread, qc]);
}
