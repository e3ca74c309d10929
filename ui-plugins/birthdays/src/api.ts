import { api } from '@atende/ui-shell/sdk';

export interface BirthdayContact {
  id: number;
  name: string;
  number: string | null;
  birthday: string;
  nextBirthday: string;
  daysUntil: number;
  age: number;
  sentStatus: 'claimed' | 'sent' | 'failed' | null;
}

export interface BirthdayChannel {
  id: number;
  name: string;
  isDefault: boolean;
  message: string | null;
  hour: number | null;
  media: { name: string } | null;
}

export interface BirthdaysAnswer {
  timeZone: string;
  today: BirthdayContact[];
  upcoming: BirthdayContact[];
  channels: BirthdayChannel[];
  variables: string[];
}

export const birthdaysKey = ['plugins', 'birthdays'] as const;
export const getBirthdays = (days: number) => api.get<BirthdaysAnswer>('/plugins/birthdays/birthdays', { query: { days }, silent: true });
export const sendToday = () => api.post<{ sent: number; results: { status: string }[] }>('/messages/sendBirthday', {});
/** The channel's birthday fields are the kernel's (`PUT /channels/:id`). */
export const saveChannel = (id: number, birthdayMessage: string | null, birthdayHour: number | null) => api.put(`/channels/${id}`, { birthdayMessage, birthdayHour });
