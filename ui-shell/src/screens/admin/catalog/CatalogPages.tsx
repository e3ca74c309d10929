/**
 * `/filas`, `/etiquetas` and `/mensagens-rapidas`: short lists the endpoints
 * answer whole, so search, sort and paging happen in the browser.
 */
import { ActionIcon, Alert, Badge, Button, ColorInput, FileButton, Group, Modal, NumberInput, Stack, Switch, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconBolt, IconMicrophone, IconPaperclip, IconPencil, IconPlus, IconTags, IconTrash, IconUsersGroup, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError, ConfirmDialog, DataTable, EmptyState, PageHeader, api, errorMessage, formatDateTime, notify, paginateLocally, useDataTableState,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { ColorName, SWATCHES, queuesKey, tagsKey, type Queue, type Tag } from '../shared.tsx';

function RowActions({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      <Tooltip label={t('common.edit')}><ActionIcon variant="subtle" color="gray" aria-label={t('common.edit')} onClick={onEdit}><IconPencil size={16} /></ActionIcon></Tooltip>
      <Tooltip label={t('common.delete')}><ActionIcon variant="subtle" color="red" aria-label={t('common.delete')} onClick={onDelete}><IconTrash size={16} /></ActionIcon></Tooltip>
    </Group>
  );
}

/** Server answers that belong under a field: duplicate names and the zod details. */
function fieldError(err: unknown): string {
  return errorMessage(err);
}

function FormModal({ title, opened, onClose, onSubmit, busy, error, children }: { title: string; opened: boolean; onClose: () => void; onSubmit: () => void; busy: boolean; error?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>{title}</Text>} radius="md" size="md">
      <form noValidate onSubmit={(e) => { e.preventDefault(); onSubmit(); }}>
        <Stack gap="sm">
          {error && <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />}>{error}</Alert>}
          {children}
          <Group justify="flex-end" gap="xs" mt="sm">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={busy}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The shared half of the queue and tag forms: a name and a colour checked in
 * the browser, then saved (create or update) with the server's answer shown
 * under the name (duplicates) or above the form.
 */
function useNamedColorForm<T extends { id: number }>(opts: { path: string; item: T | null; queryKey: readonly unknown[]; name: string; color: string; body: () => Record<string, unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [errors, setErrors] = useState<{ name?: string; color?: string; form?: string }>({});
  const save = useMutation({
    mutationFn: () => {
      const body = { name: opts.name.trim(), color: opts.color, ...opts.body() };
      return opts.item ? api.put(`${opts.path}/${opts.item.id}`, body, { silent: true }) : api.post(opts.path, body, { silent: true });
    },
    onSuccess: () => { notify.success(t('admin.catalog.saved')); void qc.invalidateQueries({ queryKey: opts.queryKey }); opts.onClose(); },
    onError: (e) => setErrors(e instanceof ApiError && e.status === 409 ? { name: fieldError(e) } : { form: fieldError(e) }),
  });
  const submit = () => {
    const e: typeof errors = {};
    if (!opts.name.trim()) e.name = t('validation.requiredField', { field: t('common.name').toLowerCase() });
    if (!/^#(?:[0-9a-fA-F]{3}){1,2}$/.test(opts.color)) e.color = t('admin.catalog.badColor');
    setErrors(e);
    if (!e.name && !e.color) save.mutate();
  };
  return { errors, submit, busy: save.isPending };
}

// ------------------------------------------------------------------ queues

function QueueForm({ queue, onClose }: { queue: Queue | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(queue?.name ?? '');
  const [color, setColor] = useState(queue?.color ?? SWATCHES[0]!);
  const [greeting, setGreeting] = useState(queue?.greetingMessage ?? '');
  const [slaFirst, setSlaFirst] = useState<number | string>(queue?.slaFirstResponseMinutes ?? '');
  const [slaResolution, setSlaResolution] = useState<number | string>(queue?.slaResolutionMinutes ?? '');
  const minutes = (v: number | string) => (v === '' || v === null ? null : Number(v));
  const { errors, submit, busy } = useNamedColorForm({
    path: '/queues', item: queue, queryKey: queuesKey, name, color, onClose,
    body: () => ({ greetingMessage: greeting.trim() || null, slaFirstResponseMinutes: minutes(slaFirst), slaResolutionMinutes: minutes(slaResolution) }),
  });
  return (
    <FormModal opened title={queue ? t('admin.queues.edit') : t('admin.queues.new')} onClose={onClose} onSubmit={submit} busy={busy} error={errors.form}>
      <TextInput label={t('common.name')} withAsterisk value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} maxLength={120} data-autofocus />
      <ColorInput label={t('admin.catalog.color')} value={color} onChange={setColor} swatches={SWATCHES} swatchesPerRow={12} format="hex" error={errors.color} />
      <Textarea label={t('admin.queues.greeting')} description={t('admin.queues.greetingHint')} value={greeting} onChange={(e) => setGreeting(e.currentTarget.value)} autosize minRows={3} maxRows={8} maxLength={4096} />
      <Group grow align="flex-start">
        <NumberInput label={t('admin.queues.slaFirst')} value={slaFirst} onChange={setSlaFirst} min={1} max={43200} allowDecimal={false} allowNegative={false} data-testid="queue-sla-first" />
        <NumberInput label={t('admin.queues.slaResolution')} value={slaResolution} onChange={setSlaResolution} min={1} max={43200} allowDecimal={false} allowNegative={false} data-testid="queue-sla-resolution" />
      </Group>
      <Text size="xs" c="dimmed" mt={-8}>{t('admin.queues.slaHint')}</Text>
    </FormModal>
  );
}

/**
 * The variables the quick-message form names, in the spec's one syntax (`{{name}}`, as the composer,
 * farewells and schedules show them); passed as values so i18next leaves the braces alone. The server
 * also takes the Portuguese names (`{{nome}}`, templates.ts).
 */
const QUICK_HINT_VALUES = { variables: ['name', 'firstName', 'greeting', 'protocol', 'user'].map((v) => `{{${v}}}`).join(', ') };

export function QueuesPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [query, setQuery] = useDataTableState({ sort: { key: 'name', direction: 'asc' } });
  const [editing, setEditing] = useState<Queue | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Queue | null>(null);
  const list = useQuery({ queryKey: queuesKey, queryFn: ({ signal }) => api.get<Queue[]>('/queues', { signal }) });
  const page = useMemo(() => (list.data ? paginateLocally(list.data, query, (q) => q.name) : undefined), [list.data, query]);
  const remove = useMutation({ mutationFn: (q: Queue) => api.delete(`/queues/${q.id}`), onSuccess: () => { notify.success(t('admin.catalog.deleted')); void qc.invalidateQueries({ queryKey: queuesKey }); } });
  const columns: DataTableColumn<Queue>[] = [
    { key: 'name', title: t('common.name'), sortable: true, render: (q) => <ColorName color={q.color} name={q.name} /> },
    { key: 'color', title: t('admin.catalog.color'), width: 120, render: (q) => <Text size="sm" ff="monospace" c="dimmed">{q.color}</Text> },
    { key: 'greetingMessage', title: t('admin.queues.greeting'), render: (q) => <Text size="sm" c="dimmed" lineClamp={1} maw={420}>{q.greetingMessage || '—'}</Text> },
    { key: 'sla', title: t('admin.queues.slaColumn'), width: 200, render: (q) => <Text size="sm" c="dimmed">{q.slaFirstResponseMinutes || q.slaResolutionMinutes ? `${q.slaFirstResponseMinutes ?? '—'} / ${q.slaResolutionMinutes ?? '—'} min` : '—'}</Text> },
    { key: 'createdAt', title: t('common.createdAt'), sortable: true, width: 170, render: (q) => <Text size="sm" c="dimmed">{formatDateTime(q.createdAt, i18n.language)}</Text> },
    { key: 'actions', title: t('common.actions'), width: 100, align: 'right', render: (q) => <RowActions onEdit={() => setEditing(q)} onDelete={() => setDeleting(q)} /> },
  ];
  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>{t('admin.queues.new')}</Button>;
  return (
    <>
      <PageHeader title={t('admin.queues.title')} description={t('admin.queues.description')} actions={newButton} />
      <DataTable columns={columns} rowKey={(q) => q.id} rows={page?.rows} total={page?.total ?? 0} query={query} onQueryChange={setQuery} loading={list.isLoading} error={list.error ?? undefined} onRetry={() => void list.refetch()}
        searchPlaceholder={t('admin.catalog.search')} empty={<EmptyState icon={<IconUsersGroup size={28} />} title={t('admin.queues.empty')} description={t('admin.queues.emptyText')} action={newButton} />} />
      {editing !== null && <QueueForm queue={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog opened={deleting !== null} title={t('admin.queues.deleteTitle')} message={t('admin.catalog.deleteText', { name: deleting?.name ?? '' })} confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)} onClose={() => setDeleting(null)} />
    </>
  );
}

// ------------------------------------------------------------------ tags

function TagForm({ tag, onClose }: { tag: Tag | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(tag?.color ?? SWATCHES[2]!);
  const [active, setActive] = useState(tag?.active ?? true);
  const { errors, submit, busy } = useNamedColorForm({ path: '/tags', item: tag, queryKey: tagsKey, name, color, body: () => ({ active }), onClose });
  return (
    <FormModal opened title={tag ? t('admin.tags.edit') : t('admin.tags.new')} onClose={onClose} onSubmit={submit} busy={busy} error={errors.form}>
      <TextInput label={t('common.name')} withAsterisk value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} maxLength={120} data-autofocus />
      <ColorInput label={t('admin.catalog.color')} value={color} onChange={setColor} swatches={SWATCHES} swatchesPerRow={12} format="hex" error={errors.color} />
      <Switch label={t('admin.catalog.active')} description={t('admin.tags.activeHint')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
    </FormModal>
  );
}

export function TagsPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [query, setQuery] = useDataTableState({ sort: { key: 'name', direction: 'asc' } });
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const list = useQuery({ queryKey: tagsKey, queryFn: ({ signal }) => api.get<Tag[]>('/tags', { signal }) });
  const page = useMemo(() => (list.data ? paginateLocally(list.data, query, (x) => x.name) : undefined), [list.data, query]);
  const invalidate = () => void qc.invalidateQueries({ queryKey: tagsKey });
  const remove = useMutation({ mutationFn: (x: Tag) => api.delete(`/tags/${x.id}`), onSuccess: () => { notify.success(t('admin.catalog.deleted')); invalidate(); } });
  const toggle = useMutation({ mutationFn: (x: Tag) => api.put(`/tags/${x.id}`, { active: !x.active }), onSuccess: invalidate });
  const columns: DataTableColumn<Tag>[] = [
    { key: 'name', title: t('common.name'), sortable: true, render: (x) => <Badge size="lg" radius="sm" variant="light" color={x.color} styles={{ root: { textTransform: 'none' } }}>{x.name}</Badge> },
    { key: 'color', title: t('admin.catalog.color'), width: 140, render: (x) => <ColorName color={x.color} name={x.color} dimmed /> },
    { key: 'active', title: t('admin.catalog.active'), width: 110, render: (x) => <Switch size="sm" checked={x.active} onChange={() => toggle.mutate(x)} aria-label={t('admin.catalog.active')} /> },
    { key: 'createdAt', title: t('common.createdAt'), sortable: true, width: 170, render: (x) => <Text size="sm" c="dimmed">{formatDateTime(x.createdAt, i18n.language)}</Text> },
    { key: 'actions', title: t('common.actions'), width: 100, align: 'right', render: (x) => <RowActions onEdit={() => setEditing(x)} onDelete={() => setDeleting(x)} /> },
  ];
  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>{t('admin.tags.new')}</Button>;
  return (
    <>
      <PageHeader title={t('admin.tags.title')} description={t('admin.tags.description')} actions={newButton} />
      <DataTable columns={columns} rowKey={(x) => x.id} rows={page?.rows} total={page?.total ?? 0} query={query} onQueryChange={setQuery} loading={list.isLoading} error={list.error ?? undefined} onRetry={() => void list.refetch()}
        searchPlaceholder={t('admin.catalog.search')} empty={<EmptyState icon={<IconTags size={28} />} title={t('admin.tags.empty')} description={t('admin.tags.emptyText')} action={newButton} />} />
      {editing !== null && <TagForm tag={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog opened={deleting !== null} title={t('admin.tags.deleteTitle')} message={t('admin.catalog.deleteText', { name: deleting?.name ?? '' })} confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)} onClose={() => setDeleting(null)} />
    </>
  );
}

// ------------------------------------------------------------------ quick messages

interface QuickMessage { id: number; key: string; message: string; mediaUrl: string | null; mediaName: string | null; mediaType: string | null; asAudio: boolean; active: boolean; createdAt: string }
const quickKey = ['admin', 'quick-messages'] as const;

function QuickForm({ item, onClose }: { item: QuickMessage | null; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [key, setKey] = useState(item?.key ?? '');
  const [message, setMessage] = useState(item?.message ?? '');
  const [asAudio, setAsAudio] = useState(item?.asAudio ?? false);
  const [active, setActive] = useState(item?.active ?? true);
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const [errors, setErrors] = useState<{ key?: string; message?: string; form?: string }>({});
  const save = useMutation({
    mutationFn: async () => {
      const body = { key: key.trim(), message: message.trim(), asAudio, active };
      const saved = item ? await api.put<QuickMessage>(`/quick-messages/${item.id}`, body, { silent: true }) : await api.post<QuickMessage>('/quick-messages', body, { silent: true });
      if (file) {
        const form = new FormData();
        form.append('file', file);
        await api.post(`/quick-messages/${saved.id}/media`, form, { silent: true, timeoutMs: 120_000 });
      } else if (removeMedia && item?.mediaUrl) {
        await api.delete(`/quick-messages/${saved.id}/media`, { silent: true });
      }
    },
    onSuccess: () => { notify.success(t('admin.catalog.saved')); void qc.invalidateQueries({ queryKey: quickKey }); onClose(); },
    onError: (e) => setErrors(e instanceof ApiError && e.status === 409 ? { key: fieldError(e) } : { form: fieldError(e) }),
  });
  const submit = () => {
    const e: typeof errors = {};
    if (!key.trim()) e.key = t('validation.requiredField', { field: t('admin.quick.key').toLowerCase() });
    else if (/[\s/]/.test(key.trim())) e.key = t('admin.quick.keyRule');
    if (!message.trim()) e.message = t('validation.requiredField', { field: t('admin.quick.message').toLowerCase() });
    setErrors(e);
    if (!e.key && !e.message) save.mutate();
  };
  const currentMedia = file?.name ?? (!removeMedia ? item?.mediaName : null);
  return (
    <FormModal opened title={item ? t('admin.quick.edit') : t('admin.quick.new')} onClose={onClose} onSubmit={submit} busy={save.isPending} error={errors.form}>
      <TextInput label={t('admin.quick.key')} description={t('admin.quick.keyHint')} withAsterisk leftSection={<Text size="sm" c="dimmed">/</Text>} value={key} onChange={(e) => setKey(e.currentTarget.value)} error={errors.key} maxLength={50} data-autofocus />
      <Textarea label={t('admin.quick.message')} description={t('admin.quick.messageHint', QUICK_HINT_VALUES)} withAsterisk value={message} onChange={(e) => setMessage(e.currentTarget.value)} error={errors.message} autosize minRows={4} maxRows={10} maxLength={4096} />
      <Group gap="xs">
        <FileButton onChange={(f) => { setFile(f); setRemoveMedia(false); }} accept="image/*,audio/*,video/*,application/pdf">
          {(props) => <Button {...props} size="xs" variant="light" leftSection={<IconPaperclip size={14} />}>{currentMedia ? t('admin.quick.replaceFile') : t('admin.quick.attach')}</Button>}
        </FileButton>
        {currentMedia && (
          <Badge variant="default" radius="sm" rightSection={<ActionIcon size="xs" variant="transparent" aria-label={t('common.delete')} onClick={() => { setFile(null); setRemoveMedia(true); }}><IconX size={12} /></ActionIcon>}>
            {currentMedia}
          </Badge>
        )}
      </Group>
      <Switch label={t('admin.quick.asAudio')} description={t('admin.quick.asAudioHint')} checked={asAudio} onChange={(e) => setAsAudio(e.currentTarget.checked)} />
      <Switch label={t('admin.catalog.active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
    </FormModal>
  );
}

export function QuickMessagesPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [query, setQuery] = useDataTableState({ sort: { key: 'key', direction: 'asc' } });
  const [editing, setEditing] = useState<QuickMessage | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);
  const list = useQuery({ queryKey: quickKey, queryFn: ({ signal }) => api.get<QuickMessage[]>('/quick-messages', { signal, query: { all: true } }) });
  const page = useMemo(() => (list.data ? paginateLocally(list.data, query, (x) => `${x.key} ${x.message}`) : undefined), [list.data, query]);
  const invalidate = () => void qc.invalidateQueries({ queryKey: quickKey });
  const remove = useMutation({ mutationFn: (x: QuickMessage) => api.delete(`/quick-messages/${x.id}`), onSuccess: () => { notify.success(t('admin.catalog.deleted')); invalidate(); } });
  const toggle = useMutation({ mutationFn: (x: QuickMessage) => api.put(`/quick-messages/${x.id}`, { active: !x.active }), onSuccess: invalidate });
  const columns: DataTableColumn<QuickMessage>[] = [
    { key: 'key', title: t('admin.quick.key'), sortable: true, width: 180, render: (x) => <Text size="sm" fw={600} ff="monospace">/{x.key}</Text> },
    { key: 'message', title: t('admin.quick.message'), render: (x) => <Text size="sm" lineClamp={2} maw={520}>{x.message}</Text> },
    {
      key: 'media', title: t('admin.quick.media'), width: 200,
      render: (x) => x.mediaName || x.mediaUrl ? (
        <Group gap={6} wrap="nowrap">
          {x.asAudio ? <IconMicrophone size={14} /> : <IconPaperclip size={14} />}
          <Text size="sm" truncate maw={160}>{x.mediaName ?? x.mediaUrl}</Text>
        </Group>
      ) : <Text size="sm" c="dimmed">—</Text>,
    },
    { key: 'active', title: t('admin.catalog.active'), width: 100, render: (x) => <Switch size="sm" checked={x.active} onChange={() => toggle.mutate(x)} aria-label={t('admin.catalog.active')} /> },
    { key: 'actions', title: t('common.actions'), width: 100, align: 'right', render: (x) => <RowActions onEdit={() => setEditing(x)} onDelete={() => setDeleting(x)} /> },
  ];
  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>{t('admin.quick.new')}</Button>;
  return (
    <>
      <PageHeader title={t('admin.quick.title')} description={t('admin.quick.description')} actions={newButton} />
      <DataTable columns={columns} rowKey={(x) => x.id} rows={page?.rows} total={page?.total ?? 0} query={query} onQueryChange={setQuery} loading={list.isLoading} error={list.error ?? undefined} onRetry={() => void list.refetch()}
        searchPlaceholder={t('admin.catalog.search')} empty={<EmptyState icon={<IconBolt size={28} />} title={t('admin.quick.empty')} description={t('admin.quick.emptyText')} action={newButton} />} />
      {editing !== null && <QuickForm item={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog opened={deleting !== null} title={t('admin.quick.deleteTitle')} message={t('admin.catalog.deleteText', { name: deleting ? `/${deleting.key}` : '' })} confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)} onClose={() => setDeleting(null)} />
    </>
  );
}
