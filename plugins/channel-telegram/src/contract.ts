/**
 * What the Telegram channel's server part and its remote share: the bot
 * token rule, the provider settings of the channel dialog, the update its
 * webhook takes, and its one error code.
 */
import { defineContract, z, type ErrorCodesOf } from '@atende/core/contract';

/** The format @BotFather hands out (`123456789:AAH…`). */
export const TELEGRAM_TOKEN = /^\d{3,15}:[A-Za-z0-9_-]{20,100}$/;

/** A bot token as the channel dialog sends it (write-only secret `token`). */
export const telegramToken = z.string().trim().regex(TELEGRAM_TOKEN, 'token do Telegram inválido: use o token que o @BotFather informou (123456789:ABC...)');

const httpUrl = z.url({ protocol: /^https?$/ });

/** The channel's provider settings (`config`); the kernel keeps its own keys beside them. */
export const telegramConfig = z
  .object({
    /** `webhook` needs a public URL (ATENDE_PUBLIC_URL or `webhookBaseUrl`); `polling` works behind NAT. */
    mode: z.enum(['webhook', 'polling']).optional(),
    /** Bot API base URL: a self-hosted Bot API server, or a local fake in tests. */
    apiRoot: httpUrl.optional(),
    /** Public base URL of this install for the webhook, when it differs from ATENDE_PUBLIC_URL. */
    webhookBaseUrl: httpUrl.optional(),
    /** Long-poll wait in seconds (Telegram allows up to 50). */
    pollTimeoutSec: z.number().int().min(0).max(50).optional(),
    /** How often the webhook mode checks that the Bot API is reachable and the webhook still ours. */
    healthIntervalMs: z.number().int().min(200).max(3_600_000).optional(),
  })
  .passthrough();
export type TelegramConfig = z.output<typeof telegramConfig>;

/** An update as Telegram posts it to the webhook; the plugin reads the message and callback query it asked for. */
export const telegramUpdate = z.object({ update_id: z.number().int().nonnegative() }).passthrough();

export const contract = defineContract({
  id: 'channel-telegram',
  errors: {
    ERR_TELEGRAM_TOKEN: {
      status: 400,
      text: {
        pt: 'O canal Telegram precisa de um token',
        en: 'A Telegram channel needs a token',
        es: 'El canal de Telegram necesita un token',
        de: 'Der Telegram-Kanal benötigt ein Token',
        fr: 'Le canal Telegram nécessite un jeton',
        it: 'Il canale Telegram richiede un token',
        pl: 'Kanał Telegram wymaga tokena',
        ru: 'Для канала Telegram нужен токен',
      },
    },
  },
});

declare module '@atende/core/contract' {
  interface AtendeErrorCodes extends ErrorCodesOf<typeof contract> {}
}
