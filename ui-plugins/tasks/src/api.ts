import { api } from '@atende/ui-shell/sdk';

export type Priority = 'high' | 'medium' | 'low' | 'none';
export type TaskStatus = 'delayed' | 'pending' | 'finished';
export const PRIORITIES: Priority[] = ['high', 'medium', 'low', 'none'];
export const STATUSES: TaskStatus[] = ['delayed', 'pending', 'finished'];
/** Task recurrence choices in days (core.md §9); 0 = none. */
export const RECURRENCES = [0, 7, 30, 45, 60, 75, 90] as const;

export interface Task {
  id: number;
  name: string;
  description: string | null;
  limitDate: string;
  ownerId: number | null;
  ownerName: string | null;
  createdById: number | null;
  createdByName: string | null;
  priority: Priority;
  /** `delayed` is computed by the server from the limit date. */
  status: TaskStatus;
  recurrence: number;
  repetitions: number;
  finishedAt: string | null;
  commentCount: number;
  createdAt: string;
}

export interface TaskComment {
  id: number;
  body: string;
  userId: number | null;
  userName: string | null;
  createdAt: string;
}

export interface TaskInput {
  name?: string;
  description?: string | null;
  limitDate?: string | null;
  ownerId?: number | null;
  priority?: Priority;
  recurrence?: number;
  repetitions?: number;
}

export interface TaskFilters {
  status?: TaskStatus;
  ownerId?: number;
  priority?: Priority;
}

const BASE = '/plugins/tasks';
export const tasksKey = ['plugins', 'tasks'] as const;

export const listTasks = (f: TaskFilters, signal?: AbortSignal) => api.get<Task[]>(`${BASE}/tasks`, { query: { ...f }, signal, silent: true });
export const listOwners = (signal?: AbortSignal) => api.get<{ id: number; name: string }[]>(`${BASE}/owners`, { signal });
export const createTask = (body: TaskInput) => api.post<Task>(`${BASE}/tasks`, body);
export const updateTask = (id: number, body: TaskInput) => api.put<Task>(`${BASE}/tasks/${id}`, body);
export const finishTask = (id: number) => api.put<{ task: Task; next: Task | null }>(`${BASE}/tasks/${id}/finish`, {});
export const deleteTask = (id: number) => api.delete(`${BASE}/tasks/${id}`);
export const listComments = (id: number, signal?: AbortSignal) => api.get<TaskComment[]>(`${BASE}/tasks/${id}/comments`, { signal });
export const addComment = (id: number, body: string) => api.post<TaskComment>(`${BASE}/tasks/${id}/comments`, { body });

/** `YYYY-MM-DDTHH:mm` in local time (what DateTimeInputBR edits) from an ISO instant. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
