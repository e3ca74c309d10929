import { Button, Group, Text } from '@mantine/core';
import { IconClockExclamation, IconClockHour4 } from '@tabler/icons-react';
import { usePluginTranslation, type ComposerExtensionProps } from '@atende/ui-shell/sdk';
import { pickerStore, useNow, windowState } from './window.ts';

/** Within the last hour of the window the agent is told when it closes. */
const CLOSING_SOON_MS = 60 * 60 * 1000;

/**
 * Above the composer on WABA tickets: says when WhatsApp's 24-hour window is
 * closed (the customer's last message is older, or they never wrote) — free
 * text would not be delivered — and offers the template picker; in the
 * window's last hour, says when it closes. Nothing otherwise.
 */
export default function WindowNotice({ ticket, lastCustomerMessageAt }: ComposerExtensionProps) {
  const { t, i18n } = usePluginTranslation('channel-waba');
  const now = useNow();
  const w = windowState(lastCustomerMessageAt, now);
  if (w.state === 'unknown') return null;
  if (w.state === 'open') {
    if (w.closesAt - now > CLOSING_SOON_MS) return null;
    const time = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(w.closesAt);
    return (
      <Group gap={6} px={6} pb={6} wrap="nowrap" data-testid="waba-window-closing">
        <IconClockHour4 size={15} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} />
        <Text size="xs" c="dimmed">{t('windowClosingAt', { time })}</Text>
      </Group>
    );
  }
  const ago = w.state === 'closed' ? relative(w.lastAt, now, i18n.language) : '';
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      justify="space-between"
      mb={6}
      px="sm"
      py={8}
      data-testid="waba-window-closed"
      style={{ borderRadius: 'var(--mantine-radius-md)', background: 'var(--mantine-color-orange-light)', border: '1px solid color-mix(in srgb, var(--mantine-color-orange-6) 25%, transparent)' }}
    >
      <Group gap={10} wrap="nowrap" style={{ minWidth: 0 }}>
        <IconClockExclamation size={20} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} />
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={600}>{t('windowClosedTitle')}</Text>
          <Text size="xs" c="dimmed">{w.state === 'never' ? t('windowNever') : t('windowClosed', { ago })}</Text>
        </div>
      </Group>
      <Button size="xs" color="orange" variant="filled" style={{ flexShrink: 0 }} onClick={() => pickerStore.open(ticket.id)} data-testid="waba-window-pick">
        {t('windowPick')}
      </Button>
    </Group>
  );
}

/** "3 days ago" in the agent's language. */
function relative(at: number, now: number, lng: string): string {
  const rtf = new Intl.RelativeTimeFormat(lng, { numeric: 'auto' });
  const hours = Math.round((now - at) / 3_600_000);
  return hours < 48 ? rtf.format(-hours, 'hour') : rtf.format(-Math.round(hours / 24), 'day');
}
