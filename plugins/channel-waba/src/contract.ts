/**
 * What the WhatsApp Business API channel's server part and its remote
 * share: the rules of the channel dialog's fields, the message templates as
 * the picker shows them, the answers of its routes, its error code and its
 * event.
 */
import { defineContract, isoDate, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

/** Ids of a phone number and of a business account, as the WhatsApp Manager shows them. */
export const WABA_ID = /^\d{5,30}$/;
/** A Graph API version (`v21.0`). */
export const WABA_API_VERSION = /^v\d{1,3}\.\d{1,2}$/;
export const DEFAULT_API_VERSION = 'v21.0';
/** The shortest verify token the webhook handshake accepts. */
export const MIN_VERIFY_TOKEN = 8;

const httpUrl = z.url({ protocol: /^https?$/ });

/** The channel's provider settings (`config`) as stored; `prepare` checks each field with its own message. The kernel keeps its own keys beside them. */
export const wabaConfig = z
  .object({
    phoneNumberId: z.string().trim().optional(),
    businessAccountId: z.string().trim().optional(),
    apiVersion: z.string().trim().optional(),
    /** Token Meta sends back in the webhook verification handshake; generated when left blank. */
    verifyToken: z.string().trim().max(200).optional(),
    /** Graph API base URL: Meta's by default, the local fake in tests. */
    graphBaseUrl: httpUrl.optional(),
    /** Mark customer messages as read on WhatsApp (blue ticks) when an agent reads them. Default on. */
    readReceipts: z.boolean().optional(),
    /** How often the credential check runs while connected. */
    healthIntervalMs: z.number().int().min(200).max(3_600_000).optional(),
  })
  .passthrough();
export type WabaConfig = z.output<typeof wabaConfig>;

/** The plugin's settings per tenant. */
export const wabaTenantSettings = z
  .object({
    /** Graph API base URL for every channel of the tenant (a channel's own `graphBaseUrl` wins). */
    graphBaseUrl: httpUrl.optional(),
  })
  .passthrough();

/** What to paste in Meta's app dashboard for one channel. */
export const wabaWebhookInfo = z.object({
  /** Path of the channel's webhook on this install (`/api/plugins/channel-waba/webhook/<id>`). */
  path: z.string(),
  /** Full callback URL when the install knows its public address; otherwise the page's origin is used. */
  callbackUrl: z.string().nullable(),
  verifyToken: z.string().nullable(),
});
export type WabaWebhookInfo = z.output<typeof wabaWebhookInfo>;

/** A component of a template as Meta lists it (`HEADER`, `BODY`, `FOOTER`, `BUTTONS`); Meta's other fields pass through unchanged. */
export const wabaTemplateComponent = z
  .object({
    type: z.string(),
    format: z.string().optional(),
    text: z.string().optional(),
    buttons: z.array(z.object({ type: z.string(), text: z.string().optional(), url: z.string().optional(), phone_number: z.string().optional() }).passthrough()).optional(),
    example: z.object({ header_text: z.array(z.string()).optional(), body_text: z.array(z.array(z.string())).optional() }).passthrough().optional(),
  })
  .passthrough();
export type WabaTemplateComponent = z.output<typeof wabaTemplateComponent>;

/** The values a template needs, as the server works them out (the same rules it checks a send with). */
export const wabaTemplateVariables = z.object({
  header: z.array(z.string()),
  body: z.array(z.string()),
  /** Buttons whose value the agent supplies: a URL button's `{{1}}` suffix or a copy-code button's code. */
  buttons: z.array(z.object({ index: z.number().int(), subType: z.enum(['url', 'copy_code']), text: z.string(), variables: z.array(z.string()) })),
  /** A header Meta wants a file or a location for, which the ticket screen cannot send yet. */
  mediaHeader: z.string().nullable(),
});
export type WabaTemplateVariables = z.output<typeof wabaTemplateVariables>;

export const wabaTemplate = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string().nullable(),
  components: z.array(wabaTemplateComponent),
  syncedAt: isoDate,
  variables: wabaTemplateVariables,
});
export type WabaTemplate = z.output<typeof wabaTemplate>;

/** The channel's templates as last synced, and when. */
export const wabaTemplateList = z.object({ templates: z.array(wabaTemplate), syncedAt: isoDate.nullable() });
export type WabaTemplateList = z.output<typeof wabaTemplateList>;

/** The template list's filter: approved ones by default (what agents may send), `all` for the channel screen. */
export const wabaTemplatesQuery = z.object({
  status: z.enum(['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'all']).default('APPROVED'),
  // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the query.
  search: z.string().trim().max(200).regex(/^[^\u0000]*$/, 'caractere inválido').optional(),
});

/** A template sync's outcome (also published as `waba_templates.synced`). */
export const wabaTemplatesSynced = z.object({ channelId: z.number().int(), count: z.number().int(), syncedAt: isoDate });
export type WabaTemplatesSynced = z.output<typeof wabaTemplatesSynced>;

/** Meta's verification handshake (`GET` on the callback URL). */
export const wabaVerifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});

/** A Cloud API notification (`object: whatsapp_business_account` with its entries); the plugin reads the changes of its phone number. */
export const wabaWebhookBody = z.object({ entry: z.array(z.unknown()) }).passthrough();

export const contract = defineContract({
  id: 'channel-waba',
  errors: {
    ERR_WABA_INVALID: {
      status: 400,
      text: {
        pt: 'Dados WABA incorretos',
        en: 'Incorrect WABA data',
        es: 'Datos de WABA incorrectos',
        de: 'Falsche WABA-Daten',
        fr: 'Données WABA incorrectes',
        it: 'Dati WABA errati',
        pl: 'Nieprawidłowe dane WABA',
        ru: 'Неверные данные WABA',
      },
    },
  },
  events: {
    'waba_templates.synced': wabaTemplatesSynced,
  },
});

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}
