import { lazy, Suspense } from 'react';
import { IconMessageCircle } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-private-chat/contract';
import { locales } from './locales.ts';

// Loaded after the entry, like the screen: the entry stays tiny.
const Watcher = lazy(() => import('./ChatWatcher.tsx').then((m) => ({ default: m.ChatWatcher })));
function HeaderWatcher() {
  return (
    <Suspense fallback={null}>
      <Watcher />
    </Suspense>
  );
}

/**
 * Private internal chat (`/chat-privado`, outside the main layout): tabs for
 * users and teams; and, from any screen, the unread badge on its rail entry and
 * a toast for each colleague's message.
 */
export default defineUiPlugin({
  id: 'private-chat',
  contract,
  routes: [{ path: '/chat-privado', name: 'chat-privado', menu: 'chat', layout: 'standalone', lazy: () => import('./PrivateChatPage.tsx') }],
  menus: [{ key: 'chat', label: 'menu', icon: IconMessageCircle, path: '/chat-privado', section: 'service', order: 50 }],
  widgets: { 'layout.header': HeaderWatcher },
  locales,
});
