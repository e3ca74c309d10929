/**
 * The channel's long actions: importing old messages (`POST
 * /messages/syncOld`, progress pushed live as `channel.history_progress`)
 * and moving every active ticket to another channel (`PUT /ticketsChannel`).
 */
import { Alert, Badge, Button, Checkbox, Group, Modal, NumberInput, Paper, Progress, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertCircle, IconArrowRight, IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, DateTimeInputBR, errorMessage, formatDateTime, notify, useRealtime } from '@atende/ui-shell/sdk';
import { useQueues } from '../shared.tsx';
import { listImports, moveChannelTickets, startImport, type Channel, type HistoryImport, type HistoryProgress } from './api.ts';
import { ChannelTypeIcon } from './visuals.tsx';

const IMPORT_COLOR: Record<string, string> = { queued: 'gray', running: 'blue', done: 'teal', failed: 'red' };

/** History import: the spec's options, then the job's progress live. */
export function ImportDialog({ channel, onClose }: { channel: Channel; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const queues = useQueues();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [groups, setGroups] = useState(false);
  const [deviceMessages, setDeviceMessages] = useState(true);
  const [queueId, setQueueId] = useState<string | null>(null);
  const [closeTickets, setCloseTickets] = useState(false);
  const [limit, setLimit] = useState<number | string>('');
  const [errors, setErrors] = useState<{ limit?: string; dates?: string; form?: string }>({});
  const [progress, setProgress] = useState<HistoryProgress | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const importsKey = ['channels', 'imports', channel.id];
  const imports = useQuery({ queryKey: importsKey, queryFn: ({ signal }) => listImports(channel.id, signal) });

  useRealtime<HistoryProgress>('channel.history_progress', (p) => {
    if (!p || p.channelId !== channel.id) return;
    if (importId && p.importId === importId) setProgress((cur) => ({ ...cur, ...p }));
    if (p.status !== 'running') void qc.invalidateQueries({ queryKey: importsKey });
  });

  const start = useMutation({
    mutationFn: () =>
      startImport({
        channelId: channel.id,
        startDate: from ? new Date(from).toISOString() : undefined,
        endDate: to ? new Date(to).toISOString() : undefined,
        groups,
        deviceMessages,
        queueId: queueId ? Number(queueId) : null,
        closeTickets,
        limit: limit === '' ? undefined : Number(limit),
      }),
    onSuccess: (r) => {
      setImportId(r.importId);
      setProgress({ importId: r.importId, channelId: channel.id, status: 'running', imported: 0 });
      void qc.invalidateQueries({ queryKey: importsKey });
    },
    onError: (err) => {
      const code = err instanceof ApiError ? err.code : undefined;
      if (code === 'ERR_POSITIVE_LIMIT') setErrors({ limit: errorMessage(err) });
      else if (code === 'ERR_INVALID_DATE') setErrors({ dates: errorMessage(err) });
      else setErrors({ form: errorMessage(err) });
    },
  });

  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    const e: typeof errors = {};
    // administration.md §5: a history sync limit accepts only positive numbers.
    if (limit !== '' && !(Number.isInteger(Number(limit)) && Number(limit) > 0)) e.limit = t('errors.ERR_POSITIVE_LIMIT');
    if (from && to && new Date(from) > new Date(to)) e.dates = t('channels.import.datesOrder');
    setErrors(e);
    if (Object.values(e).some(Boolean)) return;
    start.mutate();
  };

  const running = progress?.status === 'running';
  const pct = progress?.total ? Math.min(100, Math.round(((progress.imported ?? 0) / progress.total) * 100)) : undefined;

  return (
    <Modal opened onClose={onClose} size={640} radius="md" title={<Group gap="sm"><ChannelTypeIcon type={channel.type} size={30} /><Text fw={700}>{t('channels.import.title', { name: channel.name })}</Text></Group>}>
      <form onSubmit={submit} noValidate data-testid="import-dialog">
        <Stack gap="sm">
          {errors.form && <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />}>{errors.form}</Alert>}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <DateTimeInputBR label={t('channels.import.from')} value={from} onChange={setFrom} error={errors.dates} />
            <DateTimeInputBR label={t('channels.import.to')} value={to} onChange={setTo} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select label={t('channels.import.queue')} description={t('channels.import.queueHint')} placeholder={t('channels.dialog.none')} data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))} value={queueId} onChange={setQueueId} clearable />
            <NumberInput
              label={t('channels.import.limit')}
              description={t('channels.import.limitHint')}
              value={limit}
              onChange={setLimit}
              allowDecimal={false}
              error={errors.limit}
              data-testid="import-limit"
            />
          </SimpleGrid>
          <Group gap="lg">
            <Checkbox label={t('channels.import.deviceMessages')} checked={deviceMessages} onChange={(e) => setDeviceMessages(e.currentTarget.checked)} />
            <Checkbox label={t('channels.import.groups')} checked={groups} onChange={(e) => setGroups(e.currentTarget.checked)} />
            <Checkbox label={t('channels.import.closeTickets')} checked={closeTickets} onChange={(e) => setCloseTickets(e.currentTarget.checked)} />
          </Group>

          {progress && (
            <Paper withBorder radius="md" p="md" data-testid="import-progress">
              <Group justify="space-between" mb={6}>
                <Text size="sm" fw={600}>{t(`channels.import.status.${progress.status}`)}</Text>
                <Text size="sm" c="dimmed">{progress.total ? t('channels.import.countOf', { done: progress.imported ?? 0, total: progress.total }) : t('channels.import.count', { count: progress.imported ?? 0 })}</Text>
              </Group>
              <Progress value={pct ?? (running ? 100 : progress.status === 'done' ? 100 : 0)} animated={running} striped={running && pct === undefined} color={progress.status === 'failed' ? 'red' : progress.status === 'done' ? 'teal' : 'blue'} />
              {progress.status === 'done' && <Text size="sm" c="teal.7" mt={6}><IconCircleCheck size={14} /> {t('channels.import.done', { count: progress.imported ?? 0, tickets: progress.tickets ?? 0 })}</Text>}
              {progress.status === 'failed' && <Text size="sm" c="red.7" mt={6}>{t('errors.ERR_SYNC_MESSAGES')}{progress.error ? `: ${progress.error}` : ''}</Text>}
            </Paper>
          )}

          {(imports.data?.length ?? 0) > 0 && (
            <Stack gap={4}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">{t('channels.import.recent')}</Text>
              <Table fz="xs" verticalSpacing={4} withRowBorders={false}>
                <Table.Tbody>
                  {imports.data!.slice(0, 5).map((imp: HistoryImport) => (
                    <Table.Tr key={imp.id}>
                      <Table.Td>{formatDateTime(imp.createdAt, i18n.language)}</Table.Td>
                      <Table.Td><Badge size="xs" variant="light" color={IMPORT_COLOR[imp.status]}>{t(`channels.import.status.${imp.status}`)}</Badge></Table.Td>
                      <Table.Td>{imp.total ? t('channels.import.countOf', { done: imp.imported, total: imp.total }) : t('channels.import.count', { count: imp.imported })}</Table.Td>
                      <Table.Td c="red.7" style={{ maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{imp.error}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          )}

          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>{t('common.close')}</Button>
            <Button type="submit" loading={start.isPending} disabled={running} data-testid="import-start">{t('channels.import.start')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Moves every active ticket of one channel to another one the admin picks. */
export function TransferDialog({ channel, channels, onClose }: { channel: Channel; channels: Channel[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const move = useMutation({
    mutationFn: () => moveChannelTickets(channel.id, Number(target)),
    onSuccess: (r) => {
      notify.success(t('channels.transfer.done', { count: r.moved }));
      if (r.skipped.length) notify.warning(t('channels.transfer.skipped', { count: r.skipped.length }));
      onClose();
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!target) return setError(t('channels.transfer.required'));
    setError(undefined);
    move.mutate();
  };
  const others = channels.filter((c) => c.id !== channel.id);
  return (
    <Modal opened onClose={onClose} size={520} radius="md" title={<Text fw={700}>{t('channels.transfer.title')}</Text>}>
      <form onSubmit={submit} noValidate data-testid="transfer-dialog">
        <Stack gap="md">
          <Text size="sm" c="dimmed">{t('channels.transfer.text')}</Text>
          <Group gap="sm" wrap="nowrap" align="flex-end">
            <Paper withBorder radius="md" px="sm" py={7} style={{ flex: 1 }}>
              <Group gap="xs" wrap="nowrap"><ChannelTypeIcon type={channel.type} size={24} /><Text size="sm" fw={600} truncate>{channel.name}</Text></Group>
            </Paper>
            <IconArrowRight size={18} style={{ marginBottom: 10 }} />
            <Select
              style={{ flex: 1 }}
              aria-label={t('channels.transfer.target')}
              placeholder={t('channels.transfer.target')}
              data={others.map((c) => ({ value: String(c.id), label: c.name }))}
              value={target}
              onChange={(v) => { setTarget(v); setError(undefined); }}
              error={error}
              data-testid="transfer-target"
            />
          </Group>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={move.isPending} data-testid="transfer-submit">{t('channels.transfer.submit')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
