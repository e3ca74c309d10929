/**
 * `/sessoestenants` (superadmin): every tenant's channels in one dense
 * table, paged on the server (`GET /api/channels/all`, 100 a page), filtered
 * by tenant and status, searched by tenant, channel name or number. Other
 * tenants' events do not reach the superadmin's socket, so the page refreshes
 * in the background every few seconds (and at once on its own tenant's
 * `channel.*` events).
 */
import { Group, Select, Text, Tooltip } from '@mantine/core';
import { IconBuildingBroadcastTower } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, EmptyState, PageHeader, api, formatDateTime, useDataTableState, useRealtime, type DataTableColumn } from '@atende/ui-shell/sdk';
import { CHANNEL_STATUSES, type TenantChannel } from './api.ts';
import { ChannelTypeIcon, RelativeTime, StatusBadge } from './visuals.tsx';

const PAGE = 100;
/** How often the table refreshes by itself (other tenants' status changes are not pushed to the superadmin). */
export const TENANT_CHANNELS_REFRESH_MS = 5000;

export default function TenantChannelsPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [query, setQuery] = useDataTableState({ pageSize: PAGE });
  const [tenantId, setTenantId] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const key = ['channels', 'all', query.page, query.search, tenantId, status] as const;

  const tenants = useQuery({
    queryKey: ['channels', 'tenants'],
    staleTime: 60_000,
    queryFn: ({ signal }) => api.get<{ id: number; name: string }[]>('/tenants', { signal, background: true }),
  });
  const page = useQuery({
    queryKey: key,
    placeholderData: keepPreviousData,
    refetchInterval: TENANT_CHANNELS_REFRESH_MS,
    queryFn: ({ signal }) =>
      api.get<{ channels: TenantChannel[]; count: number; hasMore: boolean }>('/channels/all', {
        signal,
        background: true,
        query: { pageNumber: query.page, searchParam: query.search.trim() || undefined, tenantId: tenantId ?? undefined, status: status ?? undefined },
      }),
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: ['channels', 'all'] });
  useRealtime('channel.updated', refresh);
  useRealtime('channel.created', refresh);
  useRealtime('channel.deleted', refresh);

  const columns: DataTableColumn<TenantChannel>[] = [
    { key: 'tenantName', title: t('channels.tenants.tenant'), render: (r) => <Text size="sm" fw={500} truncate>{r.tenantName} <Text span size="xs" c="dimmed">#{r.tenantId}</Text></Text> },
    { key: 'type', title: t('channels.fields.type'), width: 130, render: (r) => <Group gap={6} wrap="nowrap"><ChannelTypeIcon type={r.type} size={22} /><Text size="sm">{r.type}</Text></Group> },
    { key: 'name', title: t('channels.fields.name'), render: (r) => <Text size="sm" fw={600} truncate>{r.name}</Text> },
    { key: 'number', title: t('channels.fields.number'), width: 160, render: (r) => <Text size="sm" ff="monospace">{r.number ?? '—'}</Text> },
    { key: 'status', title: t('channels.tenants.status'), width: 270, render: (r) => <StatusBadge status={r.status} size="sm" /> },
    {
      key: 'statusAt',
      title: t('channels.tenants.updated'),
      width: 150,
      render: (r) => <Tooltip label={formatDateTime(r.statusAt, i18n.language)}><Text size="sm" c="dimmed"><RelativeTime value={r.statusAt} /></Text></Tooltip>,
    },
    {
      key: 'lastError',
      title: t('channels.tenants.errors'),
      render: (r) =>
        r.lastError ? (
          <Tooltip label={r.lastError} multiline w={360}>
            <Text size="xs" c="red.7" lineClamp={1}>{r.retries > 0 ? `(${r.retries}) ` : ''}{r.lastError}</Text>
          </Tooltip>
        ) : (
          <Text size="xs" c="dimmed">—</Text>
        ),
    },
  ];

  return (
    <div data-testid="tenant-channels-page">
      <PageHeader title={t('channels.tenants.title')} description={t('channels.tenants.description')} />
      <DataTable
        columns={columns}
        rowKey={(r) => r.id}
        rows={page.data?.channels}
        total={page.data?.count ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={page.isFetching && !page.data}
        error={page.error ?? undefined}
        onRetry={() => void page.refetch()}
        pageSizes={[PAGE]}
        searchPlaceholder={t('channels.tenants.search')}
        toolbar={
          <>
            <Select
              w={220}
              placeholder={t('channels.tenants.allTenants')}
              data={(tenants.data ?? []).map((x) => ({ value: String(x.id), label: `${x.name} (#${x.id})` }))}
              value={tenantId}
              onChange={(v) => { setTenantId(v); setQuery({ ...query, page: 1 }); }}
              clearable
              searchable
              aria-label={t('channels.tenants.tenant')}
              data-testid="tenant-filter"
            />
            <Select
              w={230}
              placeholder={t('channels.tenants.allStatuses')}
              data={CHANNEL_STATUSES.map((s) => ({ value: s, label: t(`channels.status.${s}`) }))}
              value={status}
              onChange={(v) => { setStatus(v); setQuery({ ...query, page: 1 }); }}
              clearable
              aria-label={t('channels.tenants.status')}
              data-testid="status-filter"
            />
          </>
        }
        empty={<EmptyState icon={<IconBuildingBroadcastTower size={28} stroke={1.5} />} title={t('channels.tenants.empty')} />}
      />
    </div>
  );
}
