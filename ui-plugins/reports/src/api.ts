import { api } from '@atende/ui-shell/sdk';
import type { ContactRow, ReportOptions, TicketRow, UserStatsRow } from '@atende/plugin-reports/contract';

export type { ContactRow, ReportOptions, TicketRow, UserStatsRow };

const BASE = '/plugins/reports';

export interface Page<T> {
  rows: T[];
  count: number;
  hasMore: boolean;
}

type Query = Record<string, string | number | undefined>;

export const optionsKey = ['plugins', 'reports', 'options'] as const;
export const getOptions = () => api.get<ReportOptions>(`${BASE}/options`, { silent: true });

/** The screens render the error box themselves (the required-fields message included), so these calls are silent. */
export const ticketReport = (q: Query, signal?: AbortSignal) => api.get<Page<TicketRow>>(`${BASE}/tickets`, { query: q, signal, silent: true });
export const userStatsReport = (q: Query, signal?: AbortSignal) =>
  api.get<{ rows: UserStatsRow[]; totals: Omit<UserStatsRow, 'userId' | 'name' | 'email'> }>(`${BASE}/users`, { query: q, signal, silent: true });
export const contactReport = (kind: string, q: Query, signal?: AbortSignal) => api.get<Page<ContactRow>>(`${BASE}/contacts/${kind}`, { query: q, signal, silent: true });
