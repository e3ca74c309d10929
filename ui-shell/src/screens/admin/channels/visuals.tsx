/**
 * How a channel looks everywhere on the channel screens: its type's icon and
 * colour, its status badge, and "updated 3 minutes ago" that keeps ticking.
 */
import { Badge, Box, ThemeIcon, Tooltip } from '@mantine/core';
import {
  IconBrandInstagram, IconBrandMessenger, IconBrandTelegram, IconBrandWhatsapp, IconFlask, IconHierarchy2, IconPlug, type Icon,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@atende/ui-shell/sdk';
import classes from './channels.module.css';

const WHATSAPP = { icon: IconBrandWhatsapp, color: '#25D366' };
const TYPE_LOOK: Record<string, { icon: Icon; color: string }> = {
  waba: { icon: IconBrandWhatsapp, color: '#128C7E' },
  baileys: WHATSAPP,
  whatsapp: WHATSAPP,
  meow: WHATSAPP,
  evo: WHATSAPP,
  telegram: { icon: IconBrandTelegram, color: '#229ED9' },
  instagram: { icon: IconBrandInstagram, color: '#E1306C' },
  messenger: { icon: IconBrandMessenger, color: '#0084FF' },
  hub: { icon: IconHierarchy2, color: '#7c3aed' },
  sandbox: { icon: IconFlask, color: '#f59f00' },
};

export function typeLook(type: string) {
  return TYPE_LOOK[type] ?? { icon: IconPlug, color: '#64748b' };
}

export function ChannelTypeIcon({ type, size = 40 }: { type: string; size?: number }) {
  const look = typeLook(type);
  const I = look.icon;
  return (
    <ThemeIcon size={size} radius="md" variant="light" color={look.color} aria-hidden>
      <I size={Math.round(size * 0.6)} stroke={1.7} />
    </ThemeIcon>
  );
}

export const STATUS_COLOR: Record<string, string> = {
  connected: 'teal',
  qrcode: 'yellow',
  opening: 'blue',
  pairingTimeout: 'orange',
  disconnected: 'red',
};

/** The status badge: colour per status, a pulsing dot while it is on its way somewhere. */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation();
  const color = STATUS_COLOR[status] ?? 'gray';
  const busy = status === 'opening' || status === 'qrcode' || status === 'pairingTimeout';
  return (
    <Badge
      size={size}
      radius="sm"
      variant="light"
      color={color}
      data-testid="channel-status"
      data-status={status}
      leftSection={<Box component="span" className={busy ? classes.pulse : undefined} w={7} h={7} style={{ borderRadius: 7, background: `var(--mantine-color-${color}-6)`, display: 'inline-block' }} />}
      styles={{ root: { textTransform: 'none', fontWeight: 600 } }}
    >
      {t(`channels.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

/** "há 3 minutos", re-rendered every 30 s; the exact time on hover. */
export function RelativeTime({ value }: { value: string | null | undefined }) {
  const { i18n } = useTranslation();
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(id);
  }, []);
  if (!value) return null;
  return (
    <Tooltip label={formatDateTime(value, i18n.language)} withArrow openDelay={300}>
      <span data-testid="channel-updated">{relative(value, i18n.language)}</span>
    </Tooltip>
  );
}

export function relative(value: string, language: string): string {
  const diff = (new Date(value).getTime() - Date.now()) / 1000;
  const rtf = new Intl.RelativeTimeFormat(language || 'pt', { numeric: 'auto' });
  const abs = Math.abs(diff);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(diff / 3600), 'hour');
  if (abs < 30 * 86_400) return rtf.format(Math.round(diff / 86_400), 'day');
  return formatDateTime(value, language);
}
