import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './errors.ts';

/**
 * The page's TanStack Query client, shared with remotes through the SDK so a
 * real-time `resync` can invalidate every query, the shell's and the plugins'.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again; network blips and 5xx might.
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
    },
  },
});
