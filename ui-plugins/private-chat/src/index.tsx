import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { locales } from './locales.ts';

/** Private internal chat (`/chat-privado`, outside the main layout): tabs for users and teams. */
export default defineUiPlugin({
  id: 'private-chat',
  routes: [{ path: '/chat-privado', lazy: () => import('./PrivateChatPage.tsx'), menu: 'chat' }],
  locales,
});
