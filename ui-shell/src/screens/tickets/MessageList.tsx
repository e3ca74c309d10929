import { ActionIcon, Box, Center, Loader } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from './api.ts';
import { MessageBubble } from './MessageBubble.tsx';
import { dayKey, dayLabel } from './util.tsx';
import { SystemLine } from './SystemLine.tsx';
import classes from './tickets.module.css';

type Row = { kind: 'day'; key: string; label: string } | { kind: 'msg'; key: string; m: Message; first: boolean };

interface Props {
  messages: Message[];
  lng: string;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  readOnly: boolean;
  selecting: boolean;
  selectedIds: Set<string>;
  handlers: Pick<Parameters<typeof MessageBubble>[0], 'onToggleSelect' | 'onReply' | 'onEdit' | 'onDelete' | 'onReact' | 'onForward' | 'onRetry' | 'onZoom'>;
  /** Set by the search drawer: scroll to and flash this message. */
  focusId?: string;
}

/** The conversation: virtualised, day separators, pinned to the bottom unless the agent scrolled up. */
export function MessageList({ messages, lng, hasOlder, loadingOlder, onLoadOlder, readOnly, selecting, selectedIds, handlers, focusId }: Props) {
  const { t } = useTranslation();
  const today = t('tickets.time.today');
  const yesterday = t('tickets.time.yesterday');
  const rows = useMemo(() => {
    const out: Row[] = [];
    let lastDay = '';
    let prev: Message | undefined;
    for (const m of messages) {
      const when = m.timestamp ?? m.createdAt;
      const dk = dayKey(when);
      if (dk !== lastDay) {
        out.push({ kind: 'day', key: `day-${dk}`, label: dayLabel(when, lng, today, yesterday) });
        lastDay = dk;
        prev = undefined;
      }
      out.push({ kind: 'msg', key: m.id, m, first: !prev || prev.fromMe !== m.fromMe || prev.isNote !== m.isNote });
      prev = m;
    }
    return out;
  }, [messages, lng, today, yesterday]);
  const byId = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [showJump, setShowJump] = useState(false);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'day' ? 40 : 56),
    getItemKey: (i) => rows[i]!.key,
    overscan: 10,
    paddingStart: 8,
    paddingEnd: 12,
  });

  // Older page prepended: keep the same message under the agent's eyes.
  const firstKey = rows[0]?.key;
  const lastKey = rows[rows.length - 1]?.key;
  const prevFirst = useRef<string | undefined>(undefined);
  const prevSize = useRef(0);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const size = virtualizer.getTotalSize();
    if (el && prevFirst.current && firstKey !== prevFirst.current && !atBottom.current) {
      el.scrollTop += size - prevSize.current;
    }
    prevFirst.current = firstKey;
    prevSize.current = size;
  }, [firstKey]);

  // New message at the end: follow it when the agent was at the bottom (or sent it).
  useEffect(() => {
    if (!rows.length) return;
    const last = rows[rows.length - 1];
    const mineLocal = last?.kind === 'msg' && !!last.m.local;
    if (atBottom.current || mineLocal) {
      const go = () => virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
      go();
      requestAnimationFrame(() => {
        go();
        setTimeout(go, 60);
      });
    }
  }, [lastKey, rows.length === 0]);

  useEffect(() => {
    if (!focusId) return;
    const idx = rows.findIndex((r) => r.key === focusId);
    if (idx >= 0) {
      atBottom.current = false;
      virtualizer.scrollToIndex(idx, { align: 'center' });
      setTimeout(() => {
        const el = scrollRef.current?.querySelector(`[data-message-id="${CSS.escape(focusId)}"]`);
        el?.animate?.([{ outline: '3px solid var(--mantine-color-yellow-5)' }, { outline: '3px solid transparent' }], { duration: 1600 });
      }, 120);
    }
  }, [focusId]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    atBottom.current = bottom;
    setShowJump(!bottom);
    if (el.scrollTop < 150 && hasOlder && !loadingOlder) onLoadOlder();
  };

  const jumpTo = (id: string) => {
    const idx = rows.findIndex((r) => r.key === id);
    if (idx >= 0) virtualizer.scrollToIndex(idx, { align: 'center' });
  };

  return (
    <Box className={classes.wall} ref={scrollRef} onScroll={onScroll} data-testid="message-list">
      {loadingOlder && <Center py="xs" style={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 2 }}><Loader size="sm" /></Center>}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}>
              {row.kind === 'day' ? (
                <div className={classes.day}><span className={classes.dayPill}>{row.label}</span></div>
              ) : row.m.system ? (
                <SystemLine m={row.m} lng={lng} />
              ) : (
                <MessageBubble
                  m={row.m}
                  first={row.first}
                  lng={lng}
                  quoted={row.m.quotedMsgId ? (byId.get(row.m.quotedMsgId) ?? (row.m.quotedMsg as Message | undefined)) : undefined}
                  readOnly={readOnly}
                  selecting={selecting}
                  selected={selectedIds.has(row.m.id)}
                  onJump={jumpTo}
                  {...handlers}
                />
              )}
            </div>
          );
        })}
      </div>
      {showJump && (
        <ActionIcon
          className={classes.toBottom}
          style={{ position: 'sticky', float: 'right', bottom: 16, marginRight: 18, marginTop: -52 }}
          radius="xl"
          size="xl"
          variant="default"
          aria-label={t('tickets.msg.toBottom')}
          onClick={() => {
            atBottom.current = true;
            virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
          }}
        >
          <IconChevronDown size={20} />
        </ActionIcon>
      )}
    </Box>
  );
}
