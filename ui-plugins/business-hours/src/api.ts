import { api } from '@atende/ui-shell/sdk';

/** One weekday (0 Sunday … 6 Saturday): O open all day, C closed, H between the ranges. */
export interface DayHours {
  day: number;
  type: 'O' | 'C' | 'H';
  start?: string | null;
  end?: string | null;
  start2?: string | null;
  end2?: string | null;
}

export interface BusinessHours {
  businessHours: DayHours[];
  messageBusinessHours: string;
  timezone: string;
  openNow: boolean;
}

export const hoursKey = ['plugins', 'business-hours'] as const;
export const getHours = () => api.get<BusinessHours>('/tenants/business-hours', { silent: true });
export const saveHours = (businessHours: DayHours[]) => api.put<BusinessHours>('/tenants/business-hours', { businessHours }, { silent: true });
export const saveAbsence = (messageBusinessHours: string) => api.put<BusinessHours>('/tenants/message-business-hours', { messageBusinessHours });
