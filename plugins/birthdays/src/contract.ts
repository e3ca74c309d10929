/**
 * What the birthdays plugin's server part and its screen share: the schemas of
 * its list and of the manual send, and its events.
 */
import { defineContract, isoDate, z, type EventsOf } from '@atende/core/contract';

/** Variables a birthday message may use: the template set without protocol, kanban and user (core.md §3). */
export const BIRTHDAY_VARIABLES = ['name', 'greeting', 'email', 'phoneNumber', 'firstName', 'lastName', 'businessName'] as const;

export const sendOutcome = z.object({
  contactId: z.number().int(),
  name: z.string(),
  status: z.enum(['sent', 'already_sent', 'no_message', 'failed']),
  error: z.string().optional(),
});
export type SendOutcome = z.output<typeof sendOutcome>;

/** `GET /birthdays?days=`: how many days ahead "upcoming" reaches (0 = today only). */
export const birthdaysQuery = z.object({ days: z.coerce.number().int().min(0).max(366).default(30) }).strict();

/** A contact with a birthday today or soon, with this year's sending state for today's. */
export const birthdayContact = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string().nullable(),
  email: z.string().nullable(),
  /** yyyy-MM-dd */
  birthday: z.string(),
  /** yyyy-MM-dd, in the tenant's time zone. */
  nextBirthday: z.string(),
  /** 0 = today. */
  daysUntil: z.number().int(),
  /** Age on the next birthday. */
  age: z.number().int(),
  /** Channel of the contact's latest ticket, if any. */
  channelId: z.number().int().nullable(),
  sentStatus: z.enum(['claimed', 'sent', 'failed']).nullable(),
  sentAt: isoDate.nullable(),
});
export type BirthdayContact = z.output<typeof birthdayContact>;

/** A channel's birthday message, whole hour (tenant's time zone) and attachment. */
export const birthdayChannel = z.object({
  id: z.number().int(),
  name: z.string(),
  isDefault: z.boolean(),
  message: z.string().nullable(),
  hour: z.number().int().nullable(),
  media: z.object({ url: z.string(), name: z.string(), mimetype: z.string() }).nullable(),
});
export type BirthdayChannel = z.output<typeof birthdayChannel>;

export const birthdaysAnswer = z.object({
  timeZone: z.string(),
  today: z.array(birthdayContact),
  upcoming: z.array(birthdayContact),
  channels: z.array(birthdayChannel),
  variables: z.array(z.string()),
});
export type BirthdaysAnswer = z.output<typeof birthdaysAnswer>;

/** `POST /messages/sendBirthday`: today's birthdays now (all of them, or these contacts). */
export const sendBirthdayBody = z.object({ contactIds: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(1000).optional() }).strict().optional();
export type SendBirthdayBody = z.input<typeof sendBirthdayBody>;
export const sendBirthdayAnswer = z.object({ sent: z.number().int(), results: z.array(sendOutcome) });
export type SendBirthdayAnswer = z.output<typeof sendBirthdayAnswer>;

/**
 * A channel's birthday message and hour as the screen saves them: a message
 * needs its hour (it goes out at that whole hour).
 */
export const channelBirthdayInput = z
  .object({
    birthdayMessage: z.string().max(4096, 'No máximo 4096 caracteres').nullable(),
    birthdayHour: z.number().int().min(0).max(23).nullable(),
  })
  .refine((v) => !v.birthdayMessage?.trim() || v.birthdayHour !== null, { message: 'Escolha a hora do envio', path: ['birthdayHour'] });
export type ChannelBirthdayInput = z.input<typeof channelBirthdayInput>;

export const contract = defineContract({
  id: 'birthdays',
  events: {
    /** A run (hourly or the manual action) sent birthday messages: the screen refreshes its "sent" marks. */
    'birthday.sent': z.object({ results: z.array(sendOutcome) }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
}
