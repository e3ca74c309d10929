import { Badge, Card, Group, Progress, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, DateInputBR, EmptyState, formatDateTime, useDataTableState, usePluginTranslation, useRealtime, type DataTableColumn } from '@atende/ui-shell/sdk';
import { listQueues, listRatings, listUsers, ratingsKey, type Rating } from './api.ts';
import { SCORES, SCORE_COLOR } from './scale.ts';

const isoDay = (d: string | null, end = false) => (d ? new Date(`${d}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString() : undefined);

/** `/avaliacoes/listar`: answers with filters (period, agent, queue, score), the averages and how scores spread. */
export default function RatingsListPage() {
  const { t, i18n } = usePluginTranslation('ratings');
  const [query, setQuery] = useDataTableState({ pageSize: 25 });
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [queueId, setQueueId] = useState<string | null>(null);
  const [score, setScore] = useState<string | null>(null);
  const filters = {
    from: isoDay(from),
    to: isoDay(to, true),
    userId: userId ? Number(userId) : undefined,
    queueId: queueId ? Number(queueId) : undefined,
    score: score === null ? undefined : Number(score),
    search: query.search.trim() || undefined,
    pageNumber: query.page,
    limit: query.pageSize,
  };
  const list = useQuery({ queryKey: [...ratingsKey, filters], queryFn: ({ signal }) => listRatings(filters, signal), placeholderData: keepPreviousData });
  const users = useQuery({ queryKey: ['plugins', 'ratings', 'users'], queryFn: listUsers, staleTime: 300_000 });
  const queues = useQuery({ queryKey: ['plugins', 'ratings', 'queues'], queryFn: listQueues, staleTime: 300_000 });
  // A customer's answer closes the ticket: refresh when one arrives.
  useRealtime<{ ticket?: { rating?: number | null } }>('ticket.updated', (d) => d?.ticket?.rating != null && void list.refetch());

  const label = (v: number) => t(`score${v}`);
  const page1 = (fn: () => void) => { fn(); setQuery({ ...query, page: 1 }); };
  const data = list.data;
  const total = data?.count ?? 0;
  const avg = data?.average;
  const fmt = (n: number) => n.toLocaleString(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  const columns: DataTableColumn<Rating>[] = [
    { key: 'ratedAt', title: t('date'), width: 150, render: (r) => <Text size="sm">{formatDateTime(r.ratedAt, i18n.language)}</Text> },
    { key: 'contact', title: t('contact'), render: (r) => (<Stack gap={0}><Text size="sm" fw={500}>{r.contactName}</Text>{r.protocol && <Text size="xs" c="dimmed">{t('protocol', { n: r.protocol })}</Text>}</Stack>) },
    { key: 'user', title: t('user'), width: 160, render: (r) => <Text size="sm">{r.userName ?? '—'}</Text> },
    { key: 'queue', title: t('queue'), width: 140, render: (r) => <Text size="sm" c="dimmed">{r.queueName ?? '—'}</Text> },
    { key: 'value', title: t('score'), width: 190, render: (r) => <Badge color={SCORE_COLOR[r.value]} variant="light" leftSection={<IconStarFilled size={10} />} data-testid="rating-score">{`${r.value} · ${label(r.value)}`}</Badge> },
    { key: 'attempts', title: t('attempts'), width: 90, align: 'right', render: (r) => <Text size="sm">{r.attempts}</Text> },
  ];

  return (
    <Stack gap="md">
      <Group gap="xs" wrap="wrap">
        <DateInputBR size="xs" w={130} placeholder={t('from')} aria-label={t('from')} value={from} onChange={(v) => page1(() => setFrom(v))} />
        <DateInputBR size="xs" w={130} placeholder={t('to')} aria-label={t('to')} value={to} onChange={(v) => page1(() => setTo(v))} />
        <Select size="xs" w={180} placeholder={t('allUsers')} clearable searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={userId} onChange={(v) => page1(() => setUserId(v))} comboboxProps={{ withinPortal: true }} aria-label={t('user')} />
        <Select size="xs" w={160} placeholder={t('allQueues')} clearable data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))} value={queueId} onChange={(v) => page1(() => setQueueId(v))} comboboxProps={{ withinPortal: true }} aria-label={t('queue')} />
        <Select size="xs" w={170} placeholder={t('allScores')} clearable data={SCORES.map((s) => ({ value: String(s), label: `${s} · ${label(s)}` }))} value={score} onChange={(v) => page1(() => setScore(v))} comboboxProps={{ withinPortal: true }} aria-label={t('score')} data-testid="rating-filter-score" />
      </Group>

      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Card withBorder padding="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t('average')}</Text>
          <Group gap="xs" align="baseline" mt={4}>
            <Text fz={34} fw={700} lh={1} data-testid="rating-average">{avg == null ? '—' : fmt(avg)}</Text>
            {avg != null && <Badge color={SCORE_COLOR[Math.round(avg)]} variant="light">{label(Math.round(avg))}</Badge>}
          </Group>
          <Text size="sm" c="dimmed" mt={6} data-testid="rating-count">{t('count', { count: total })}</Text>
        </Card>
        <Card withBorder padding="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={6}>{t('distribution')}</Text>
          <Stack gap={4}>
            {SCORES.slice().reverse().map((s) => {
              const n = data?.distribution[s] ?? 0;
              return (
                <Group key={s} gap="xs" wrap="nowrap">
                  <Text size="xs" w={92} truncate>{`${s} · ${label(s)}`}</Text>
                  <Progress value={total ? (n / total) * 100 : 0} color={SCORE_COLOR[s]} style={{ flex: 1 }} size="sm" />
                  <Text size="xs" w={28} ta="right">{n}</Text>
                </Group>
              );
            })}
          </Stack>
        </Card>
        <Card withBorder padding="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={6}>{t('byUser')}</Text>
          {data?.byUser.length ? (
            <Table withRowBorders={false} verticalSpacing={2} fz="sm" data-testid="rating-by-user">
              <Table.Tbody>
                {data.byUser.slice(0, 6).map((u) => (
                  <Table.Tr key={u.userId ?? 0}>
                    <Table.Td>{u.userName ?? t('noUser')}</Table.Td>
                    <Table.Td ta="right" c="dimmed">{t('countShort', { n: u.count })}</Table.Td>
                    <Table.Td ta="right" fw={600}>{fmt(u.average)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : <Text size="sm" c="dimmed">—</Text>}
        </Card>
      </SimpleGrid>

      <DataTable
        columns={columns}
        rowKey={(r) => r.ticketId}
        rows={data?.rows}
        total={total}
        query={query}
        onQueryChange={setQuery}
        loading={list.isLoading}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('search')}
        empty={<EmptyState title={t('emptyTitle')} description={t('emptyText')} />}
      />
    </Stack>
  );
}
