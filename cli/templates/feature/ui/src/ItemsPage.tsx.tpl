import { ActionIcon, Button, Group, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  formatDateTime,
  menuAllowed,
  notify,
  useAccess,
  useDataTableState,
  usePluginTranslation,
  useRealtime,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { deleteItem, getSettings, itemsKey, listItems, saveSettings, settingsKey, type Item, type Settings } from './api.ts';
import { ItemFormModal } from './ItemFormModal.tsx';

const DEFAULTS: Settings = { requireNote: false };

/** `/__ID__`: the tenant's items, newest first, paged and searched on the server, kept current live. */
export default function ItemsPage() {
  const { t, i18n } = usePluginTranslation('__ID__');
  const queryClient = useQueryClient();
  const access = useAccess();
  const [query, setQuery] = useDataTableState();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Item | null>(null);

  const list = useQuery({
    queryKey: [...itemsKey, query.page, query.pageSize, query.search],
    queryFn: ({ signal }) => listItems({ pageNumber: query.page, limit: query.pageSize, search: query.search || undefined }, signal),
    placeholderData: keepPreviousData,
  });
  const settingsQuery = useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => getSettings(signal) });
  const settings = settingsQuery.data ?? DEFAULTS;
  // The kernel's route for plugin settings lets admins with the settings menu change them.
  const canEditSettings = !!access && ['admin', 'superadmin'].includes(access.user.profile) && menuAllowed(access, 'settings');

  // Whoever creates or deletes an item, every open screen of the tenant follows (the contract's events).
  const refresh = () => void queryClient.invalidateQueries({ queryKey: itemsKey });
  useRealtime<Item>('__EVENT__.item_created', refresh);
  useRealtime<{ id: number }>('__EVENT__.item_deleted', refresh);
  useRealtime<{ id: string; settings: Settings }>('plugin.settings_updated', (d) => {
    if (d.id === '__ID__') queryClient.setQueryData(settingsKey, d.settings);
  });

  const toggle = useMutation({
    mutationFn: (requireNote: boolean) => saveSettings({ ...settings, requireNote }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKey, saved);
      notify.success(t('settingsSaved'));
    },
  });
  const remove = useMutation({
    mutationFn: (item: Item) => deleteItem(item.id),
    onSuccess: () => {
      notify.success(t('deleted'));
      refresh();
    },
  });

  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} disabled={!settingsQuery.data}>{t('new')}</Button>;

  const columns: DataTableColumn<Item>[] = [
    {
      key: 'title',
      title: t('itemTitle'),
      render: (item) => (
        <Stack gap={2}>
          <Text fw={500} size="sm">{item.title}</Text>
          {item.note && <Text size="xs" c="dimmed" lineClamp={2}>{item.note}</Text>}
        </Stack>
      ),
    },
    { key: 'author', title: t('author'), width: 200, render: (item) => <Text size="sm">{item.authorName ?? t('unknownAuthor')}</Text> },
    { key: 'createdAt', title: t('createdAt'), width: 180, render: (item) => <Text size="sm" c="dimmed">{formatDateTime(item.createdAt, i18n.language)}</Text> },
    {
      key: 'actions',
      title: t('actions'),
      width: 80,
      align: 'right',
      render: (item) => (
        <Tooltip label={t('common.delete')}>
          <ActionIcon variant="subtle" color="red" aria-label={t('deleteItem', { title: item.title })} onClick={() => setDeleting(item)}><IconTrash size={16} /></ActionIcon>
        </Tooltip>
      ),
    },
  ];

  const empty = query.search
    ? <EmptyState title={t('noResults')} />
    : <EmptyState title={t('emptyTitle')} description={t('emptyText')} action={newButton} />;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={newButton} />
      <Paper withBorder radius="md" p="md" mb="md">
        <Group justify="space-between" wrap="nowrap" gap="md">
          <div>
            <Text fw={600} size="sm">{t('requireNote')}</Text>
            <Text size="xs" c="dimmed">{canEditSettings ? t('requireNoteHint') : t('requireNoteAdminOnly')}</Text>
          </div>
          <Switch
            checked={settings.requireNote}
            disabled={!canEditSettings || !settingsQuery.data || toggle.isPending}
            onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            aria-label={t('requireNote')}
          />
        </Group>
      </Paper>
      <DataTable
        columns={columns}
        rowKey={(item) => item.id}
        rows={list.data?.rows}
        total={list.data?.count ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isLoading}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('search')}
        empty={empty}
      />
      {creating && <ItemFormModal opened settings={settings} onClose={() => setCreating(false)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteText', { title: deleting?.title ?? '' })}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
