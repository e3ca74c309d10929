import { api } from '@atende/ui-shell/sdk';
import type { Notification, SendInput, Sent } from '@atende/plugin-notifications/contract';

export type { Notification, SendInput, Sent };

const BASE = '/plugins/notifications';
export const inboxKey = ['plugins', 'notifications', 'inbox'] as const;
export const sentKey = ['plugins', 'notifications', 'sent'] as const;

export const getInbox = (signal?: AbortSignal) => api.get<{ notifications: Notification[]; unread: number }>(`${BASE}/notifications`, { signal, silent: true });
export const markRead = (id: number) => api.put<{ unread: number }>(`${BASE}/notifications/${id}/read`, {});
export const markAllRead = () => api.put<{ unread: number }>(`${BASE}/notifications/read-all`, {});
export const sendNotification = (body: SendInput) => api.post<{ recipients: number }>(`${BASE}/notifications`, body);
export const listSent = (signal?: AbortSignal) => api.get<Sent[]>(`${BASE}/sent`, { signal, silent: true });
export const getTargets = (tenantId: number | undefined, signal?: AbortSignal) =>
  api.get<{ tenantId: number; tenants: { id: number; name: string }[]; users: { id: number; name: string }[] }>(`${BASE}/targets`, { query: { tenantId }, signal });
