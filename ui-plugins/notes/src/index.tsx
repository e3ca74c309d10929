import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/** Notes (`/notas`): the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'notes',
  routes: [{ path: '/notas', lazy: () => import('./NotesPage.tsx'), menu: 'notes' }],
  locales,
});
