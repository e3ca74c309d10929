/**
 * The tenant's settings (`GET /api/settings`: flat key → value, readable by
 * every user). One query for the whole shell: what an admin saves on
 * /configuracoes/geral is what the ticket screen obeys (signature, pending
 * assignment), and a `settings.updated` event refreshes both.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@atende/ui-shell/sdk';

export type TenantSettings = Record<string, string | number | boolean | null>;

export const tenantSettingsQuery = queryOptions({
  queryKey: ['tenant-settings'] as const,
  queryFn: ({ signal }) => api.get<TenantSettings>('/settings', { signal, silent: true, background: true }),
  staleTime: 60_000,
});
