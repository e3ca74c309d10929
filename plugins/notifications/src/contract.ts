/**
 * What the notifications plugin's server part and its screens share (core.md
 * §3 "Notification: message, user id, read flag, date"): the inbox, a sending,
 * the compose form's rules and the plugin's events.
 */
import { defineContract, isoDate, positiveId, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

export const MAX_RECIPIENTS = 5000;
const bodyId = z.number().int().positive().max(2_147_483_647);

/** A sending; a missing message or recipient answers the spec's own `ERR_REQUIRED_FIELD`. */
export const sendBody = z
  .object({
    message: z.string().trim().max(2000).optional(),
    /** Target tenant: the admin's own only; any tenant for the superadmin. Default: the caller's. */
    tenantId: bodyId.optional(),
    userIds: z.array(bodyId).max(MAX_RECIPIENTS).optional(),
    /** Every active user of the tenant. */
    all: z.boolean().optional(),
  })
  .strict();
export type SendInput = z.input<typeof sendBody>;

/** The compose form: a message, and chosen users unless it goes to all. */
export const composeForm = z
  .object({
    message: z.string().trim().min(1, 'O campo mensagem é obrigatório').max(2000),
    target: z.enum(['users', 'all']),
    userIds: z.array(z.string()),
  })
  .refine((v) => v.target === 'all' || v.userIds.length > 0, { path: ['userIds'], message: 'O campo destinatários é obrigatório' });
export type ComposeValues = z.input<typeof composeForm>;

export const notification = z.object({ id: z.number().int(), message: z.string(), read: z.boolean(), createdAt: isoDate, senderName: z.string().nullable() });
export type Notification = z.output<typeof notification>;

export const inboxQuery = z.object({ unread: z.enum(['true', 'false']).optional() }).strict();
export const inbox = z.object({ notifications: z.array(notification), unread: z.number().int() });
export const readAnswer = z.object({ id: z.number().int(), read: z.literal(true), unread: z.number().int() });
export const readAllAnswer = z.object({ updated: z.number().int(), unread: z.literal(0) });
export const sendAnswer = z.object({ batchId: z.string(), tenantId: z.number().int(), recipients: z.number().int() });

/** One sending, with how many of its recipients have read it. */
export const sent = z.object({
  batchId: z.string(),
  tenantId: z.number().int(),
  tenantName: z.string(),
  message: z.string(),
  senderName: z.string().nullable(),
  createdAt: isoDate,
  recipients: z.number().int(),
  read: z.number().int(),
});
export type Sent = z.output<typeof sent>;

export const targetsQuery = z.object({ tenantId: positiveId.optional() }).strict();
/** Whom a sender may address: the tenants (the superadmin's choice) and the chosen tenant's active users. */
export const targets = z.object({
  tenantId: z.number().int(),
  tenants: z.array(z.object({ id: z.number().int(), name: z.string() })),
  users: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

export const contract = defineContract({
  id: 'notifications',
  events: {
    /** To the recipient's own room only. */
    'notification.created': notification,
    'notification.read': z.object({ ids: z.array(z.number().int()), unread: z.number().int() }),
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}
