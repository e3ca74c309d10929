import { ActionIcon, Button, Code, Group, Modal, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { schemaResolver, useForm } from '@mantine/form';
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
  useRealtime,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { farewellInput, type FarewellInput } from '@atende/plugin-farewells/contract';
import { createFarewell, deleteFarewell, farewellsKey, listFarewells, updateFarewell, type Farewell } from './api.ts';

/** Variables the kernel fills when the farewell is sent (core.md §3). */
const VARIABLES = ['name', 'firstName', 'greeting', 'protocol', 'user', 'email', 'phoneNumber', 'businessName'];

function FarewellModal({ farewell, onClose }: { farewell: Farewell | null; onClose: () => void }) {
  const { t } = usePluginTranslation('farewells');
  const queryClient = useQueryClient();
  const form = useForm<FarewellInput>({
    initialValues: { message: farewell?.message ?? '' },
    validate: schemaResolver(farewellInput, { sync: true }),
  });
  const message = form.values.message;
  const area = useRef<HTMLTextAreaElement>(null);
  const save = useMutation({
    mutationFn: (input: FarewellInput) => (farewell ? updateFarewell(farewell.id, input) : createFarewell(input)),
    onSuccess: () => {
      notify.success(farewell ? t('updated') : t('created'));
      void queryClient.invalidateQueries({ queryKey: farewellsKey });
      onClose();
    },
  });
  const insert = (v: string) => {
    const el = area.current;
    const token = `{{${v}}}`;
    const at = el?.selectionStart ?? message.length;
    form.setFieldValue('message', message.slice(0, at) + token + message.slice(el?.selectionEnd ?? at));
    requestAnimationFrame(() => el?.focus());
  };
  // The schema's messages are Portuguese; the field shows the screen's translated text for the rule users meet.
  const error = form.errors.message ? (message.trim() ? String(form.errors.message) : t('messageRequired')) : undefined;
  return (
    <Modal opened onClose={onClose} title={farewell ? t('edit') : t('new')} size="lg" centered>
      <form onSubmit={form.onSubmit((v) => save.mutate(farewellInput.parse(v)))} noValidate>
        <Stack gap="sm">
          <Textarea
            ref={area}
            label={t('message')}
            placeholder={t('messagePlaceholder', { firstName: '{{firstName}}', protocol: '{{protocol}}' })}
            withAsterisk
            autosize
            minRows={4}
            maxRows={10}
            maxLength={4096}
            value={message}
            onChange={(e) => { form.setFieldValue('message', e.currentTarget.value); form.clearFieldError('message'); }}
            error={error}
            data-autofocus
            data-testid="farewell-message"
          />
          <Group gap={6}>
            <Text size="xs" c="dimmed">{t('variables')}</Text>
            {VARIABLES.map((v) => (
              <Code key={v} style={{ cursor: 'pointer' }} onClick={() => insert(v)}>{`{{${v}}}`}</Code>
            ))}
          </Group>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>{t('common.cancel')}</Button>
            <Button type="submit" loading={save.isPending} data-testid="farewell-save">{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** `/fechamento`: the farewell messages agents pick when they resolve a ticket. */
export default function FarewellsPage() {
  const { t, i18n } = usePluginTranslation('farewells');
  const queryClient = useQueryClient();
  const [query, setQuery] = useDataTableState({ sort: { key: 'message', direction: 'asc' } });
  const [editing, setEditing] = useState<Farewell | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Farewell | null>(null);
  const list = useQuery({ queryKey: farewellsKey, queryFn: ({ signal }) => listFarewells(signal) });
  const page = useMemo(() => (list.data ? paginateLocally(list.data, query, (f) => `${f.message} ${f.userName ?? ''}`) : undefined), [list.data, query]);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: farewellsKey });
  useRealtime('farewell.created', refresh);
  useRealtime('farewell.updated', refresh);
  useRealtime('farewell.deleted', refresh);
  const remove = useMutation({
    mutationFn: (f: Farewell) => deleteFarewell(f.id),
    onSuccess: () => {
      notify.success(t('deleted'));
      refresh();
    },
  });
  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="farewell-new">{t('new')}</Button>;
  const columns: DataTableColumn<Farewell>[] = [
    { key: 'message', title: t('message'), sortable: true, render: (f) => <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} lineClamp={3}>{f.message}</Text> },
    { key: 'userName', title: t('user'), width: 180, render: (f) => <Text size="sm" c="dimmed">{f.userName ?? '—'}</Text> },
    { key: 'updatedAt', title: t('date'), sortable: true, width: 170, render: (f) => <Text size="sm" c="dimmed">{formatDateTime(f.updatedAt, i18n.language)}</Text> },
    {
      key: 'actions',
      title: t('actions'),
      width: 100,
      align: 'right',
      render: (f) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('edit')}><ActionIcon variant="subtle" color="gray" aria-label={t('edit')} onClick={() => setEditing(f)}><IconPencil size={16} /></ActionIcon></Tooltip>
          <Tooltip label={t('common.delete')}><ActionIcon variant="subtle" color="red" aria-label={t('common.delete')} onClick={() => setDeleting(f)}><IconTrash size={16} /></ActionIcon></Tooltip>
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={newButton} />
      <DataTable
        columns={columns}
        rowKey={(f) => f.id}
        rows={page?.rows}
        total={page?.total ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isLoading}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('search')}
        empty={list.data?.length ? <EmptyState title={t('noResults')} /> : <EmptyState title={t('emptyTitle')} description={t('emptyText')} action={newButton} />}
      />
      {editing !== null && <FarewellModal farewell={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteText')}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
