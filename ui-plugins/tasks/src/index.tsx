import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/** Tasks (`/tarefas`): the entry stays tiny; the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'tasks',
  routes: [{ path: '/tarefas', lazy: () => import('./TasksPage.tsx'), menu: 'tasks' }],
  locales,
});
