import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-channel-sandbox/contract';
import { SandboxConnect } from './SandboxConnect.tsx';
import { SandboxForm } from './SandboxForm.tsx';
import { locales } from './locales.ts';

/**
 * The sandbox channel's part of `/sessoes`: the simulated provider's
 * settings (delivery and read delays, a text that makes sends fail) and a
 * connect panel with its signed inbound URL and a "customer" to play.
 */
export default defineUiPlugin({
  id: 'channel-sandbox',
  contract,
  routes: [],
  channels: [{ type: 'sandbox', form: SandboxForm, connect: SandboxConnect }],
  locales,
});
