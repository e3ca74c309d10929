import { IconCake } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-birthdays/contract';
import ChannelBirthday from './ChannelBirthday.tsx';
import { locales } from './locales.ts';

/** Birthdays, `/aniversarios`: today's and upcoming, and each channel's birthday message. */
export default defineUiPlugin({
  id: 'birthdays',
  contract,
  routes: [{ path: '/aniversarios', name: 'aniversarios', lazy: () => import('./BirthdaysPage.tsx'), menu: 'birthdays' }],
  // The rail entry (label from the shell's catalogue of the spec's menu names, core.md §6).
  menus: [{ key: 'birthdays', label: 'menu.birthdays', icon: IconCake, path: '/aniversarios', section: 'outreach', order: 50 }],
  // The channel's birthday message, hour and file, in the channel dialog's Mensagens tab.
  channelDialog: [{ label: 'channelSection', order: 20, tab: 'messages', component: ChannelBirthday }],
  locales,
});
