import i18next from 'i18next';
import { API_BASE, ApiError, api, ensureFreshToken, getAccessToken } from '@atende/ui-shell/sdk';
import type { ContactRow, ExportInput, ExportState, ReportOptions, TicketRow, UserStatsRow } from '@atende/plugin-reports/contract';

export type { ContactRow, ExportState, ReportOptions, TicketRow, UserStatsRow };

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


export const startExport = (input: ExportInput) => api.post<ExportState>(`${BASE}/exports`, input);
export const getExport = (id: number, signal?: AbortSignal) => api.get<ExportState>(`${BASE}/exports/${id}`, { signal, silent: true, background: true });

/** The file sits behind the bearer token, so a plain link cannot fetch it: read it as a blob and hand it to the browser. */
export async function downloadExport(id: number, fallbackName: string): Promise<void> {
  await ensureFreshToken();
  const res = await fetch(`${API_BASE}${BASE}/exports/${id}/file`, { headers: { authorization: `Bearer ${getAccessToken() ?? ''}`, 'accept-language': i18next.language || 'pt' } });
  if (!res.ok) throw new ApiError(res.status, 'ERR_DOWNLOAD', res.statusText);
  const blob = await res.blob();
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
