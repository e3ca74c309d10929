import { api } from '@atende/ui-shell/sdk';
import type { Demand, DemandInput } from '@atende/plugin-demands/contract';

export type { Demand };

const BASE = '/plugins/demands/demands';

/** Query key of the list; mutations invalidate it. */
export const demandsKey = ['plugins', 'demands', 'list'] as const;

/** The table renders its own error box, so the list call is silent. */
export const listDemands = (signal?: AbortSignal) => api.get<Demand[]>(BASE, { signal, silent: true });
export const createDemand = (input: DemandInput) => api.post<Demand>(BASE, input);
export const updateDemand = (id: number, input: DemandInput) => api.put<Demand>(`${BASE}/${id}`, input);
export const deleteDemand = (id: number) => api.delete(`${BASE}/${id}`);
