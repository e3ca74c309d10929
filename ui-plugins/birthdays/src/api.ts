import { api } from '@atende/ui-shell/sdk';
import type { BirthdayChannel, BirthdayContact, BirthdaysAnswer, ChannelBirthdayInput, SendBirthdayAnswer } from '@atende/plugin-birthdays/contract';

export type { BirthdayChannel, BirthdayContact, BirthdaysAnswer };

export const birthdaysKey = ['plugins', 'birthdays'] as const;
export const getBirthdays = (days: number) => api.get<BirthdaysAnswer>('/plugins/birthdays/birthdays', { query: { days }, silent: true });
export const sendToday = () => api.post<SendBirthdayAnswer>('/messages/sendBirthday', {});
/** The channel's birthday fields are the kernel's (`PUT /channels/:id`). */
export const saveChannel = (id: number, input: ChannelBirthdayInput) => api.put(`/channels/${id}`, input);

/** The channel's birthday file: the kernel's `POST /channels/:id/birthday-media` (multipart, one file). */
export function uploadChannelMedia(id: number, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post<unknown>(`/channels/${id}/birthday-media`, form, { timeoutMs: 120_000, silent: true });
}
export const removeChannelMedia = (id: number) => api.delete<unknown>(`/channels/${id}/birthday-media`, { silent: true });
