import { IconLayoutKanban } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-kanban/contract';
import { locales } from './locales.ts';

/**
 * Kanban: the board (`/kanban` with its children `kanbans` and `tags`) and the
 * lanes (`/lanes`, and the `/configuracoes/lanes` settings tab of the CRM
 * group). Screens load when their route opens.
 */
export default defineUiPlugin({
  id: 'kanban',
  contract,
  routes: [
    {
      path: '/kanban',
      name: 'kanban',
      menu: 'kanban',
      redirect: '/kanban/kanbans',
      lazy: () => import('./KanbanLayout.tsx'),
      children: [
        { path: '/kanban/kanbans', name: 'kanbans', menu: 'kanban', lazy: () => import('./BoardPage.tsx').then((m) => ({ default: m.LanesBoard })) },
        { path: '/kanban/tags', name: 'tags', menu: 'kanban', lazy: () => import('./BoardPage.tsx').then((m) => ({ default: m.TagsBoard })) },
      ],
    },
    { path: '/lanes', name: 'lanes', menu: 'kanban', lazy: () => import('./LanesPage.tsx') },
    { path: '/configuracoes/lanes', name: 'configuracoes-lanes', menu: 'settings', lazy: () => import('./LanesPage.tsx') },
  ],
  menus: [{ key: 'kanban', label: 'menu', icon: IconLayoutKanban, path: '/kanban', section: 'service', order: 60 }],
  settingsTabs: [{ path: '/configuracoes/lanes', group: 'crm', label: 'tab', order: 10 }],
  locales,
});
