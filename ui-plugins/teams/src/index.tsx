import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/** Teams (`/equipes`): the entry stays tiny; the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'teams',
  routes: [{ path: '/equipes', lazy: () => import('./TeamsPage.tsx'), menu: 'teams' }],
  locales,
});
