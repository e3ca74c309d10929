import { IconFileCertificate } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-protocols/contract';
import { locales } from './locales.ts';

/** Protocols (`/protocolos`): the screen loads when the route opens. */
export default defineUiPlugin({
  id: 'protocols',
  contract,
  routes: [{ path: '/protocolos', name: 'protocolos', menu: 'protocols', lazy: () => import('./ProtocolsPage.tsx') }],
  menus: [{ key: 'protocols', label: 'menu', icon: IconFileCertificate, path: '/protocolos', section: 'management', order: 80 }],
  locales,
});
