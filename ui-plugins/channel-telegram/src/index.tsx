import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-channel-telegram/contract';
import { TelegramForm } from './TelegramForm.tsx';
import { locales } from './locales.ts';

/**
 * The Telegram channel's part of `/sessoes`: the bot token and how updates
 * arrive (webhook or long polling), mounted in the shell's channel dialog.
 * Connecting needs no QR code, so the shell's default panel (status, retries,
 * last error) is enough. The contract brings the text of ERR_TELEGRAM_TOKEN
 * in every language.
 */
export default defineUiPlugin({
  id: 'channel-telegram',
  contract,
  routes: [],
  channels: [{ type: 'telegram', form: TelegramForm }],
  locales,
});
