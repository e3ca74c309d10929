import { Alert, Badge, Box, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage, useRealtime } from '@atende/ui-shell/sdk';
import { listPresence, listQueues, unwrap, type PresenceStatus, type PresenceUser, type Queue, type Ticket } from './api.ts';

export const PRESENCE_COLOUR: Record<PresenceStatus, string> = { online: 'var(--mantine-color-teal-6)', paused: 'var(--mantine-color-yellow-6)', offline: 'var(--mantine-color-gray-5)' };

export function PresenceDot({ status }: { status: PresenceStatus }) {
  return <Box component="span" aria-hidden style={{ width: 9, height: 9, borderRadius: 99, background: PRESENCE_COLOUR[status], flexShrink: 0, display: 'inline-block' }} />;
}

export type TransferBody = { userId: number | null; queueId: number | null; transferNote?: string };

/**
 * Transfer to a queue and/or a user (core.md §4, U2): the people offered are
 * those of the chosen queue, each with their status (online, paused, offline)
 * and how many tickets they have open, online and least busy first; an
 * optional note goes with the ticket and shows in the conversation's transfer line.
 * `queueOnly`: why this user may move the ticket between queues but not give it to a person (then no user picker).
 */
export function TransferDialog({ ticket, opened, onClose, onSubmit, queueOnly }: { ticket: Ticket; opened: boolean; onClose: () => void; onSubmit: (body: TransferBody) => Promise<void>; queueOnly?: string }) {
  const { t } = useTranslation();
  const [queueId, setQueueId] = useState<string | null>(ticket.queueId ? String(ticket.queueId) : null);
  const [userId, setUserId] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queues = useQuery({ queryKey: ['tickets', 'queues'], queryFn: listQueues, staleTime: 300_000, enabled: opened });
  const people = useQuery({ queryKey: ['tickets', 'presence', queueId], queryFn: () => listPresence(queueId ? Number(queueId) : null), enabled: opened && !queueOnly, retry: false });
  // Statuses change while the dialog is open: follow them.
  useRealtime('user.status_updated', () => { if (opened) void people.refetch(); });
  const userList: PresenceUser[] = people.data?.users ?? [];
  const byId = useMemo(() => new Map(userList.map((u) => [String(u.id), u])), [userList]);
  const usersDenied = people.error instanceof ApiError && people.error.status === 403;
  useEffect(() => {
    if (opened) {
      setError(null);
      setUserId(null);
      setNote('');
      setQueueId(ticket.queueId ? String(ticket.queueId) : null);
    }
  }, [opened, ticket.queueId]);
  // A person of another queue is no longer offered once the queue changes.
  useEffect(() => {
    if (userId && people.data && !byId.has(userId)) setUserId(null);
  }, [people.data]);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ userId: userId ? Number(userId) : null, queueId: queueId ? Number(queueId) : null, ...(note.trim() ? { transferNote: note.trim() } : {}) });
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const statusLabel = (u: PresenceUser) => (u.status === 'paused' && u.pauseReason ? t('presence.pausedWith', { reason: u.pauseReason }) : t(`presence.${u.status}`));
  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.transfer.title')} centered>
      <Stack>
        <Select label={t('tickets.transfer.queue')} placeholder={t('tickets.transfer.queuePlaceholder')} data={unwrap<Queue>(queues.data, 'queues').map((q) => ({ value: String(q.id), label: q.name }))} value={queueId} onChange={setQueueId} clearable data-testid="transfer-queue" comboboxProps={{ withinPortal: true }} />
        {queueOnly ? (
          <Alert color="orange" data-testid="transfer-queue-only">{queueOnly}</Alert>
        ) : usersDenied ? (
          <Alert color="gray">{t('tickets.transfer.usersDenied')}</Alert>
        ) : (
          <Select
            label={t('tickets.transfer.user')}
            placeholder={t('tickets.transfer.userPlaceholder')}
            description={queueId ? t('tickets.transfer.usersOfQueue') : undefined}
            data={userList.map((u) => ({ value: String(u.id), label: u.name }))}
            value={userId}
            onChange={setUserId}
            searchable
            clearable
            nothingFoundMessage={people.isFetching ? t('app.loading') : t('tickets.transfer.noUsers')}
            data-testid="transfer-user"
            comboboxProps={{ withinPortal: true }}
            leftSection={userId && byId.get(userId) ? <PresenceDot status={byId.get(userId)!.status} /> : undefined}
            renderOption={({ option }) => {
              const u = byId.get(option.value);
              if (!u) return option.label;
              return (
                <Group gap="sm" wrap="nowrap" w="100%" data-testid="transfer-user-option" data-status={u.status}>
                  <PresenceDot status={u.status} />
                  <Box style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" truncate="end">{u.name}</Text>
                    <Text size="xs" c="dimmed" truncate="end">{statusLabel(u)}</Text>
                  </Box>
                  <Badge size="sm" variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>{t('presence.openCount', { count: u.openTickets })}</Badge>
                </Group>
              );
            }}
          />
        )}
        <Textarea label={t('tickets.transfer.note')} placeholder={t('tickets.transfer.notePlaceholder')} value={note} onChange={(e) => setNote(e.currentTarget.value)} autosize minRows={2} maxRows={5} maxLength={1000} data-testid="transfer-note" />
        {error && <Alert color="red" data-testid="transfer-error">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
          <Button leftSection={<IconArrowsExchange size={16} />} onClick={() => void submit()} loading={busy} disabled={!userId && !queueId} data-testid="transfer-submit">{t('tickets.transfer.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
