import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-demands/contract';
import { locales } from './locales.ts';

/**
 * Demand reasons (motivos): the `/configuracoes/motivos` settings page, a tab
 * of the CRM group. The entry stays tiny: the screen loads when opened.
 */
export default defineUiPlugin({
  id: 'demands',
  contract,
  routes: [{ path: '/configuracoes/motivos', name: 'motivos', menu: 'settings', lazy: () => import('./DemandsPage.tsx') }],
  settingsTabs: [{ path: '/configuracoes/motivos', group: 'crm', label: 'tab', order: 20 }],
  locales,
});
