import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { NotificationBell } from './NotificationBell.tsx';
import { locales } from './locales.ts';

/**
 * Notifications: the `/notificacao` screen (superadmin) and, for every user,
 * a live badge with a dropdown in the layout header.
 */
export default defineUiPlugin({
  id: 'notifications',
  routes: [{ path: '/notificacao', lazy: () => import('./NotificationsPage.tsx'), menu: 'notification' }],
  widgets: { 'layout.header': NotificationBell },
  locales,
});
