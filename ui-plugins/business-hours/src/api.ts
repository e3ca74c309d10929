import { api } from '@atende/ui-shell/sdk';
import type { AbsenceInput, BusinessHours, BusinessHoursInput, DayHours } from '@atende/plugin-business-hours/contract';

export type { BusinessHours, DayHours };

export const hoursKey = ['plugins', 'business-hours'] as const;
export const getHours = () => api.get<BusinessHours>('/tenants/business-hours', { silent: true });
export const saveHours = (input: BusinessHoursInput) => api.put<BusinessHours>('/tenants/business-hours', input, { silent: true });
export const saveAbsence = (input: AbsenceInput) => api.put<BusinessHours>('/tenants/message-business-hours', input);
