import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { desktopNotify, getSession, pageWatched, playSound, useAttention, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { conversationsKey, getConversations, type ChatMessage } from './api.ts';

/** How long an internal message's toast stays: long enough to read a sentence. */
const TOAST_MS = 6000;

/**
 * Mounted in the layout header for every user of the internal chat, whatever
 * the screen: the unread count on the rail's chat entry (and so in the tab
 * title), and for a colleague's message a sound, a toast that opens the chat,
 * and a desktop notification while the page is in the background. On the
 * chat screen itself the message shows in its list, so no toast.
 */
export function ChatWatcher() {
  const { t } = usePluginTranslation('private-chat');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const conversations = useQuery({ queryKey: conversationsKey, queryFn: ({ signal }) => getConversations(signal), staleTime: 30_000 });
  useAttention('chat', conversations.data?.unreadCount);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: conversationsKey });

  useRealtime<ChatMessage & { teamName?: string }>('private_message.created', (m) => {
    refresh();
    if (m.fromUserId === getSession()?.userId) return;
    const onChat = pathname.startsWith('/chat-privado');
    const from = m.fromName ?? t('toastNew');
    const title = m.teamId && m.teamName ? t('toastTeam', { name: from, team: m.teamName }) : from;
    if (!onChat || !pageWatched()) playSound('internal');
    if (!onChat) {
      notifications.show({
        id: `private-chat-${m.id}`,
        title,
        message: m.body,
        color: 'grape',
        autoClose: TOAST_MS,
        withBorder: true,
        style: { cursor: 'pointer' },
        onClick: () => {
          notifications.hide(`private-chat-${m.id}`);
          navigate('/chat-privado');
        },
        'data-testid': 'private-chat-toast',
      } as Parameters<typeof notifications.show>[0]);
    }
    desktopNotify({ title, body: m.body, tag: `private-chat-${m.teamId ? `t${m.teamId}` : `u${m.fromUserId}`}`, onClick: () => navigate('/chat-privado') });
  });
  useRealtime('private_message.read', refresh);
  return null;
}
