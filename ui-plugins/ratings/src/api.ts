import { api } from '@atende/ui-shell/sdk';

export interface Rating {
  ticketId: number;
  protocol: string | null;
  value: number;
  attempts: number;
  ratedAt: string;
  userId: number | null;
  userName: string | null;
  queueName: string | null;
  contactName: string;
}

export interface RatingsAnswer {
  rows: Rating[];
  count: number;
  average: number | null;
  distribution: number[];
  byUser: { userId: number | null; userName: string | null; count: number; average: number }[];
  labels: string[];
}

export interface RatingFilters {
  from?: string;
  to?: string;
  userId?: number;
  queueId?: number;
  score?: number;
  search?: string;
  pageNumber: number;
  limit: number;
}

export interface RatingConfig {
  enabled: boolean;
  maxAttempts: number;
  message: string | null;
}

export const ratingsKey = ['plugins', 'ratings'] as const;
export const listRatings = (f: RatingFilters, signal?: AbortSignal) => api.get<RatingsAnswer>('/plugins/ratings/ratings', { signal, silent: true, query: f as never });
export const listUsers = async () => (await api.get<{ users: { id: number; name: string }[] }>('/users', { silent: true, background: true })).users;
export const listQueues = () => api.get<{ id: number; name: string }[]>('/queues', { silent: true, background: true });
export const getConfig = () => api.get<RatingConfig>('/tenants/rating', { silent: true });
export const saveConfig = (c: Partial<RatingConfig>) => api.put<RatingConfig>('/tenants/rating', c);
