import { Button, Group, MultiSelect, Paper, Table, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { DateInputBR, formatDate, usePluginTranslation } from '@atende/ui-shell/sdk';
import { getOptions, optionsKey, userStatsReport, type UserStatsRow } from './api.ts';
import { ExportButton } from './ExportButton.tsx';
import type { ReportFrame } from './ReportsLayout.tsx';
import { ResultTable, type Column } from './ResultTable.tsx';

interface Filters {
  from: string | null;
  to: string | null;
  queueIds: string[];
}

export const userStatsQuery = (f: Filters) => ({ from: f.from ?? undefined, to: f.to ?? undefined, queueIds: f.queueIds.join(',') || undefined });

/** `/relatorios/estatisticas-atendimentos-usuarios`: per user, pending, in service, resolved and total, with the totals. */
export default function UserStatsReport() {
  const { t, i18n } = usePluginTranslation('reports');
  const frame = useOutletContext<ReportFrame | undefined>();
  const options = useQuery({ queryKey: optionsKey, queryFn: getOptions });
  const [form, setForm] = useState<Filters>({ from: null, to: null, queueIds: [] });
  const [applied, setApplied] = useState<Filters>(form);
  const badRange = !!form.from && !!form.to && form.from > form.to;
  const list = useQuery({
    queryKey: ['plugins', 'reports', 'users', applied],
    queryFn: ({ signal }) => userStatsReport(userStatsQuery(applied), signal),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    const lines: string[] = [];
    const day = (d: string) => formatDate(`${d}T12:00:00`, i18n.language);
    if (applied.from || applied.to) lines.push(`${t('period')}: ${applied.from ? day(applied.from) : '…'} – ${applied.to ? day(applied.to) : '…'}`);
    if (applied.queueIds.length && options.data)
      lines.push(`${t('queues')}: ${applied.queueIds.map((id) => options.data.queues.find((q) => String(q.id) === id)?.name ?? id).join(', ')}`);
    frame?.setFilters(lines);
  }, [applied, options.data]);

  const columns: Column<UserStatsRow>[] = [
    { key: 'name', title: t('name'), render: (r) => r.name },
    { key: 'email', title: t('email'), render: (r) => r.email },
    { key: 'pending', title: t('pending'), render: (r) => r.pending, align: 'right' },
    { key: 'open', title: t('inService'), render: (r) => r.open, align: 'right' },
    { key: 'closed', title: t('resolved'), render: (r) => r.closed, align: 'right' },
    { key: 'total', title: t('total'), render: (r) => r.total, align: 'right' },
  ];
  const totals = list.data?.totals;
  return (
    <>
      <Paper withBorder radius="md" p="sm" mb="md" className="rp-no-print">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <DateInputBR w={150} label={t('from')} value={form.from} onChange={(v) => setForm((f) => ({ ...f, from: v }))} />
          <DateInputBR w={150} label={t('to')} value={form.to} onChange={(v) => setForm((f) => ({ ...f, to: v }))} error={badRange ? t('badRange') : undefined} />
          <MultiSelect w={260} label={t('queues')} placeholder={t('all')} searchable clearable data={(options.data?.queues ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
            value={form.queueIds} onChange={(v) => setForm((f) => ({ ...f, queueIds: v }))} />
        </Group>
        <Group mt="sm" gap="sm">
          <Button leftSection={<IconSearch size={16} />} disabled={badRange} onClick={() => setApplied(form)}>{t('generate')}</Button>
          <ExportButton report="estatisticas-atendimentos-usuarios" query={userStatsQuery(applied)} />
        </Group>
      </Paper>
      <ResultTable label={t('r_estatisticas-atendimentos-usuarios')} columns={columns} rows={list.data?.rows} rowKey={(r) => r.userId} count={list.data?.rows.length ?? 0}
        loading={list.isFetching} error={list.error} onRetry={() => void list.refetch()}
        footer={totals && (
          <Table.Tr>
            <Table.Th colSpan={2}><Text fw={700} size="sm">{t('total')}</Text></Table.Th>
            <Table.Th ta="right">{totals.pending}</Table.Th>
            <Table.Th ta="right">{totals.open}</Table.Th>
            <Table.Th ta="right">{totals.closed}</Table.Th>
            <Table.Th ta="right">{totals.total}</Table.Th>
          </Table.Tr>
        )} />
    </>
  );
}
