import { api } from '@atende/ui-shell/sdk';
import type { Board, Card, CardEvent, CardTicket, Column, Lane, View } from '@atende/plugin-kanban/contract';

export type { Board, Card, CardEvent, CardTicket, Column, Lane, View };

const BASE = '/plugins/kanban';

export const boardKey = (view: View, search: string) => ['plugins', 'kanban', 'board', view, search] as const;
export const lanesKey = ['plugins', 'kanban', 'lanes'] as const;

export const getBoard = (view: View, search: string, signal?: AbortSignal) =>
  api.get<Board>(`${BASE}/board`, { query: { view, search: search || undefined }, signal, silent: true });
export const getColumnPage = (view: View, id: number, cursor: string, search: string) =>
  api.get<{ cards: Card[]; nextCursor: string | null }>(`${BASE}/${view}/${id}/cards`, { query: { cursor, search: search || undefined }, background: true });
export const moveToLane = (contactId: number, laneId: number | null) => api.put<Card>(`${BASE}/cards/${contactId}/lane`, { laneId });
export const moveToTag = (contactId: number, from: number | null, to: number | null) => api.put<Card>(`${BASE}/cards/${contactId}/tag`, { from, to });
export const assignOwner = (contactId: number, userId: number | null) => api.put<Card>(`${BASE}/cards/${contactId}/owner`, { userId });
export const listOwners = () => api.get<{ id: number; name: string; profile: string }[]>(`${BASE}/owners`);

export const listLanes = (signal?: AbortSignal) => api.get<Lane[]>(`${BASE}/lanes`, { signal, silent: true });
export const createLane = (name: string) => api.post<Lane>(`${BASE}/lanes`, { name });
export const renameLane = (id: number, name: string) => api.put<Lane>(`${BASE}/lanes/${id}`, { name });
export const deleteLane = (id: number) => api.delete(`${BASE}/lanes/${id}`);
export const orderLanes = (ids: number[]) => api.put<Lane[]>(`${BASE}/lanes/order`, { ids });
