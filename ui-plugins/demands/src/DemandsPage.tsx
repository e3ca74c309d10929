import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  formatDateTime,
  notify,
  paginateLocally,
  useDataTableState,
  usePluginTranslation,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { deleteDemand, demandsKey, listDemands, type Demand } from './api.ts';
import { DemandFormModal } from './DemandFormModal.tsx';

/** `/configuracoes/motivos`: list, create, rename and delete demand reasons. */
export default function DemandsPage() {
  const { t, i18n } = usePluginTranslation('demands');
  const queryClient = useQueryClient();
  const [query, setQuery] = useDataTableState({ sort: { key: 'name', direction: 'asc' } });
  const [editing, setEditing] = useState<Demand | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Demand | null>(null);

  const list = useQuery({ queryKey: demandsKey, queryFn: ({ signal }) => listDemands(signal) });
  // The endpoint answers the whole (short) list, so search, sort and paging happen here.
  const page = useMemo(() => (list.data ? paginateLocally(list.data, query, (d) => d.name) : undefined), [list.data, query]);

  const remove = useMutation({
    mutationFn: (d: Demand) => deleteDemand(d.id),
    onSuccess: () => {
      notify.success(t('deleted'));
      void queryClient.invalidateQueries({ queryKey: demandsKey });
    },
  });

  const openNew = () => setEditing('new');
  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={openNew}>{t('new')}</Button>;

  const columns: DataTableColumn<Demand>[] = [
    { key: 'name', title: t('name'), sortable: true, render: (d) => <Text fw={500} size="sm">{d.name}</Text> },
    { key: 'createdAt', title: t('createdAt'), sortable: true, width: 200, render: (d) => <Text size="sm" c="dimmed">{formatDateTime(d.createdAt, i18n.language)}</Text> },
    {
      key: 'actions',
      title: t('actions'),
      width: 110,
      align: 'right',
      render: (d) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('edit')}>
            <ActionIcon variant="subtle" color="gray" aria-label={t('edit')} onClick={() => setEditing(d)}><IconPencil size={16} /></ActionIcon>
          </Tooltip>
          <Tooltip label={t('common.delete')}>
            <ActionIcon variant="subtle" color="red" aria-label={t('common.delete')} onClick={() => setDeleting(d)}><IconTrash size={16} /></ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  const empty = list.data && list.data.length > 0
    ? <EmptyState title={t('noResults')} />
    : <EmptyState title={t('emptyTitle')} description={t('emptyText')} action={newButton} />;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={newButton} />
      <DataTable
        columns={columns}
        rowKey={(d) => d.id}
        rows={page?.rows}
        total={page?.total ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isLoading}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('search')}
        empty={empty}
      />
      {editing !== null && (
        <DemandFormModal opened demand={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
