import { useDraggable, useDroppable } from '@dnd-kit/core';
import { Badge, Box, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { formatNumber, usePluginTranslation } from '@atende/ui-shell/sdk';
import type { Card, Column } from './api.ts';
import { CARD_GAP, CARD_HEIGHT, CardView } from './CardView.tsx';

const ROW = CARD_HEIGHT + CARD_GAP;
/** Cards rendered above and below the visible window, so a fast scroll never shows blanks. */
const OVERSCAN = 6;

interface Props {
  column: Column;
  title: string;
  accent: string;
  canAssign: boolean;
  onAssign: (card: Card) => void;
  onOpenTicket: (ticketId: number) => void;
  /** Asks for the next page; resolves when it has been appended. */
  onLoadMore: (column: Column) => Promise<void>;
  draggingId: number | null;
}

function DraggableCard({ card, column, ...rest }: { card: Card; column: Column; top: number } & Pick<Props, 'canAssign' | 'onAssign' | 'onOpenTicket' | 'draggingId'>) {
  const { attributes, listeners, setNodeRef } = useDraggable({ id: `${column.key}|${card.id}`, data: { card, from: column.key } });
  return (
    <div ref={setNodeRef} {...attributes} {...listeners} style={{ position: 'absolute', top: rest.top, left: 0, right: 0, touchAction: 'none' }}>
      <CardView card={card} canAssign={rest.canAssign} onAssign={rest.onAssign} onOpenTicket={rest.onOpenTicket} dragging={rest.draggingId === card.id} />
    </div>
  );
}

/**
 * One lane (or tag) of the board. Only the cards in view are in the DOM
 * (fixed-height rows), and the next page loads as the end comes into view,
 * so a lane with thousands of contacts scrolls like one with ten.
 */
export function ColumnView({ column, title, accent, canAssign, onAssign, onOpenTicket, onLoadMore, draggingId }: Props) {
  const { t, i18n } = usePluginTranslation('kanban');
  const { setNodeRef, isOver } = useDroppable({ id: column.key, data: { column } });
  const scroller = useRef<HTMLDivElement | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    setHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);

  const total = column.cards.length;
  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(total, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  const nearEnd = last >= total - 2;

  useEffect(() => {
    if (!nearEnd || !column.nextCursor || loading) return;
    setLoading(true);
    void onLoadMore(column).finally(() => setLoading(false));
  }, [nearEnd, column, loading, onLoadMore]);

  return (
    <Stack
      gap={0}
      w={296}
      miw={296}
      h="100%"
      role="region"
      aria-label={t('columnLabel', { name: title, count: column.count })}
      data-column={column.key}
      style={{
        borderRadius: 12,
        background: isOver ? 'var(--mantine-color-blue-light)' : 'var(--mantine-color-default-hover)',
        outline: isOver ? '2px dashed var(--mantine-color-blue-filled)' : '1px solid var(--mantine-color-default-border)',
        transition: 'background 120ms, outline-color 120ms',
      }}
    >
      <Group justify="space-between" px="sm" pt="sm" pb={8} wrap="nowrap">
        <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
          <Box w={10} h={10} style={{ borderRadius: 10, background: accent, flexShrink: 0 }} />
          <Text fw={700} size="sm" truncate="end" title={title}>
            {title}
          </Text>
        </Group>
        <Badge variant="default" radius="sm" size="sm" aria-label={t('cardCount', { count: column.count })}>
          {formatNumber(column.count, i18n.language)}
        </Badge>
      </Group>
      <Box
        ref={(el: HTMLDivElement | null) => {
          scroller.current = el;
          setNodeRef(el);
        }}
        px={8}
        pb={8}
        style={{ flex: 1, overflowY: 'auto', overflowX: 'hidden', position: 'relative' }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      >
        {total === 0 && !column.nextCursor ? (
          <Box
            mt={4}
            p="md"
            style={{ border: '1px dashed var(--mantine-color-default-border)', borderRadius: 10, textAlign: 'center' }}
          >
            <Text size="xs" c="dimmed">
              {t('emptyColumn')}
            </Text>
          </Box>
        ) : (
          <div style={{ position: 'relative', height: total * ROW + (column.nextCursor ? 40 : 0) }}>
            {column.cards.slice(first, last).map((card, i) => (
              <DraggableCard
                key={card.id}
                card={card}
                column={column}
                top={(first + i) * ROW}
                canAssign={canAssign}
                onAssign={onAssign}
                onOpenTicket={onOpenTicket}
                draggingId={draggingId}
              />
            ))}
            {column.nextCursor && (
              <Group justify="center" style={{ position: 'absolute', top: total * ROW + 8, left: 0, right: 0 }}>
                <Loader size="xs" aria-label={t('loadingMore')} />
              </Group>
            )}
          </div>
        )}
      </Box>
    </Stack>
  );
}
