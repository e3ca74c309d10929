import { api } from '@atende/ui-shell/sdk';
import type { CreateScheduleInput, Schedule, SchedulesPage, SchedulesQuery, ScheduleState, UpdateScheduleInput } from '@atende/plugin-schedules/contract';

export type { Schedule, ScheduleState };

/** The list's filters as the screen sends them (dates as ISO instants). */
export type ScheduleFilters = Omit<SchedulesQuery, 'from' | 'to'> & { from?: string; to?: string };

export const schedulesKey = ['plugins', 'schedules'] as const;

export const listSchedules = (f: ScheduleFilters, signal?: AbortSignal) =>
  api.get<SchedulesPage>('/scheduleMessages', { signal, silent: true, query: f as never });
export const createSchedule = (b: CreateScheduleInput) => api.post<Schedule>('/messagesSchedule', b, { silent: true });
export const updateSchedule = (id: string, b: UpdateScheduleInput) => api.put<Schedule>(`/messagesSchedule/${id}`, b, { silent: true });
export const cancelSchedule = (id: string) => api.delete(`/messagesSchedule/${id}`);

/** The tenant's time zone: schedules are entered and shown in it, whatever the browser's. */
export const tenantTimeZone = async () => (await api.get<{ timezone: string }>('/tenants/business-hours', { silent: true, background: true })).timezone;

export interface ContactOption { id: number; name: string; number: string | null }
export const searchContacts = async (searchParam: string) =>
  (await api.get<{ contacts: ContactOption[] }>('/contacts', { query: { searchParam, limit: 20 }, silent: true, background: true })).contacts;
export const listChannels = () => api.get<{ id: number; name: string; isDefault: boolean }[]>('/channels', { silent: true, background: true });
