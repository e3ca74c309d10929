import { api } from '@atende/ui-shell/sdk';
import type { BirthdayChannel, BirthdayContact, BirthdaysAnswer, ChannelBirthdayInput, SendBirthdayAnswer } from '@atende/plugin-birthdays/contract';

export type { BirthdayChannel, BirthdayContact, BirthdaysAnswer };

export const birthdaysKey = ['plugins', 'birthdays'] as const;
export const getBirthdays = (days: number) => api.get<BirthdaysAnswer>('/plugins/birthdays/birthdays', { query: { days }, silent: true });
export const sendToday = () => api.post<SendBirthdayAnswer>('/messages/sendBirthday', {});
/** The channel's birthday fields are the kernel's (`PUT /channels/:id`). */
export const saveChannel = (id: number, input: ChannelBirthdayInput) => api.put(`/channels/${id}`, input);
