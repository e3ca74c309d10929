import { api } from '@atende/ui-shell/sdk';

export interface Team {
  id: number;
  name: string;
  active: boolean;
  users: { id: number; name: string }[];
  createdAt: string;
}
export interface TeamInput {
  name: string;
  active: boolean;
  userIds: number[];
}

const BASE = '/plugins/teams';
export const teamsKey = ['plugins', 'teams'] as const;

export const listTeams = (signal?: AbortSignal) => api.get<Team[]>(`${BASE}/teams`, { signal, silent: true });
export const listUsers = (signal?: AbortSignal) => api.get<{ id: number; name: string; email: string; active: boolean }[]>(`${BASE}/users`, { signal });
export const createTeam = (body: TeamInput) => api.post<Team>(`${BASE}/teams`, body);
export const updateTeam = (id: number, body: TeamInput) => api.put<Team>(`${BASE}/teams/${id}`, body);
export const deleteTeam = (id: number) => api.delete(`${BASE}/teams/${id}`);
