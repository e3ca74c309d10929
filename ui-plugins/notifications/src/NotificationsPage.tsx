import { Badge, Grid, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DataTable, EmptyState, PageHeader, formatDateTime, paginateLocally, useDataTableState, usePluginTranslation, useRealtime, type DataTableColumn } from '@atende/ui-shell/sdk';
import { listSent, sentKey, type Sent } from './api.ts';
import { ComposeForm } from './ComposeForm.tsx';

/** `/notificacao` (superadmin): write a notification and follow what was sent and read. */
export default function NotificationsPage() {
  const { t, i18n } = usePluginTranslation('notifications');
  const queryClient = useQueryClient();
  const [query, setQuery] = useDataTableState({});
  const sent = useQuery({ queryKey: sentKey, queryFn: ({ signal }) => listSent(signal) });
  useRealtime('notification.read', () => void queryClient.invalidateQueries({ queryKey: sentKey }));
  const page = useMemo(() => (sent.data ? paginateLocally(sent.data, query, (x) => `${x.message} ${x.tenantName}`) : undefined), [sent.data, query]);
  const columns: DataTableColumn<Sent>[] = [
    { key: 'message', title: t('message'), render: (x) => <Text size="sm" lineClamp={2}>{x.message}</Text> },
    { key: 'tenantName', title: t('tenant'), width: 180, render: (x) => <Badge variant="light" color="gray">{x.tenantId} · {x.tenantName}</Badge> },
    { key: 'senderName', title: t('sender'), width: 150, render: (x) => <Text size="sm">{x.senderName ?? '—'}</Text> },
    { key: 'createdAt', title: t('date'), width: 150, render: (x) => <Text size="sm" c="dimmed">{formatDateTime(x.createdAt, i18n.language)}</Text> },
    {
      key: 'read', title: t('readBy'), width: 160,
      render: (x) => (
        <Stack gap={2}>
          <Text size="xs">{t('readOf', { read: x.read, total: x.recipients })}</Text>
          <Progress size="sm" value={x.recipients ? (100 * x.read) / x.recipients : 0} />
        </Stack>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="md" radius="md">
            <Title order={5} mb="sm">{t('new')}</Title>
            <ComposeForm />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <DataTable columns={columns} rowKey={(x) => `${x.batchId}-${x.tenantId}`} rows={page?.rows} total={page?.total ?? 0} query={query} onQueryChange={setQuery}
            loading={sent.isLoading} error={sent.error ?? undefined} onRetry={() => void sent.refetch()} searchPlaceholder={t('search')}
            empty={<EmptyState title={t('noneSent')} description={t('noneSentText')} />} />
        </Grid.Col>
      </Grid>
    </>
  );
}
