import { IconBell } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-notifications/contract';
import { locales } from './locales.ts';

// The badge loads after the entry, like the screens: the entry stays tiny and the
// widget's Mantine imports resolve through the shared scope the shell has set up.
const Bell = lazy(() => import('./NotificationBell.tsx').then((m) => ({ default: m.NotificationBell })));
function HeaderBell() {
  return (
    <Suspense fallback={null}>
      <Bell />
    </Suspense>
  );
}

/**
 * Notifications: the `/notificacao` screen (superadmin) and, for every user,
 * a live badge with a dropdown in the layout header.
 */
export default defineUiPlugin({
  id: 'notifications',
  contract,
  routes: [{ path: '/notificacao', name: 'notificacao', menu: 'notification', lazy: () => import('./NotificationsPage.tsx') }],
  menus: [{ key: 'notification', label: 'menu', icon: IconBell, path: '/notificacao', section: 'platform', order: 120 }],
  widgets: { 'layout.header': HeaderBell },
  locales,
});
