/**
 * What the sandbox channel's server part and its remote share: the simulated
 * provider's settings, the customer messages and acks its signed webhook
 * takes, and the answers of its routes. It has no error codes of its own
 * (refusals use the kernel's channel codes) and publishes no events.
 */
import { defineContract, isoDate, z } from '@atende/core/contract';

const delayMs = z.number().int().min(0).max(86_400_000);

/** The simulated provider's settings (the channel's `config`); the kernel keeps its own keys beside them. */
export const sandboxConfig = z
  .object({
    /** After how long a sent message is reported delivered (ms); 0 or absent: never. */
    deliveredAfterMs: delayMs.optional(),
    /** After how long a sent message is reported read (ms); 0 or absent: never. */
    readAfterMs: delayMs.optional(),
    /** Every send whose text contains this fails, to rehearse failures. */
    failWhenBodyContains: z.string().max(200).optional(),
  })
  .passthrough();
export type SandboxConfig = z.output<typeof sandboxConfig>;

const person = z.object({ id: z.string().min(1).max(200), name: z.string().max(200).optional(), number: z.string().regex(/^\d{5,20}$/).optional() }).strict();

/** A simulated customer's message, as the webhook (signed) and the simulate route (logged in) take it. */
export const sandboxInbound = z
  .object({
    id: z.string().min(1).max(200),
    from: person,
    body: z.string().max(65_536).default(''),
    type: z.string().max(40).optional(),
    // A simulated customer's file: a URL to link, or the bytes themselves (base64), which go to the media store like a real provider's download.
    media: z
      .object({ url: z.string().max(2000).optional(), data: z.string().max(1_500_000).regex(/^[A-Za-z0-9+/]*={0,2}$/).optional(), mimetype: z.string().max(200), name: z.string().max(300) })
      .strict()
      .refine((m) => !!m.url !== !!m.data, 'informe url ou data')
      .optional(),
    group: z.object({ id: z.string().min(1).max(200), name: z.string().max(200).optional() }).strict().optional(),
    quotedId: z.string().max(200).optional(),
    timestamp: z.coerce.date().optional(),
  })
  .strict();
export type SandboxInbound = z.output<typeof sandboxInbound>;

/** A delivery report for a message an agent sent, as the simulated provider posts it. */
export const sandboxAck = z
  .object({ ack: z.object({ id: z.string().min(1).max(200), status: z.enum(['sent', 'delivered', 'read', 'failed']), reason: z.string().max(300).optional() }).strict() })
  .strict();

/** What the webhook takes: a customer's message or an ack. */
export const sandboxWebhookBody = z.union([sandboxAck, sandboxInbound]);

/** What the webhook answers: the ack applied (or not: unknown or older than the message's state), or the message stored (or a duplicate). */
export const sandboxWebhookAnswer = z.union([
  z.object({ ok: z.literal(true), changed: z.boolean() }),
  z.object({ ok: z.literal(true), duplicate: z.boolean(), ticketId: z.number().int().nullable(), messageId: z.string().nullable() }),
]);

/** The simulate route's body: a customer's message from a logged-in user; the id is generated when left out. */
export const sandboxSimulate = sandboxInbound.omit({ id: true }).extend({ id: z.string().min(1).max(200).optional() });
export type SandboxSimulate = z.input<typeof sandboxSimulate>;

/** The simulate route's answer: where the message landed. */
export const sandboxSimulated = z.object({
  duplicate: z.boolean(),
  messageId: z.string().optional(),
  ticketId: z.number().int().optional(),
  contactId: z.number().int().optional(),
  ticketCreated: z.boolean().optional(),
});

/** The simulate form of the connect panel: who the customer is and what they write. */
export const sandboxSimulateForm = z.object({
  name: z.string().trim().max(200),
  from: z.string().trim().min(1, 'Informe o identificador do cliente').max(200),
  text: z.string().trim().min(1, 'Escreva a mensagem').max(65_536),
});
export type SandboxSimulateForm = z.input<typeof sandboxSimulateForm>;

/** The outbox list's filter: one recipient's messages, newest first, at most `limit`. */
export const sandboxOutboxQuery = z.object({ to: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) });

/** One message as the simulated provider recorded it ("the customer's phone"). */
export const sandboxOutboxRow = z.object({
  providerId: z.string(),
  to: z.string(),
  body: z.string(),
  type: z.string(),
  mediaName: z.string().nullable(),
  buttons: z.array(z.object({ label: z.string(), value: z.string() })).nullable(),
  attempts: z.number().int(),
  edited: z.boolean(),
  deleted: z.boolean(),
  reaction: z.string().nullable(),
  createdAt: isoDate,
});
export type SandboxOutboxRow = z.output<typeof sandboxOutboxRow>;

/** Where an external simulator posts and how it signs (admins of channels only). */
export const sandboxSecret = z.object({ webhookUrl: z.string(), secret: z.string(), header: z.string() });
export type SandboxSecret = z.output<typeof sandboxSecret>;

export const contract = defineContract({ id: 'channel-sandbox' });
