import { Badge, Box, Drawer, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, useRealtime } from '@atende/ui-shell/sdk';
import { listPresence, listQueues, unwrap, type PresenceStatus, type Queue } from './api.ts';
import { PresenceDot } from './TransferDialog.tsx';

export const teamKey = ['tickets', 'presence', 'team'] as const;

/** The team, live: each person's status (and why they paused, since when), queues and load. */
function TeamList() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const team = useQuery({ queryKey: teamKey, queryFn: () => listPresence(null) });
  const queues = useQuery({ queryKey: ['tickets', 'queues'], queryFn: listQueues, staleTime: 300_000 });
  const queueName = new Map(unwrap<Queue>(queues.data, 'queues').map((q) => [q.id, q]));
  // Many ticket events can arrive together (a bulk transfer): one refetch for a burst.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refresh = () => {
    if (pending.current) return;
    pending.current = setTimeout(() => { pending.current = undefined; void qc.invalidateQueries({ queryKey: teamKey }); }, 300);
  };
  useRealtime('user.status_updated', refresh);
  useRealtime('ticket.created', refresh);
  useRealtime('ticket.updated', refresh);
  useRealtime('ticket.removed', refresh);
  const users = team.data?.users ?? [];
  const counts = users.reduce<Record<PresenceStatus, number>>((acc, u) => ({ ...acc, [u.status]: acc[u.status] + 1 }), { online: 0, paused: 0, offline: 0 });
  if (team.isPending) return <Stack>{[1, 2, 3].map((i) => <Skeleton key={i} height={48} />)}</Stack>;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {(['online', 'paused', 'offline'] as const).map((s) => (
          <Badge key={s} variant="light" color={s === 'online' ? 'teal' : s === 'paused' ? 'yellow' : 'gray'} tt="none" leftSection={<PresenceDot status={s} />} data-testid={`team-count-${s}`}>
            {t(`presence.${s}`)}: {counts[s]}
          </Badge>
        ))}
      </Group>
      {users.map((u) => (
        <Group key={u.id} wrap="nowrap" gap="sm" p={8} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }} data-testid="team-member" data-user-id={u.id} data-status={u.status}>
          <PresenceDot status={u.status} />
          <Box style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" fw={600} truncate="end">{u.name}</Text>
            <Text size="xs" c="dimmed" truncate="end" data-testid="team-member-status">
              {u.status === 'paused' && u.pauseReason ? t('presence.pausedWith', { reason: u.pauseReason }) : t(`presence.${u.status}`)}
              {u.status !== 'offline' ? ` · ${t('presence.since', { when: formatDateTime(u.since, i18n.language) })}` : ''}
            </Text>
            {u.queues.length > 0 && <Text size="xs" c="dimmed" truncate="end">{u.queues.map((id) => queueName.get(id)?.name).filter(Boolean).join(', ')}</Text>}
          </Box>
          <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
            <Badge size="sm" variant="light" color="blue" tt="none" data-testid="team-member-open">{t('presence.openCount', { count: u.openTickets })}</Badge>
            {u.pendingTickets > 0 && <Text size="xs" c="dimmed">{t('presence.pendingCount', { count: u.pendingTickets })}</Text>}
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

/** The drawer of the team view; its own module, fetched the first time it opens (docs/performance.md U1). */
export function TeamDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer opened={opened} onClose={onClose} title={t('presence.team')} position="right" size="md">
      {opened && <TeamList />}
    </Drawer>
  );
}
