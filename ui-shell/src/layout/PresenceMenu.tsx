import { IconCircleFilled, IconCoffee, IconCircleOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorMessage, notify } from '@atende/ui-shell/sdk';
import { Menu } from '../ui/overlays.tsx';

export type PresenceStatus = 'online' | 'paused' | 'offline';
export const PRESENCE_COLOURS: Record<PresenceStatus, string> = { online: 'teal', paused: 'yellow', offline: 'gray' };
interface Me { status: PresenceStatus; pauseReason: string | null }
interface ListAnswer { users: Array<{ id: number; status: PresenceStatus; pauseReason: string | null }> }

const meKey = ['presence', 'me'] as const;

/** The user's own presence (U2): read from `/presence`, changed with `PUT /presence`. */
export function usePresence(userId: number | undefined) {
  const qc = useQueryClient();
  const me = useQuery({
    queryKey: meKey,
    enabled: !!userId,
    staleTime: 60_000,
    queryFn: async (): Promise<Me> => {
      const r = await api.get<ListAnswer>('/presence', { silent: true, background: true });
      const self = r.users.find((u) => u.id === userId);
      return { status: self?.status ?? 'online', pauseReason: self?.pauseReason ?? null };
    },
  });
  const set = async (status: PresenceStatus, reason?: string) => {
    const r = await api.put<{ status: PresenceStatus; pauseReason: string | null }>('/presence', { status, ...(reason ? { reason } : {}) }, { silent: true });
    qc.setQueryData(meKey, { status: r.status, pauseReason: r.pauseReason });
    // Lists of colleagues (transfer, team) follow through the socket's user.status_updated.
  };
  return { status: me.data?.status ?? 'online', pauseReason: me.data?.pauseReason ?? null, set };
}

/** The status entries of the user menu: online, pause (asks the reason), offline. */
export function PresenceMenuItems({ status, pauseReason, onPick }: { status: PresenceStatus; pauseReason: string | null; onPick: (s: PresenceStatus) => void }) {
  const { t } = useTranslation();
  const icon = (s: PresenceStatus) => (s === 'paused' ? <IconCoffee size={14} color={`var(--mantine-color-${PRESENCE_COLOURS[s]}-7)`} /> : s === 'offline' ? <IconCircleOff size={14} color="var(--mantine-color-gray-6)" /> : <IconCircleFilled size={10} color="var(--mantine-color-teal-6)" />);
  return (
    <>
      <Menu.Label data-testid="presence-current">{status === 'paused' && pauseReason ? t('presence.pausedWith', { reason: pauseReason }) : t(`presence.${status}`)}</Menu.Label>
      {(['online', 'paused', 'offline'] as const).filter((s) => s !== status || s === 'paused').map((s) => (
        <Menu.Item key={s} leftSection={icon(s)} onClick={() => onPick(s)} data-testid={`presence-set-${s}`}>
          {s === 'paused' ? (status === 'paused' ? t('presence.changeReason') : t('presence.pause')) : t(`presence.set_${s}`)}
        </Menu.Item>
      ))}
    </>
  );
}

/** Asks why the agent pauses (required by the server), with the usual reasons offered. */

export function notifyPresenceError(e: unknown) {
  notify.error(errorMessage(e));
}
