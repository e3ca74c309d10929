/**
 * What the __LABEL__ channel's adapter and its form in the channel dialog
 * share (docs/plugin-authoring.md): the schema of the channel's provider
 * settings (`config`). The remote imports this file as
 * `@atende/plugin-__ID__/contract`. Add here the errors only this channel
 * answers with and the events it publishes.
 */
import { defineContract, z, type ErrorCodesOf, type EventsOf } from '@atende/core/contract';

const httpUrl = z.url({ protocol: /^https?$/, error: 'Informe uma URL http(s) válida' });

/** A channel's non-secret provider settings; the token is a write-only secret, never in `config`. */
export const channelConfig = z
  .object({
    /** The provider's API base URL (a local fake in tests). */
    apiBase: httpUrl,
    /** Public base URL of this install for the webhook, when it differs from ATENDE_PUBLIC_URL. */
    webhookBaseUrl: httpUrl.optional(),
  })
  .passthrough();
export type ChannelConfig = z.output<typeof channelConfig>;

export const contract = defineContract({ id: '__ID__' });

declare module '@atende/core/contract' {
  interface AtendeEvents extends EventsOf<typeof contract> {}
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}
