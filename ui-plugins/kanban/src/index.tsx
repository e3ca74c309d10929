import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/**
 * Kanban: the board (`/kanban` with its children `kanbans` and `tags`) and the
 * lanes (`/lanes`, and the `/configuracoes/lanes` settings tab). Screens load
 * when their route opens.
 */
export default defineUiPlugin({
  id: 'kanban',
  routes: [
    { path: '/kanban', lazy: () => import('./KanbanLayout.tsx'), menu: 'kanban' },
    { path: '/kanban/kanbans', lazy: () => import('./BoardPage.tsx').then((m) => ({ default: m.LanesBoard })), menu: 'kanban' },
    { path: '/kanban/tags', lazy: () => import('./BoardPage.tsx').then((m) => ({ default: m.TagsBoard })), menu: 'kanban' },
    { path: '/lanes', lazy: () => import('./LanesPage.tsx'), menu: 'kanban' },
    { path: '/configuracoes/lanes', lazy: () => import('./LanesPage.tsx'), menu: 'settings' },
  ],
  locales,
});
