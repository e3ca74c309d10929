import { Box, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCalendarTime, IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from './api.ts';
import { splitSignature } from './util.tsx';
import { toZonedWall, useTenantTimeZone } from './zoned.ts';

/** `dd/MM/yyyy HH:mm` on the company's clock. */
const wallText = (iso: string, tz: string) => {
  const [date = '', time = ''] = toZonedWall(iso, tz).split('T');
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y} ${time}`;
};

/**
 * The conversation's messages waiting to be sent (issue U2 #9): the bar says how many and opens to
 * list them, each with its time on the company's clock (as /agendamentos shows it) and its text.
 */
export function ScheduledBar({ messages }: { messages: Message[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const tz = useTenantTimeZone(messages.length > 0);
  if (!messages.length) return null;
  return (
    <Paper radius={0} px="md" py={6} bg="var(--mantine-color-blue-light)" data-testid="scheduled-bar">
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls="scheduled-list" w="100%" data-testid="scheduled-toggle">
        <Group gap={6} wrap="nowrap">
          <IconCalendarTime size={15} aria-hidden />
          <Text size="xs" style={{ flex: 1 }}>{t('tickets.schedule.pendingCount', { n: messages.length })}</Text>
          {open ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
        </Group>
      </UnstyledButton>
      {open && (
        <Stack gap={4} mt={6} id="scheduled-list" mah={180} style={{ overflowY: 'auto' }}>
          {messages.map((m) => (
            <Group key={m.id} gap="xs" wrap="nowrap" align="flex-start" data-testid="scheduled-item">
              <Text size="xs" fw={600} style={{ flexShrink: 0 }}>{m.scheduleDate ? wallText(m.scheduleDate, tz) : ''}</Text>
              <Box style={{ minWidth: 0, flex: 1 }}><Text size="xs" lineClamp={2}>{splitSignature(m.body)?.text ?? m.body}</Text></Box>
            </Group>
          ))}
          <Text size="xs" c="dimmed">{t('tickets.schedule.timeZone', { tz })}</Text>
        </Stack>
      )}
    </Paper>
  );
}
