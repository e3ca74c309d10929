import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import type { Profile } from './session.ts';

/** Answer of `GET /api/me/access`: who the user is and what they may open. */
export interface AccessInfo {
  user: { id: number; name: string; email: string; profile: Profile; tenantId: number };
  /** `country`: `BR` when the company is Brazilian (by its time zone), else null. */
  tenant: { id: number; name: string; status: string; blocked: boolean; termsAccepted: boolean; country?: 'BR' | null };
  superadmin: boolean;
  /** Menu key → visible. */
  menus: Record<string, boolean>;
  /** Route path → menu key guarding it. */
  routes: Record<string, string>;
}

/** Query of the access map; the route guard and the menus share its cache. */
export const accessQuery = queryOptions({
  queryKey: ['me', 'access'] as const,
  queryFn: ({ signal }) => api.get<AccessInfo>('/me/access', { signal, silent: true }),
  staleTime: 30_000,
});

/** The access map of the logged-in user (undefined while loading). */
export function useAccess(): AccessInfo | undefined {
  return useQuery(accessQuery).data;
}

/** Whether a menu key is allowed: superadmin bypasses, a missing key is not a denial. */
export function menuAllowed(access: AccessInfo | undefined, key: string | undefined): boolean {
  if (!access || !key) return true;
  return access.superadmin || access.menus[key] !== false;
}
