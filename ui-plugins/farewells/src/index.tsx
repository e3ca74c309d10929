import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-farewells/contract';
import { locales } from './locales.ts';

/** Farewell (closing) messages, `/fechamento`; the resolve dialog of the ticket screen offers them. */
export default defineUiPlugin({
  id: 'farewells',
  contract,
  routes: [{ path: '/fechamento', lazy: () => import('./FarewellsPage.tsx'), menu: 'closing' }],
  locales,
});
