import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { ActionIcon, Box, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCheck, IconGripVertical, IconLayoutKanban, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog, EmptyState, ErrorBox, PageHeader, notify, sessionAtom, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { laneForm, type LaneFormValues } from '@atende/plugin-kanban/contract';
import { createLane, deleteLane, lanesKey, listLanes, orderLanes, renameLane, type Lane } from './api.ts';

const MAX_NAME = 80;

/** A lane name form, validated by the schema the server applies (the plugin's contract). */
function useLaneForm(name: string) {
  return useForm<LaneFormValues>({ initialValues: { name }, validate: schemaResolver(laneForm, { sync: true }), validateInputOnBlur: true });
}

/** The schema's messages are Portuguese; the one rule users meet (a name) shows the screen's own translated text. */
const nameError = (form: ReturnType<typeof useLaneForm>, required: string) =>
  form.errors.name ? (form.values.name.trim() ? String(form.errors.name) : required) : undefined;

function LaneRow({ lane, index, editable, onDelete }: { lane: Lane; index: number; editable: boolean; onDelete: (l: Lane) => void }) {
  const { t } = usePluginTranslation('kanban');
  const queryClient = useQueryClient();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: lane.id, disabled: !editable });
  const [editing, setEditing] = useState(false);
  const form = useLaneForm(lane.name);
  const rename = useMutation({
    mutationFn: (values: LaneFormValues) => renameLane(lane.id, laneForm.parse(values).name),
    onSuccess: () => {
      notify.success(t('laneSaved'));
      setEditing(false);
      void queryClient.invalidateQueries({ queryKey: lanesKey });
    },
  });
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      radius="md"
      px="sm"
      py={8}
      aria-label={lane.name}
      style={{ transform: transform ? `translate3d(0, ${transform.y}px, 0)` : undefined, transition, opacity: isDragging ? 0.6 : 1, zIndex: isDragging ? 2 : undefined }}
    >
      <Group wrap="nowrap" gap="sm">
        {editable && (
          <ActionIcon variant="subtle" color="gray" aria-label={t('dragLane', { name: lane.name })} {...attributes} {...listeners} style={{ cursor: 'grab' }}>
            <IconGripVertical size={16} />
          </ActionIcon>
        )}
        <Text size="xs" c="dimmed" w={22} ta="right">
          {index + 1}
        </Text>
        {editing ? (
          <form style={{ flex: 1 }} onSubmit={form.onSubmit((values) => rename.mutate(values))} noValidate>
            <Group gap={6} wrap="nowrap">
              <TextInput size="xs" style={{ flex: 1 }} maxLength={MAX_NAME} aria-label={t('name')} {...form.getInputProps('name')} error={nameError(form, t('nameRequired'))} data-autofocus autoFocus />
              <ActionIcon type="submit" variant="light" aria-label={t('common.save')} loading={rename.isPending}><IconCheck size={16} /></ActionIcon>
              <ActionIcon variant="subtle" color="gray" aria-label={t('common.cancel')} onClick={() => setEditing(false)}><IconX size={16} /></ActionIcon>
            </Group>
          </form>
        ) : (
          <Text fw={600} size="sm" style={{ flex: 1 }} truncate="end">{lane.name}</Text>
        )}
        {editable && !editing && (
          <Group gap={4} wrap="nowrap">
            <Tooltip label={t('rename')}><ActionIcon variant="subtle" color="gray" aria-label={t('renameLane', { name: lane.name })} onClick={() => { form.setValues({ name: lane.name }); form.clearErrors(); setEditing(true); }}><IconPencil size={16} /></ActionIcon></Tooltip>
            <Tooltip label={t('common.delete')}><ActionIcon variant="subtle" color="red" aria-label={t('deleteLane', { name: lane.name })} onClick={() => onDelete(lane)}><IconTrash size={16} /></ActionIcon></Tooltip>
          </Group>
        )}
      </Group>
    </Paper>
  );
}

