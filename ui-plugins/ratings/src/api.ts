import { api } from '@atende/ui-shell/sdk';
import type { Rating, RatingConfig, RatingConfigInput, RatingsAnswer, RatingsQuery } from '@atende/plugin-ratings/contract';

export type { Rating, RatingConfig, RatingsAnswer };

/** The list's filters as the screen sends them (dates as ISO instants). */
export type RatingFilters = Omit<RatingsQuery, 'from' | 'to'> & { from?: string; to?: string };

export const ratingsKey = ['plugins', 'ratings'] as const;
export const listRatings = (f: RatingFilters, signal?: AbortSignal) => api.get<RatingsAnswer>('/plugins/ratings/ratings', { signal, silent: true, query: f as never });
export const listUsers = async () => (await api.get<{ users: { id: number; name: string }[] }>('/users', { silent: true, background: true })).users;
export const listQueues = () => api.get<{ id: number; name: string }[]>('/queues', { silent: true, background: true });
export const getConfig = () => api.get<RatingConfig>('/tenants/rating', { silent: true });
export const saveConfig = (c: RatingConfigInput) => api.put<RatingConfig>('/tenants/rating', c);
