import { Group, Text } from '@mantine/core';
import { IconClockHour4, IconFlag } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket } from './api.ts';

/** Without a queue SLA, a wait turns amber after this many minutes and red after the next. */
const WARN_MIN = 5;
const LATE_MIN = 15;

/** One shared clock for every row: re-renders its subscribers every 20 s (the texts show whole minutes). */
const listeners = new Set<(n: number) => void>();
let timer: ReturnType<typeof setInterval> | undefined;
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    listeners.add(setNow);
    if (!timer) timer = setInterval(() => { const n = Date.now(); for (const l of listeners) l(n); }, 20_000);
    return () => {
      listeners.delete(setNow);
      if (!listeners.size && timer) { clearInterval(timer); timer = undefined; }
    };
  }, []);
  return now;
}

export type WaitLevel = 'ok' | 'warn' | 'late';
/** Text colours with AA contrast on the list's background in both schemes. */
const COLOUR: Record<WaitLevel, string> = { ok: 'var(--tk-wait-ok)', warn: 'var(--tk-wait-warn)', late: 'var(--tk-wait-late)' };

/** "12 min", "2 h 5 min", "3 d 4 h": a duration as the agent reads it at a glance. */
export function useDuration(): (ms: number) => string {
  const { t } = useTranslation();
  return (ms) => {
    const min = Math.max(0, Math.floor(ms / 60_000));
    if (min < 1) return t('tickets.wait.lessThanMinute');
    if (min < 60) return t('tickets.wait.minutes', { m: min });
    const h = Math.floor(min / 60);
    if (h < 24) return t('tickets.wait.hours', { h, m: min % 60 });
    return t('tickets.wait.days', { d: Math.floor(h / 24), h: h % 24 });
  };
}

export function waitLevel(ticket: Ticket, now: number): WaitLevel {
  const since = new Date(ticket.waitingSince ?? ticket.createdAt ?? ticket.lastMessageAt).getTime();
  const due = ticket.sla?.firstResponseDueAt ? new Date(ticket.sla.firstResponseDueAt).getTime() : undefined;
  if (due !== undefined) {
    if (now >= due) return 'late';
    return (now - since) / Math.max(1, due - since) >= 0.5 ? 'warn' : 'ok';
  }
  const min = (now - since) / 60_000;
  return min >= LATE_MIN ? 'late' : min >= WARN_MIN ? 'warn' : 'ok';
}

/**
 * The row's clock: on a pending ticket how long the customer has waited, coloured
 * by the wait (against the queue's first-response SLA when it has one), and on
 * any active ticket of a queue with an SLA the time left to its next deadline.
 */
export function WaitInfo({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const now = useNow();
  const duration = useDuration();
  const pending = ticket.status === 'pending';
  const active = pending || ticket.status === 'open';
  const first = ticket.sla?.firstResponseDueAt ? new Date(ticket.sla.firstResponseDueAt).getTime() : undefined;
  const resolution = ticket.sla?.resolutionDueAt ? new Date(ticket.sla.resolutionDueAt).getTime() : undefined;
  const due = first ?? resolution;
  if (!active || (!pending && due === undefined)) return null;
  const level = waitLevel(ticket, now);
  const since = new Date(ticket.waitingSince ?? ticket.createdAt ?? ticket.lastMessageAt).getTime();
  const kind = first !== undefined ? 'first' : 'resolution';
  const late = due !== undefined && now >= due;
  const sentence = due === undefined ? '' : late ? t(`tickets.sla.${kind}Late`, { d: duration(now - due) }) : t(`tickets.sla.${kind}Left`, { d: duration(due - now) });
  return (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flexShrink: 0 }} data-testid="wait-info" data-level={level}>
      {pending && (
        <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
          <IconClockHour4 size={12} color={COLOUR[level]} aria-hidden />
          <Text size="10px" fw={600} c={COLOUR[level]} data-testid="wait-since">{t('tickets.wait.since', { d: duration(now - since) })}</Text>
        </Group>
      )}
      {due !== undefined && (
        // Beside the wait (pending rows) the countdown is the flag and the time, the sentence in its label.
        <Group gap={2} wrap="nowrap" style={{ minWidth: 0, flexShrink: pending ? 0 : 1 }} title={sentence} aria-label={sentence} data-testid="sla-countdown" data-late={late || undefined}>
          <IconFlag size={11} color={late ? COLOUR.late : 'var(--mantine-color-dimmed)'} aria-hidden />
          <Text size="10px" fw={late ? 700 : 500} c={late ? COLOUR.late : 'dimmed'} truncate="end" aria-hidden>
            {pending ? (late ? `+${duration(now - due)}` : duration(due - now)) : sentence}
          </Text>
        </Group>
      )}
    </Group>
  );
}
