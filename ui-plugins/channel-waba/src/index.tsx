import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-channel-waba/contract';
import { locales } from './locales.ts';
import WabaConnect from './WabaConnect.tsx';
import WabaForm from './WabaForm.tsx';
import TemplateAction from './TemplateAction.tsx';
import WindowNotice from './WindowNotice.tsx';

/**
 * The WhatsApp Business API (Cloud API) channel on `/sessoes`: its fields in
 * the channel dialog and its connect panel (webhook URL and verify token to
 * paste in Meta, status, templates), and on the ticket screen the template
 * picker in the composer and the 24-hour window notice above it. No screens of its own.
 */
export default defineUiPlugin({
  id: 'channel-waba',
  contract,
  routes: [],
  channels: [{ type: 'waba', form: WabaForm, connect: WabaConnect, composerAction: TemplateAction, composerNotice: WindowNotice }],
  locales,
});
