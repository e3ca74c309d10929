import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-schedules/contract';
import { locales } from './locales.ts';

/** Scheduled messages of every ticket (`/agendamentos`); the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'schedules',
  contract,
  routes: [{ path: '/agendamentos', lazy: () => import('./SchedulesPage.tsx'), menu: 'schedules' }],
  locales,
});
