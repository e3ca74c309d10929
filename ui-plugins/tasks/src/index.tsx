import { IconChecklist } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-tasks/contract';
import { locales } from './locales.ts';

/** Tasks (`/tarefas`): the entry stays tiny; the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'tasks',
  contract,
  routes: [{ path: '/tarefas', name: 'tarefas', menu: 'tasks', lazy: () => import('./TasksPage.tsx') }],
  menus: [{ key: 'tasks', label: 'menu', icon: IconChecklist, path: '/tarefas', section: 'service', order: 70 }],
  locales,
});
