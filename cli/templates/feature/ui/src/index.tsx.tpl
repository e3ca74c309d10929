import { IconListDetails } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-__ID__/contract';
import { locales } from './locales.ts';

/**
 * __LABEL__'s screens. The remote declares its route (the shell mounts it
 * inside the main layout) and its rail entry; the screen itself loads only
 * when opened, so this entry stays tiny. `contract` registers the plugin's
 * error texts in every language.
 */
export default defineUiPlugin({
  id: '__ID__',
  contract,
  routes: [{ path: '/__ID__', name: '__ID__', menu: '__KEY__', lazy: () => import('./ItemsPage.tsx') }],
  // Section and order place the entry in the rail (the shell's own entries use multiples of 10).
  menus: [{ key: '__KEY__', label: 'menu', icon: IconListDetails, path: '/__ID__', section: 'service', order: 90 }],
  locales,
});
