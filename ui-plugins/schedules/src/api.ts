import { api } from '@atende/ui-shell/sdk';

export type ScheduleState = 'scheduled' | 'sending' | 'sent' | 'failed';

/** A scheduled message as `GET /scheduleMessages` answers it. */
export interface Schedule {
  id: string;
  ticketId: number;
  contactId: number;
  contactName: string;
  contactNumber: string | null;
  channelId: number | null;
  channelName: string | null;
  userName: string | null;
  body: string;
  scheduleDate: string;
  recurrence: number | null;
  repetitions: number;
  state: ScheduleState;
  failureReason: string | null;
}

export interface ScheduleFilters {
  state?: 'scheduled' | 'sent' | 'failed';
  from?: string;
  to?: string;
  contactId?: number;
  search?: string;
  pageNumber: number;
  limit: number;
}

export interface ScheduleInput {
  contactId: number;
  channelId?: number | null;
  body: string;
  scheduleDate: string;
  recurrence: number | null;
  repetitions: number;
}

export const schedulesKey = ['plugins', 'schedules'] as const;

export const listSchedules = (f: ScheduleFilters, signal?: AbortSignal) =>
  api.get<{ schedules: Schedule[]; count: number }>('/scheduleMessages', { signal, silent: true, query: f as never });
export const createSchedule = (b: ScheduleInput) => api.post<Schedule>('/messagesSchedule', b, { silent: true });
export const updateSchedule = (id: string, b: Partial<Omit<ScheduleInput, 'contactId' | 'channelId'>>) => api.put<Schedule>(`/messagesSchedule/${id}`, b, { silent: true });
export const cancelSchedule = (id: string) => api.delete(`/messagesSchedule/${id}`);

/** The tenant's time zone: schedules are entered and shown in it, whatever the browser's. */
export const tenantTimeZone = async () => (await api.get<{ timezone: string }>('/tenants/business-hours', { silent: true, background: true })).timezone;

export interface ContactOption { id: number; name: string; number: string | null }
export const searchContacts = async (searchParam: string) =>
  (await api.get<{ contacts: ContactOption[] }>('/contacts', { query: { searchParam, limit: 20 }, silent: true, background: true })).contacts;
export const listChannels = () => api.get<{ id: number; name: string; isDefault: boolean }[]>('/channels', { silent: true, background: true });
