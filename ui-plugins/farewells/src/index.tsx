import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/** Farewell (closing) messages, `/fechamento`; the resolve dialog of the ticket screen offers them. */
export default defineUiPlugin({
  id: 'farewells',
  routes: [{ path: '/fechamento', lazy: () => import('./FarewellsPage.tsx'), menu: 'closing' }],
  locales,
});
