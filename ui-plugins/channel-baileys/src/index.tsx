import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-channel-baileys/contract';
import BaileysConnect from './BaileysConnect.tsx';
import BaileysForm from './BaileysForm.tsx';
import { locales } from './locales.ts';

/**
 * The WhatsApp (Baileys) channel on `/sessoes`: how to link the phone in the
 * channel dialog (QR code or pairing code, the number for the code), and the
 * connect panel with the live QR code or the pairing code and the phone's
 * steps. No screens of its own.
 */
export default defineUiPlugin({
  id: 'channel-baileys',
  contract,
  routes: [],
  channels: [{ type: 'baileys', form: BaileysForm, connect: BaileysConnect }],
  locales,
});
