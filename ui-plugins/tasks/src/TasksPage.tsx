import { ActionIcon, Badge, Button, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconMessageCircle, IconPencil, IconPlus, IconRepeat, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  formatDateTime,
  getSession,
  notify,
  paginateLocally,
  useDataTableState,
  usePluginTranslation,
  useRealtime,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { deleteTask, finishTask, listOwners, listTasks, PRIORITIES, STATUSES, tasksKey, type Priority, type Task, type TaskFilters, type TaskStatus } from './api.ts';
import { TaskDrawer } from './TaskDrawer.tsx';

export const PRIORITY_COLOR: Record<Priority, string> = { high: 'red', medium: 'orange', low: 'blue', none: 'gray' };
export const STATUS_COLOR: Record<TaskStatus, string> = { delayed: 'red', pending: 'yellow', finished: 'green' };

/** `/tarefas`: tasks with filters, a create/edit drawer with comments, finish and delete. */
export default function TasksPage() {
  const { t, i18n } = usePluginTranslation('tasks');
  const queryClient = useQueryClient();
  const session = getSession();
  const [filters, setFilters] = useState<TaskFilters>({});
  const [query, setQuery] = useDataTableState({});
  const [editing, setEditing] = useState<{ task: Task | null; tab: 'details' | 'comments' } | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);

  const list = useQuery({ queryKey: [...tasksKey, 'list', filters], queryFn: ({ signal }) => listTasks(filters, signal) });
  const owners = useQuery({ queryKey: [...tasksKey, 'owners'], queryFn: ({ signal }) => listOwners(signal), staleTime: 60_000 });
  // The server answers the filtered list (delayed first, then by limit date); search and paging happen here.
  const page = useMemo(() => (list.data ? paginateLocally(list.data, query, (x) => `${x.name} ${x.description ?? ''} ${x.ownerName ?? ''}`) : undefined), [list.data, query]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: tasksKey });
  // Any task event (created, updated, finished, deleted, removed) reloads the list: the server already filtered who hears it.
  useRealtime('*', (_data, frame) => {
    if (frame.event.startsWith('task.')) refresh();
  });

  const finish = useMutation({
    mutationFn: (task: Task) => finishTask(task.id),
    onSuccess: (r) => {
      notify.success(r.next ? t('finishedNext', { date: formatDateTime(r.next.limitDate, i18n.language) }) : t('finished'));
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (task: Task) => deleteTask(task.id),
    onSuccess: () => {
      notify.success(t('deleted'));
      refresh();
    },
  });

  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ task: null, tab: 'details' })}>{t('new')}</Button>;
  const mayDelete = (task: Task) => session?.profile !== 'user' || task.createdById === session?.userId;

  const columns: DataTableColumn<Task>[] = [
    {
      key: 'name',
      title: t('name'),
      render: (x) => (
        <Stack gap={0}>
          <Group gap={6} wrap="nowrap">
            <Text fw={500} size="sm" td={x.status === 'finished' ? 'line-through' : undefined}>{x.name}</Text>
            {x.recurrence > 0 && (
              <Tooltip label={t('recurrenceEvery', { days: x.recurrence, reps: x.repetitions })}>
                <IconRepeat size={14} color="var(--mantine-color-dimmed)" aria-label={t('recurrence')} />
              </Tooltip>
            )}
          </Group>
          {x.description && <Text size="xs" c="dimmed" lineClamp={1}>{x.description}</Text>}
        </Stack>
      ),
    },
    {
      key: 'limitDate',
      title: t('limitDate'),
      width: 150,
      render: (x) => (
        <Text size="sm" c={x.status === 'delayed' ? 'red' : undefined} fw={x.status === 'delayed' ? 600 : undefined} data-delayed={x.status === 'delayed' || undefined}>
          {formatDateTime(x.limitDate, i18n.language)}
        </Text>
      ),
    },
    { key: 'ownerName', title: t('owner'), width: 160, render: (x) => <Text size="sm">{x.ownerName ?? '—'}</Text> },
    { key: 'priority', title: t('priority'), width: 110, render: (x) => <Badge variant="light" color={PRIORITY_COLOR[x.priority]}>{t(`priority_${x.priority}`)}</Badge> },
    { key: 'status', title: t('status'), width: 120, render: (x) => <Badge variant={x.status === 'delayed' ? 'filled' : 'light'} color={STATUS_COLOR[x.status]}>{t(`status_${x.status}`)}</Badge> },
    {
      key: 'actions',
      title: t('actions'),
      width: 160,
      align: 'right',
      render: (x) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {x.status !== 'finished' && (
            <Tooltip label={t('finish')}>
              <ActionIcon variant="subtle" color="green" aria-label={t('finish')} loading={finish.isPending && finish.variables?.id === x.id} onClick={() => finish.mutate(x)}><IconCheck size={16} /></ActionIcon>
            </Tooltip>
          )}
          <Tooltip label={t('comments')}>
            <ActionIcon variant="subtle" color="gray" aria-label={t('comments')} onClick={() => setEditing({ task: x, tab: 'comments' })} pos="relative">
              <IconMessageCircle size={16} />
              {x.commentCount > 0 && <Text component="span" size="9px" fw={700} pos="absolute" top={0} right={0}>{x.commentCount}</Text>}
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('edit')}>
            <ActionIcon variant="subtle" color="gray" aria-label={t('edit')} onClick={() => setEditing({ task: x, tab: 'details' })}><IconPencil size={16} /></ActionIcon>
          </Tooltip>
          {mayDelete(x) && (
            <Tooltip label={t('common.delete')}>
              <ActionIcon variant="subtle" color="red" aria-label={t('common.delete')} onClick={() => setDeleting(x)}><IconTrash size={16} /></ActionIcon>
            </Tooltip>
          )}
        </Group>
      ),
    },
  ];

  const setFilter = <K extends keyof TaskFilters>(key: K, value: TaskFilters[K] | undefined) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setQuery((q) => ({ ...q, page: 1 }));
  };
  const toolbar = (
    <Group gap="xs" wrap="nowrap">
      <Select
        aria-label={t('filterStatus')}
        placeholder={t('allStatuses')}
        clearable
        w={150}
        data={STATUSES.map((s) => ({ value: s, label: t(`status_${s}`) }))}
        value={filters.status ?? null}
        onChange={(v) => setFilter('status', (v as TaskStatus) ?? undefined)}
      />
      <Select
        aria-label={t('filterOwner')}
        placeholder={t('allOwners')}
        clearable
        searchable
        w={180}
        data={(owners.data ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
        value={filters.ownerId ? String(filters.ownerId) : null}
        onChange={(v) => setFilter('ownerId', v ? Number(v) : undefined)}
      />
      <Select
        aria-label={t('filterPriority')}
        placeholder={t('allPriorities')}
        clearable
        w={150}
        data={PRIORITIES.map((p) => ({ value: p, label: t(`priority_${p}`) }))}
        value={filters.priority ?? null}
        onChange={(v) => setFilter('priority', (v as Priority) ?? undefined)}
      />
    </Group>
  );

  const filtered = Boolean(filters.status || filters.ownerId || filters.priority || query.search);
  const empty = filtered
    ? <EmptyState title={t('noResults')} />
    : <EmptyState title={t('emptyTitle')} description={t('emptyText')} action={newButton} />;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={newButton} />
      <DataTable
        columns={columns}
        rowKey={(x) => x.id}
        rows={page?.rows}
        total={page?.total ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isLoading}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('search')}
        toolbar={toolbar}
        empty={empty}
      />
      {editing && (
        <TaskDrawer task={editing.task} initialTab={editing.tab} owners={owners.data ?? []} onClose={() => setEditing(null)} onSaved={refresh} />
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
