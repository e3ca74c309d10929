/**
 * The queries the ticket screen needs for its first paint (the list and the
 * open ticket), shared by the components and by the route's prefetch, which
 * starts them while the guard checks access and the screen's code downloads
 * instead of after both (docs/performance.md U1).
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { atendeStore, queryClient } from '@atende/ui-shell/sdk';
import { getTicket, listTickets, type TicketFilters, type TicketStatus } from './api.ts';
import { listKey, rememberStatuses, ticketKey } from './live.ts';
import { filtersAtom, statusTabAtom } from './state.ts';

export const ticketListQuery = (status: TicketStatus, filters: TicketFilters) => infiniteQueryOptions({
  queryKey: listKey(status, filters) as readonly unknown[],
  queryFn: async ({ pageParam, signal }: { pageParam: string | undefined; signal: AbortSignal }) => {
    const page = await listTickets(status, filters, pageParam, signal);
    rememberStatuses(page.tickets);
    return page;
  },
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  staleTime: 30_000,
});

export const ticketQuery = (id: number) => queryOptions({ queryKey: ticketKey(id), queryFn: ({ signal }) => getTicket(id, signal), retry: false });

/** Starts the first page of the list (the tab and filters the screen will show) and the open ticket; failures are left to the screen. */
export function prefetchTicketScreen(ticketId: number | undefined): void {
  void queryClient.prefetchInfiniteQuery(ticketListQuery(atendeStore.get(statusTabAtom), atendeStore.get(filtersAtom)));
  if (ticketId && Number.isSafeInteger(ticketId) && ticketId > 0) void queryClient.prefetchQuery(ticketQuery(ticketId));
}
