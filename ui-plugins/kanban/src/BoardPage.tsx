import { DndContext, DragOverlay, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import { Button, Group, Modal, Select, Skeleton, Stack, Text } from '@mantine/core';
import { IconUserCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { EmptyState, ErrorBox, notify, sessionAtom, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { assignOwner, boardKey, getBoard, getColumnPage, listOwners, moveToLane, moveToTag, type Card, type CardEvent, type Column, type View } from './api.ts';
import { appendPage, applyCardEvent, optimisticCard } from './board-state.ts';
import { CardView } from './CardView.tsx';
import { ColumnView } from './ColumnView.tsx';

/** Accent of a lane by its place on the board (lanes have no colour of their own in the spec). */
const LANE_ACCENTS = ['#4c6ef5', '#7950f2', '#12b886', '#fd7e14', '#e64980', '#15aabf', '#82c91e', '#be4bdb', '#fab005', '#fa5252'];

export interface BoardContext {
  search: string;
}

/** `/kanban/kanbans` (view "lanes") and `/kanban/tags` (view "tags"): the drag-and-drop board. */
export function BoardPage({ view }: { view: View }) {
  const { t } = usePluginTranslation('kanban');
  const { search } = useOutletContext<BoardContext>() ?? { search: '' };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useAtomValue(sessionAtom);
  const isAdmin = session?.profile === 'admin' || session?.profile === 'superadmin';

  const query = useQuery({
    queryKey: boardKey(view, search),
    queryFn: ({ signal }) => getBoard(view, search, signal),
    // Real-time events keep the board current; a refetch on focus would throw away loaded pages.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [columns, setColumns] = useState<Column[]>([]);
  useEffect(() => {
    if (query.data) setColumns(query.data.columns);
  }, [query.data]);

  // Cards this browser moved and whose event has not come back yet: their counts are already done.
  const ownMoves = useRef(new Set<number>());

  useRealtime<CardEvent>('kanban.card_moved', (e) => {
    const mine = ownMoves.current.delete(e.card.id);
    setColumns((cols) => applyCardEvent(cols, view, e, mine));
  });
  useRealtime('kanban.lanes_changed', () => void queryClient.invalidateQueries({ queryKey: ['plugins', 'kanban', 'board'] }));

  const loadMore = useCallback(
    async (col: Column) => {
      if (!col.nextCursor) return;
      const page = await getColumnPage(view, col.id, col.nextCursor, search);
      setColumns((cols) => appendPage(cols, col.key, page));
    },
    [view, search],
  );

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor));
  const [dragged, setDragged] = useState<Card | null>(null);

  const move = useMutation({
    mutationFn: ({ card, from, to }: { card: Card; from: Column; to: Column }) =>
      view === 'lanes' ? moveToLane(card.id, to.id === 0 ? null : to.id) : moveToTag(card.id, from.id === 0 ? null : from.id, to.id === 0 ? null : to.id),
    onError: (_e, { card }) => {
      // The API client has toasted the reason; put the board back as the server has it.
      ownMoves.current.delete(card.id);
      void query.refetch();
    },
  });

  const onDragStart = (e: DragStartEvent) => setDragged((e.active.data.current as { card: Card }).card);
  const onDragEnd = (e: DragEndEvent) => {
    setDragged(null);
    const data = e.active.data.current as { card: Card; from: string } | undefined;
    const toKey = e.over?.id;
    if (!data || !toKey || toKey === data.from) return;
    const from = columns.find((c) => c.key === data.from);
    const to = columns.find((c) => c.key === toKey);
    if (!from || !to) return;
    if (view === 'tags' && to.id !== 0 && data.card.tags.some((tag) => tag.id === to.id)) return;
    const next = optimisticCard(view, data.card, from, to);
    ownMoves.current.add(data.card.id);
    setColumns((cols) => applyCardEvent(cols, view, { card: next, before: { laneId: data.card.laneId, tagIds: data.card.tags.map((x) => x.id) } }));
    move.mutate({ card: data.card, from, to });
  };

  const [assigning, setAssigning] = useState<Card | null>(null);

  if (query.error) return <ErrorBox title={t('loadError')} onRetry={() => void query.refetch()} />;
  if (!query.data) {
    return (
      <Group gap="md" wrap="nowrap" align="stretch" h="calc(100vh - 230px)" aria-busy>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} w={296} h="100%" radius={12} />
        ))}
      </Group>
    );
  }

  const titleOf = (c: Column) => (c.id === 0 ? (view === 'lanes' ? t('noLane') : t('noTag')) : c.name);
  const accentOf = (c: Column, i: number) => (c.id === 0 ? '#adb5bd' : view === 'tags' ? (c.color ?? '#868e96') : LANE_ACCENTS[(i - 1) % LANE_ACCENTS.length]!);
  const onlyFallback = columns.length <= 1;

  return (
    <>
      {onlyFallback && (
        <Text size="sm" c="dimmed" mb="sm">
          {view === 'lanes' ? t('noLanesHint') : t('noTagsHint')}
        </Text>
      )}
      <DndContext sensors={sensors} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragged(null)} accessibility={{ screenReaderInstructions: { draggable: t('dragInstructions') } }}>
        <Group gap="md" wrap="nowrap" align="stretch" h="calc(100vh - 230px)" mih={420} style={{ overflowX: 'auto', paddingBottom: 8 }} aria-label={t('boardLabel')}>
          {columns.map((c, i) => (
            <ColumnView
              key={c.key}
              column={c}
              title={titleOf(c)}
              accent={accentOf(c, i)}
              canAssign={isAdmin}
              onAssign={setAssigning}
              onOpenTicket={(id) => navigate(`/atendimento/${id}`)}
              onLoadMore={loadMore}
              draggingId={dragged?.id ?? null}
            />
          ))}
        </Group>
        <DragOverlay dropAnimation={{ duration: 160 }}>{dragged ? <CardView card={dragged} overlay /> : null}</DragOverlay>
      </DndContext>
      {search && columns.every((c) => c.count === 0) && <EmptyState title={t('noResults')} />}
      {assigning && <AssignOwnerModal card={assigning} onClose={() => setAssigning(null)} />}
    </>
  );
}

/** Admin only: makes a user the contact's owner (its wallet), or clears it. */
function AssignOwnerModal({ card, onClose }: { card: Card; onClose: () => void }) {
  const { t } = usePluginTranslation('kanban');
  const owners = useQuery({ queryKey: ['plugins', 'kanban', 'owners'], queryFn: listOwners });
  const [userId, setUserId] = useState<string | null>(card.owners[0] ? String(card.owners[0].id) : null);
  const save = useMutation({
    mutationFn: () => assignOwner(card.id, userId ? Number(userId) : null),
    onSuccess: () => {
      notify.success(t('ownerSaved'));
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('assignOwnerTitle', { name: card.name })} centered>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('assignOwnerText')}
        </Text>
        <Select
          label={t('owner')}
          placeholder={t('noOwner')}
          data={(owners.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
          value={userId}
          onChange={setUserId}
          searchable
          clearable
          nothingFoundMessage={t('nothingFound')}
          disabled={owners.isLoading}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button leftSection={<IconUserCheck size={16} />} loading={save.isPending} onClick={() => save.mutate()}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function LanesBoard() {
  return <BoardPage view="lanes" />;
}
export function TagsBoard() {
  return <BoardPage view="tags" />;
}
