import { api } from '@atende/ui-shell/sdk';
import { PRIORITIES, RECURRENCE_DAYS, STATUSES, type Priority, type Task, type TaskComment, type TaskInput, type TaskStatus } from '@atende/plugin-tasks/contract';

export { PRIORITIES, STATUSES };
export type { Priority, Task, TaskComment, TaskInput, TaskStatus };
/** Task recurrence choices in days (core.md §9); 0 = none. */
export const RECURRENCES = RECURRENCE_DAYS;

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
