import { IconMessage2Check } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-farewells/contract';
import ChannelFarewell from './ChannelFarewell.tsx';
import { locales } from './locales.ts';

/** Farewell (closing) messages, `/fechamento`; the resolve dialog of the ticket screen offers them; and each channel's own farewell in the channel dialog. */
export default defineUiPlugin({
  id: 'farewells',
  contract,
  routes: [{ path: '/fechamento', name: 'fechamento', lazy: () => import('./FarewellsPage.tsx'), menu: 'closing' }],
  // The rail entry (label from the shell's catalogue of the spec's menu names, core.md §6).
  menus: [{ key: 'closing', label: 'menu.closing', icon: IconMessage2Check, path: '/fechamento', section: 'outreach', order: 60 }],
  // The channel's farewell, in the dialog's Mensagens tab (before the birthday message).
  channelDialog: [{ label: 'channelSection', order: 10, tab: 'messages', component: ChannelFarewell }],
  locales,
});
