import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';
import WabaConnect from './WabaConnect.tsx';
import WabaForm from './WabaForm.tsx';

/**
 * The WhatsApp Business API (Cloud API) channel on `/sessoes`: its fields in
 * the channel dialog and its connect panel (webhook URL and verify token to
 * paste in Meta, status, templates). No screens of its own.
 */
export default defineUiPlugin({
  id: 'channel-waba',
  routes: [],
  channels: [{ type: 'waba', form: WabaForm, connect: WabaConnect }],
  locales,
});
