import { api } from '@atende/ui-shell/sdk';
import type { Farewell, FarewellInput } from '@atende/plugin-farewells/contract';

export type { Farewell };

const BASE = '/plugins/farewells/farewells';
export const farewellsKey = ['plugins', 'farewells', 'list'] as const;

export const listFarewells = (signal?: AbortSignal) => api.get<Farewell[]>(BASE, { signal, silent: true });
export const createFarewell = (input: FarewellInput) => api.post<Farewell>(BASE, input);
export const updateFarewell = (id: number, input: FarewellInput) => api.put<Farewell>(`${BASE}/${id}`, input);
export const deleteFarewell = (id: number) => api.delete(`${BASE}/${id}`);
