import { IconCalendarTime } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-schedules/contract';
import { locales } from './locales.ts';

/** Scheduled messages of every ticket (`/agendamentos`); the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'schedules',
  contract,
  routes: [{ path: '/agendamentos', name: 'agendamentos', lazy: () => import('./SchedulesPage.tsx'), menu: 'schedules' }],
  // The rail entry (label from the shell's catalogue of the spec's menu names, core.md §6).
  menus: [{ key: 'schedules', label: 'menu.schedules', icon: IconCalendarTime, path: '/agendamentos', section: 'outreach', order: 40 }],
  locales,
});
