import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-birthdays/contract';
import { locales } from './locales.ts';

/** Birthdays, `/aniversarios`: today's and upcoming, and each channel's birthday message. */
export default defineUiPlugin({
  id: 'birthdays',
  contract,
  routes: [{ path: '/aniversarios', lazy: () => import('./BirthdaysPage.tsx'), menu: 'birthdays' }],
  locales,
});
