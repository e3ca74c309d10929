import { api } from '@atende/ui-shell/sdk';

/** A demand (motivo): the reason a ticket was opened or closed. */
export interface Demand {
  id: number;
  name: string;
  createdAt: string;
}

const BASE = '/plugins/demands/demands';

/** Query key of the list; mutations invalidate it. */
export const demandsKey = ['plugins', 'demands', 'list'] as const;

/** The table renders its own error box, so the list call is silent. */
export const listDemands = (signal?: AbortSignal) => api.get<Demand[]>(BASE, { signal, silent: true });
export const createDemand = (name: string) => api.post<Demand>(BASE, { name });
export const updateDemand = (id: number, name: string) => api.put<Demand>(`${BASE}/${id}`, { name });
export const deleteDemand = (id: number) => api.delete(`${BASE}/${id}`);
