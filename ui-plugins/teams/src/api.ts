import { api } from '@atende/ui-shell/sdk';
import type { Team, TeamInput } from '@atende/plugin-teams/contract';

export type { Team, TeamInput };

const BASE = '/plugins/teams';
export const teamsKey = ['plugins', 'teams'] as const;

export const listTeams = (signal?: AbortSignal) => api.get<Team[]>(`${BASE}/teams`, { signal, silent: true });
export const listUsers = (signal?: AbortSignal) => api.get<{ id: number; name: string; active: boolean }[]>(`${BASE}/users`, { signal });
export const createTeam = (body: TeamInput) => api.post<Team>(`${BASE}/teams`, body);
export const updateTeam = (id: number, body: TeamInput) => api.put<Team>(`${BASE}/teams/${id}`, body);
export const deleteTeam = (id: number) => api.delete(`${BASE}/teams/${id}`);
