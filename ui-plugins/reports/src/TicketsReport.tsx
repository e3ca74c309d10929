import { Badge, Button, Group, MultiSelect, Paper, Select, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { DateInputBR, formatCurrency, formatDate, formatDateTime, usePluginTranslation } from '@atende/ui-shell/sdk';
import { getOptions, optionsKey, ticketReport, type TicketRow } from './api.ts';
import { ExportButton } from './ExportButton.tsx';
import type { ReportFrame } from './ReportsLayout.tsx';
import { PAGE_SIZE, ResultTable, type Column } from './ResultTable.tsx';

const STATUS_COLOR: Record<string, string> = { open: 'teal', pending: 'yellow', closed: 'gray', schedule: 'blue' };

interface Filters {
  from: string | null;
  to: string | null;
  queueIds: string[];
  status: string | null;
  userId: string | null;
  channelId: string | null;
  tagId: string | null;
  demand: string | null;
}

const EMPTY: Filters = { from: null, to: null, queueIds: [], status: null, userId: null, channelId: null, tagId: null, demand: null };

export const ticketQuery = (f: Filters) => ({
  from: f.from ?? undefined,
  to: f.to ?? undefined,
  queueIds: f.queueIds.join(',') || undefined,
  status: f.status ?? undefined,
  userId: f.userId ?? undefined,
  channelId: f.channelId ?? undefined,
  tagId: f.tagId ?? undefined,
  demand: f.demand ?? undefined,
});

/** `/relatorios/atendimentos-por-parametros`: dates and queues required (administration.md §5), the rest optional. */
export default function TicketsReport() {
  const { t, i18n } = usePluginTranslation('reports');
  const frame = useOutletContext<ReportFrame | undefined>();
  const options = useQuery({ queryKey: optionsKey, queryFn: getOptions });
  const [form, setForm] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters | null>(null);
  const [page, setPage] = useState(1);
  const [missing, setMissing] = useState(false);
  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setForm((f) => ({ ...f, [k]: v }));
  const o = options.data;
  const badRange = !!form.from && !!form.to && form.from > form.to;

  const list = useQuery({
    queryKey: ['plugins', 'reports', 'tickets', applied, page],
    queryFn: ({ signal }) => ticketReport({ ...ticketQuery(applied!), pageNumber: page, limit: PAGE_SIZE }, signal),
    enabled: !!applied,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    if (!applied || !o) return frame?.setFilters([]);
    const names = (ids: string[], from: { id: number; name: string }[]) => ids.map((id) => from.find((x) => String(x.id) === id)?.name ?? id).join(', ');
    const lines = [
      `${t('period')}: ${formatDate(`${applied.from}T12:00:00`, i18n.language)} – ${formatDate(`${applied.to}T12:00:00`, i18n.language)}`,
      `${t('queues')}: ${names(applied.queueIds, o.queues)}`,
    ];
    if (applied.status) lines.push(`${t('status')}: ${t(`status_${applied.status}`)}`);
    if (applied.userId) lines.push(`${t('user')}: ${names([applied.userId], o.users)}`);
    if (applied.channelId) lines.push(`${t('connection')}: ${names([applied.channelId], o.channels)}`);
    if (applied.tagId) lines.push(`${t('tag')}: ${names([applied.tagId], o.tags)}`);
    if (applied.demand) lines.push(`${t('demand')}: ${applied.demand}`);
    frame?.setFilters(lines);
  }, [applied, o]);

  const submit = () => {
    const lacks = !form.from || !form.to || form.queueIds.length === 0;
    setMissing(lacks);
    if (lacks || badRange) return;
    setPage(1);
    setApplied(form);
  };

  const columns: Column<TicketRow>[] = [
    { key: 'notes', title: t('notes'), render: (r) => r.notes ?? '' },
    { key: 'id', title: t('id'), render: (r) => r.id },
    { key: 'status', title: t('status'), render: (r) => <Badge variant="light" radius="sm" color={STATUS_COLOR[r.status] ?? 'gray'}>{t(`status_${r.status}`)}</Badge> },
    { key: 'name', title: t('name'), render: (r) => r.name },
    { key: 'number', title: t('number'), render: (r) => r.number ?? '' },
    { key: 'connection', title: t('connection'), render: (r) => r.connection ?? '' },
    { key: 'lastMessage', title: t('lastMessage'), render: (r) => <Text size="sm" lineClamp={2}>{r.lastMessage ?? ''}</Text> },
    { key: 'unread', title: t('unread'), render: (r) => r.unreadMessages, align: 'right' },
    { key: 'demand', title: t('demand'), render: (r) => r.demand ?? '' },
    { key: 'queue', title: t('queue'), render: (r) => r.queue ?? '' },
    { key: 'channel', title: t('channel'), render: (r) => r.channel ?? '' },
    { key: 'value', title: t('value'), render: (r) => (r.value == null ? '' : formatCurrency(r.value)), align: 'right' },
    { key: 'createdAt', title: t('createdAt'), render: (r) => formatDateTime(r.createdAt, i18n.language) },
  ];
  const named = (xs: { id: number; name: string }[] | undefined) => (xs ?? []).map((x) => ({ value: String(x.id), label: x.name }));

  return (
    <>
      <Paper withBorder radius="md" p="sm" mb="md" className="rp-no-print">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <DateInputBR w={150} label={t('from')} withAsterisk value={form.from} onChange={(v) => set('from', v)} error={missing && !form.from ? t('required') : undefined} />
          <DateInputBR w={150} label={t('to')} withAsterisk value={form.to} onChange={(v) => set('to', v)} error={missing && !form.to ? t('required') : badRange ? t('badRange') : undefined} />
          <MultiSelect w={260} label={t('queues')} withAsterisk searchable clearable data={named(o?.queues)} value={form.queueIds} onChange={(v) => set('queueIds', v)} error={missing && form.queueIds.length === 0 ? t('required') : undefined} />
          <Select w={150} label={t('status')} placeholder={t('all')} clearable data={['open', 'pending', 'closed'].map((s) => ({ value: s, label: t(`status_${s}`) }))} value={form.status} onChange={(v) => set('status', v)} />
          <Select w={180} label={t('user')} placeholder={t('all')} clearable searchable data={named(o?.users)} value={form.userId} onChange={(v) => set('userId', v)} />
          <Select w={180} label={t('connection')} placeholder={t('all')} clearable searchable data={named(o?.channels)} value={form.channelId} onChange={(v) => set('channelId', v)} />
          <Select w={160} label={t('tag')} placeholder={t('all')} clearable searchable data={named(o?.tags)} value={form.tagId} onChange={(v) => set('tagId', v)} />
          <Select w={180} label={t('demand')} placeholder={t('all')} clearable searchable data={o?.demands ?? []} value={form.demand} onChange={(v) => set('demand', v)} />
        </Group>
        {missing && <Text c="red" size="sm" mt="xs" role="alert">{t('datesQueuesRequired')}</Text>}
        <Group mt="sm" gap="sm">
          <Button leftSection={<IconSearch size={16} />} onClick={submit}>{t('generate')}</Button>
          {applied && <ExportButton report="atendimentos-por-parametros" query={ticketQuery(applied)} />}
        </Group>
      </Paper>
      {applied ? (
        <ResultTable label={t('r_atendimentos-por-parametros')} columns={columns} rows={list.data?.rows} rowKey={(r) => r.id} count={list.data?.count ?? 0}
          page={page} onPage={setPage} loading={list.isFetching} error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Text c="dimmed" size="sm">{t('chooseFilters')}</Text>
      )}
    </>
  );
}
