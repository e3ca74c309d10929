import { ActionIcon, Badge, Button, Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { IconCalendarPlus, IconPencil, IconRepeat, IconX } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ConfirmDialog,
  DataTable,
  DateInputBR,
  EmptyState,
  PageHeader,
  datePattern,
  notify,
  useDataTableState,
  usePluginTranslation,
  useRealtime,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { cancelSchedule, listSchedules, schedulesKey, tenantTimeZone, type Schedule, type ScheduleState } from './api.ts';
import { ScheduleFormModal } from './ScheduleFormModal.tsx';
import { formatZoned, fromZonedWall } from './zoned.ts';

const STATE_COLOR: Record<ScheduleState, string> = { scheduled: 'blue', sending: 'yellow', sent: 'teal', failed: 'red' };

/** `/agendamentos`: every scheduled message of the tenant, filtered by status, date and contact; create, edit, cancel. */
/** The text as the table shows it: a signed message's `*Ana*:` line reads "Ana:" (the customer sees WhatsApp's bold). */
const unsigned = (body: string) => body.replace(/^\*([^*\n]+)\*:\n/, '$1: ');

export default function SchedulesPage() {
  const { t, i18n } = usePluginTranslation('schedules');
  const queryClient = useQueryClient();
  const [query, setQuery] = useDataTableState({ pageSize: 25 });
  const [state, setState] = useState<'all' | 'scheduled' | 'sent' | 'failed'>('all');
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const [cancelling, setCancelling] = useState<Schedule | null>(null);

  const tz = useQuery({ queryKey: ['plugins', 'schedules', 'tz'], queryFn: tenantTimeZone, staleTime: 600_000 });
  const timeZone = tz.data ?? 'America/Sao_Paulo';
  const monthFirst = datePattern(i18n.language) === 'MM/DD/YYYY';
  const filters = {
    state: state === 'all' ? undefined : state,
    // Whole days of the tenant's calendar.
    from: from ? fromZonedWall(`${from}T00:00`, timeZone).toISOString() : undefined,
    to: to ? new Date(fromZonedWall(`${to}T23:59`, timeZone).getTime() + 59_999).toISOString() : undefined,
    search: query.search.trim() || undefined,
    pageNumber: query.page,
    limit: query.pageSize,
  };
  const list = useQuery({
    queryKey: [...schedulesKey, filters],
    queryFn: ({ signal }) => listSchedules(filters, signal),
    placeholderData: keepPreviousData,
    enabled: tz.isSuccess || tz.isError,
    // Due messages change state on the server's 30-second tick.
    refetchInterval: 30_000,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: schedulesKey });
  useRealtime('schedule.created', refresh);
  useRealtime('schedule.updated', refresh);
  useRealtime('schedule.deleted', refresh);
  useRealtime<{ message?: { scheduleDate?: string | null } }>('message.updated', (d) => d?.message?.scheduleDate && refresh());
  useRealtime<{ message?: { scheduleDate?: string | null } }>('message.ack_updated', (d) => d?.message?.scheduleDate && refresh());

  const cancel = useMutation({
    mutationFn: (s: Schedule) => cancelSchedule(s.id),
    onSuccess: () => {
      notify.success(t('cancelled'));
      refresh();
    },
  });

  const newButton = <Button leftSection={<IconCalendarPlus size={16} />} onClick={() => setEditing('new')} data-testid="schedule-new">{t('new')}</Button>;

  const columns: DataTableColumn<Schedule>[] = [
    {
      key: 'contact',
      title: t('contact'),
      width: 220,
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>{s.contactName}</Text>
          <Text size="xs" c="dimmed">{[s.contactNumber, s.channelName].filter(Boolean).join(' · ')}</Text>
        </Stack>
      ),
    },
    { key: 'body', title: t('message'), render: (s) => <Text size="sm" lineClamp={2} style={{ whiteSpace: 'pre-wrap' }}>{unsigned(s.body)}</Text> },
    {
      key: 'scheduleDate',
      title: t('when'),
      width: 190,
      render: (s) => (
        <Stack gap={2}>
          <Text size="sm" ff="monospace" data-testid="schedule-date">{formatZoned(s.scheduleDate, timeZone, monthFirst)}</Text>
          {s.recurrence ? (
            <Group gap={4} wrap="nowrap"><IconRepeat size={12} /><Text size="xs" c="dimmed">{t('recurrenceSummary', { days: s.recurrence, n: s.repetitions })}</Text></Group>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'state',
      title: t('status'),
      width: 120,
      render: (s) => (
        <Tooltip label={s.failureReason ?? ''} disabled={!s.failureReason}>
          <Badge variant="light" color={STATE_COLOR[s.state]} data-testid="schedule-state">{t(`state_${s.state}`)}</Badge>
        </Tooltip>
      ),
    },
    { key: 'user', title: t('createdBy'), width: 140, render: (s) => <Text size="sm" c="dimmed">{s.userName ?? '—'}</Text> },
    {
      key: 'actions',
      title: t('actions'),
      width: 90,
      align: 'right',
      render: (s) => s.state === 'scheduled' && (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('edit')}><ActionIcon variant="subtle" color="gray" aria-label={t('edit')} onClick={() => setEditing(s)}><IconPencil size={16} /></ActionIcon></Tooltip>
          <Tooltip label={t('cancel')}><ActionIcon variant="subtle" color="red" aria-label={t('cancel')} onClick={() => setCancelling(s)}><IconX size={16} /></ActionIcon></Tooltip>
        </Group>
      ),
    },
  ];

  const filtered = state !== 'all' || from || to || query.search;
  const toolbar = (
    <>
      <SegmentedControl
        size="xs"
        value={state}
        onChange={(v) => { setState(v as typeof state); setQuery({ ...query, page: 1 }); }}
        data={(['all', 'scheduled', 'sent', 'failed'] as const).map((v) => ({ value: v, label: t(`filter_${v}`) }))}
        data-testid="schedule-filter-state"
      />
      <DateInputBR size="xs" w={130} placeholder={t('from')} aria-label={t('from')} value={from} onChange={(v) => { setFrom(v); setQuery({ ...query, page: 1 }); }} />
      <DateInputBR size="xs" w={130} placeholder={t('to')} aria-label={t('to')} value={to} onChange={(v) => { setTo(v); setQuery({ ...query, page: 1 }); }} />
    </>
  );

  return (
    <>
      <PageHeader title={t('title')} description={t('description', { tz: timeZone })} actions={newButton} />
      <DataTable
        columns={columns}
        rowKey={(s) => s.id}
        rows={list.data?.schedules}
        total={list.data?.count ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isLoading || tz.isLoading}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('search')}
        toolbar={toolbar}
        empty={filtered ? <EmptyState title={t('noResults')} /> : <EmptyState title={t('emptyTitle')} description={t('emptyText')} action={newButton} />}
      />
      {editing !== null && <ScheduleFormModal schedule={editing === 'new' ? null : editing} timeZone={timeZone} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={cancelling !== null}
        title={t('cancelTitle')}
        message={t('cancelText', { name: cancelling?.contactName ?? '' })}
        confirmLabel={t('cancel')}
        onConfirm={() => (cancelling ? cancel.mutateAsync(cancelling) : undefined)}
        onClose={() => setCancelling(null)}
      />
    </>
  );
}
