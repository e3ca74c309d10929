import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/** Protocols (`/protocolos`): the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'protocols',
  routes: [{ path: '/protocolos', lazy: () => import('./ProtocolsPage.tsx'), menu: 'protocols' }],
  locales,
});