/** `/lanes` and `/configuracoes/lanes`: the lanes (name, position) — add, rename, drag to reorder, delete. */
export default function LanesPage() {
  const { t } = usePluginTranslation('kanban');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useAtomValue(sessionAtom);
  const editable = session?.profile !== 'user';
  const lanes = useQuery({ queryKey: lanesKey, queryFn: ({ signal }) => listLanes(signal) });
  const [order, setOrder] = useState<Lane[]>([]);
  useEffect(() => setOrder(lanes.data ?? []), [lanes.data]);
  useRealtime('kanban.lanes_changed', () => void queryClient.invalidateQueries({ queryKey: lanesKey }));

  const form = useLaneForm('');
  const [deleting, setDeleting] = useState<Lane | null>(null);

  const create = useMutation({
    mutationFn: (values: LaneFormValues) => createLane(laneForm.parse(values).name),
    onSuccess: () => {
      notify.success(t('laneCreated'));
      form.reset();
      void queryClient.invalidateQueries({ queryKey: lanesKey });
    },
  });
  const reorder = useMutation({
    mutationFn: (ids: number[]) => orderLanes(ids),
    onSuccess: (saved) => queryClient.setQueryData(lanesKey, saved),
    onError: () => void lanes.refetch(),
  });
  const remove = useMutation({
    mutationFn: (l: Lane) => deleteLane(l.id),
    onSuccess: () => {
      notify.success(t('laneDeleted'));
      void queryClient.invalidateQueries({ queryKey: lanesKey });
    },
  });

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const onDragEnd = (e: DragEndEvent) => {
    if (!e.over || e.active.id === e.over.id) return;
    const from = order.findIndex((l) => l.id === e.active.id);
    const to = order.findIndex((l) => l.id === e.over!.id);
    const next = arrayMove(order, from, to);
    setOrder(next);
    reorder.mutate(next.map((l) => l.id));
  };

  return (
    <>
      <PageHeader
        title={t('lanesTitle')}
        description={t('lanesDescription')}
        actions={<Button variant="default" leftSection={<IconLayoutKanban size={16} />} onClick={() => navigate('/kanban/kanbans')}>{t('openBoard')}</Button>}
      />
      <Box maw={640}>
        {editable && (
          <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
            <Group align="flex-start" gap="xs" mb="md">
              <TextInput
                style={{ flex: 1 }}
                placeholder={t('newLanePlaceholder')}
                aria-label={t('newLane')}
                maxLength={MAX_NAME}
                {...form.getInputProps('name')}
                // An empty box left behind is not an error until the user tries to add it.
                onBlur={() => form.values.name && form.validateField('name')}
                error={nameError(form, t('nameRequired'))}
              />
              <Button type="submit" leftSection={<IconPlus size={16} />} loading={create.isPending}>{t('addLane')}</Button>
            </Group>
          </form>
        )}
        {lanes.error ? (
          <ErrorBox title={t('loadError')} onRetry={() => void lanes.refetch()} />
        ) : !lanes.data ? (
          <Stack gap="xs">{[0, 1, 2].map((i) => <Skeleton key={i} h={48} radius="md" />)}</Stack>
        ) : order.length === 0 ? (
          <EmptyState title={t('noLanesTitle')} description={t('noLanesText')} />
        ) : (
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <SortableContext items={order.map((l) => l.id)} strategy={verticalListSortingStrategy}>
              <Stack gap="xs" role="list" aria-label={t('lanesTitle')}>
                {order.map((l, i) => <LaneRow key={l.id} lane={l} index={i} editable={editable} onDelete={setDeleting} />)}
              </Stack>
            </SortableContext>
          </DndContext>
        )}
        {editable && order.length > 1 && <Text size="xs" c="dimmed" mt="sm">{t('reorderHint')}</Text>}
      </Box>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('deleteLaneTitle')}
        message={t('deleteLaneText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
