import { api } from '@atende/ui-shell/sdk';

/** A farewell message (core.md §3: message, user, date). */
export interface Farewell {
  id: number;
  message: string;
  userName: string | null;
  updatedAt: string;
}

const BASE = '/plugins/farewells/farewells';
export const farewellsKey = ['plugins', 'farewells', 'list'] as const;

export const listFarewells = (signal?: AbortSignal) => api.get<Farewell[]>(BASE, { signal, silent: true });
export const createFarewell = (message: string) => api.post<Farewell>(BASE, { message });
export const updateFarewell = (id: number, message: string) => api.put<Farewell>(`${BASE}/${id}`, { message });
export const deleteFarewell = (id: number) => api.delete(`${BASE}/${id}`);
