import { Box, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Message } from './api.ts';
import { timeOf } from './util.tsx';

/** A line the system wrote in the conversation ("Transferido de Atendimento para Financeiro por Ana"), centred like the day pills, with the sender's note. */
export function SystemLine({ m, lng }: { m: Message; lng: string }) {
  const { t } = useTranslation();
  const s = m.system;
  if (!s) return null;
  const side = (x: { queue: string | null; user: string | null }) => (x.queue && x.user ? t('tickets.transferLine.queueUser', { queue: x.queue, user: x.user }) : x.queue ?? x.user ?? t('tickets.noQueue'));
  const text = s.by ? t('tickets.transferLine.textBy', { from: side(s.from), to: side(s.to), by: s.by }) : t('tickets.transferLine.text', { from: side(s.from), to: side(s.to) });
  return (
    <Box role="note" data-testid="system-line" style={{ display: 'flex', justifyContent: 'center', padding: '6px 16px' }}>
      <Box style={{ maxWidth: 520, background: 'var(--mantine-color-body)', border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, padding: '6px 12px', textAlign: 'center' }}>
        <Text size="xs" fw={600} c="var(--tk-28)" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
          <IconArrowsExchange size={13} aria-hidden />
          <span data-testid="system-line-text">{text}</span>
          <span style={{ fontWeight: 400, whiteSpace: 'nowrap' }}>{timeOf(m.createdAt, lng)}</span>
        </Text>
        {s.note && <Text size="sm" mt={2} data-testid="system-line-note" style={{ whiteSpace: 'pre-wrap' }}>{t('tickets.transferLine.note', { note: s.note })}</Text>}
      </Box>
    </Box>
  );
}
