import { IconUsers } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-teams/contract';
import { locales } from './locales.ts';

/** Teams (`/equipes`): the entry stays tiny; the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'teams',
  contract,
  routes: [{ path: '/equipes', name: 'equipes', menu: 'teams', lazy: () => import('./TeamsPage.tsx') }],
  menus: [{ key: 'teams', label: 'menu', icon: IconUsers, path: '/equipes', section: 'management', order: 30 }],
  locales,
});
