import { ActionIcon, Badge, Box, Button, Divider, Group, Indicator, Modal, Popover, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconBell, IconChecks, IconPencilPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime, getSession, notify, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { getInbox, inboxKey, markAllRead, markRead, type Notification } from './api.ts';
import { ComposeForm } from './ComposeForm.tsx';

/**
 * The header badge: the unread count, live (`notification.created` and
 * `notification.read` arrive only in this user's room), and a dropdown to read
 * them and mark them read. Admins can also write one from here.
 */
export function NotificationBell() {
  const { t, i18n } = usePluginTranslation('notifications');
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [composing, setComposing] = useState(false);
  const profile = getSession()?.profile;
  const inbox = useQuery({ queryKey: inboxKey, queryFn: ({ signal }) => getInbox(signal) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: inboxKey });
  useRealtime<Notification>('notification.created', (n) => {
    refresh();
    notify.info(n.message);
  });
  useRealtime('notification.read', refresh);
  const readOne = useMutation({ mutationFn: (id: number) => markRead(id), onSuccess: refresh });
  const readAll = useMutation({ mutationFn: markAllRead, onSuccess: refresh });
  const unread = inbox.data?.unread ?? 0;
  const items = inbox.data?.notifications ?? [];

  return (
    <>
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" withArrow>
        <Popover.Target>
          <Tooltip label={t('title')} disabled={opened}>
            <Indicator label={unread > 99 ? '99+' : unread} size={18} color="red" disabled={unread === 0} offset={4} data-testid="notification-badge">
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('bellLabel', { n: unread })} onClick={() => setOpened((o) => !o)}>
                <IconBell size={20} />
              </ActionIcon>
            </Indicator>
          </Tooltip>
        </Popover.Target>
        <Popover.Dropdown p={0}>
          <Group justify="space-between" px="sm" py="xs">
            <Group gap={6}>
              <Text fw={600} size="sm">{t('title')}</Text>
              {unread > 0 && <Badge size="sm" color="red" variant="light">{t('unreadCount', { n: unread })}</Badge>}
            </Group>
            <Group gap={4}>
              {(profile === 'admin' || profile === 'superadmin') && (
                <Tooltip label={t('new')}><ActionIcon variant="subtle" aria-label={t('new')} onClick={() => { setOpened(false); setComposing(true); }}><IconPencilPlus size={16} /></ActionIcon></Tooltip>
              )}
              <Button size="compact-xs" variant="subtle" leftSection={<IconChecks size={14} />} disabled={unread === 0} loading={readAll.isPending} onClick={() => readAll.mutate()}>{t('markAll')}</Button>
            </Group>
          </Group>
          <Divider />
          <ScrollArea.Autosize mah={380} type="auto">
            {items.length === 0 ? (
              <Stack align="center" gap={4} py="lg"><IconBell size={28} color="var(--mantine-color-dimmed)" /><Text size="sm" c="dimmed">{t('empty')}</Text></Stack>
            ) : items.map((n) => (
              <UnstyledButton key={n.id} w="100%" px="sm" py="xs" onClick={() => !n.read && readOne.mutate(n.id)} aria-label={n.read ? n.message : t('markOne', { message: n.message })}
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)', background: n.read ? undefined : 'var(--mantine-color-blue-light)' }}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Box w={8} h={8} mt={6} style={{ borderRadius: 8, flexShrink: 0, background: n.read ? 'transparent' : 'var(--mantine-color-red-6)' }} />
                  <Box style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" fw={n.read ? 400 : 600} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{n.message}</Text>
                    <Text size="xs" c="dimmed">{[n.senderName, formatDateTime(n.createdAt, i18n.language)].filter(Boolean).join(' · ')}</Text>
                  </Box>
                </Group>
              </UnstyledButton>
            ))}
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
      <Modal opened={composing} onClose={() => setComposing(false)} title={t('new')} centered size="lg">
        {composing && <ComposeForm onSent={() => setComposing(false)} />}
      </Modal>
    </>
  );
}
