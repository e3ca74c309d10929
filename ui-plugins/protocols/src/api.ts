import { api } from '@atende/ui-shell/sdk';
import type { Protocol, ProtocolPage } from '@atende/plugin-protocols/contract';

/** A ticket's protocol (see plugins/protocols). */
export type { Protocol, ProtocolPage };

export interface ProtocolFilters {
  search: string;
  userId: string | null;
  status: string | null;
  /** `YYYY-MM-DD`, local day. */
  from: string | null;
  to: string | null;
}

const BASE = '/plugins/protocols';

/** Local calendar days as instants: the whole first day to the end of the last. */
const dayStart = (d: string | null) => (d ? new Date(`${d}T00:00:00`).toISOString() : undefined);
const dayEnd = (d: string | null) => (d ? new Date(`${d}T23:59:59.999`).toISOString() : undefined);

export const listProtocols = (f: ProtocolFilters, before: number | undefined, signal?: AbortSignal) =>
  api.get<ProtocolPage>(`${BASE}/protocols`, {
    query: { search: f.search || undefined, userId: f.userId ?? undefined, status: f.status ?? undefined, from: dayStart(f.from), to: dayEnd(f.to), before },
    signal,
    silent: true,
  });
export const listUsers = () => api.get<{ id: number; name: string }[]>(`${BASE}/users`, { silent: true });
