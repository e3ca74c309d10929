import { IconNotes } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-notes/contract';
import { locales } from './locales.ts';

/** Notes (`/notas`): the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'notes',
  contract,
  routes: [{ path: '/notas', name: 'notas', menu: 'notes', lazy: () => import('./NotesPage.tsx') }],
  menus: [{ key: 'notes', label: 'menu', icon: IconNotes, path: '/notas', section: 'management', order: 70 }],
  locales,
});
