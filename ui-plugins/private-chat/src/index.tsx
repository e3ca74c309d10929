import { IconMessageCircle } from '@tabler/icons-react';
import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-private-chat/contract';
import { locales } from './locales.ts';

/** Private internal chat (`/chat-privado`, outside the main layout): tabs for users and teams. */
export default defineUiPlugin({
  id: 'private-chat',
  contract,
  routes: [{ path: '/chat-privado', name: 'chat-privado', menu: 'chat', layout: 'standalone', lazy: () => import('./PrivateChatPage.tsx') }],
  menus: [{ key: 'chat', label: 'menu', icon: IconMessageCircle, path: '/chat-privado', section: 'service', order: 50 }],
  locales,
});
