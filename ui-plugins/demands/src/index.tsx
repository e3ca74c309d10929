import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/**
 * Demand reasons (motivos), the `/configuracoes/motivos` settings screen.
 * The entry stays tiny: the screen itself loads when the route is opened.
 */
export default defineUiPlugin({
  id: 'demands',
  routes: [{ path: '/configuracoes/motivos', lazy: () => import('./DemandsPage.tsx'), menu: 'settings' }],
  locales,
});
