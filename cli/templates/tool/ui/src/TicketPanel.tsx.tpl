import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, formatDateTime, usePluginTranslation, useRealtime, type WidgetZoneProps } from '@atende/ui-shell/sdk';

interface Item {
  id: number;
  ticketId: number;
  text: string;
  createdAt: string;
}

/** The ticket's items, added inline; a new one by anyone appears live. */
export function TicketPanel({ ticketId }: WidgetZoneProps['ticket.sidebar']) {
  const { t, i18n } = usePluginTranslation('__ID__');
  const qc = useQueryClient();
  const key = ['__ID__', 'items', ticketId];
  const [text, setText] = useState('');
  const items = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<Item[]>(`/plugins/__ID__/tickets/${ticketId}/items`, { signal, background: true }) });
  useRealtime<Item>('__EVENT__.created', (item) => {
    if (item?.ticketId === ticketId) void qc.invalidateQueries({ queryKey: key });
  });
  const add = useMutation({
    mutationFn: () => api.post<Item>(`/plugins/__ID__/tickets/${ticketId}/items`, { text: text.trim() }),
    onSuccess: () => {
      setText('');
      void qc.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <Paper withBorder radius="md" p="sm">
      <Text fw={600} size="sm" mb={6}>{t('title')}</Text>
      <Stack gap={6}>
        {(items.data ?? []).length === 0 && <Text size="xs" c="dimmed">{t('empty')}</Text>}
        {(items.data ?? []).map((i) => (
          <div key={i.id}>
            <Text size="sm">{i.text}</Text>
            <Text size="xs" c="dimmed">{formatDateTime(i.createdAt, i18n.language)}</Text>
          </div>
        ))}
        <Group gap={6} wrap="nowrap">
          <TextInput size="xs" style={{ flex: 1 }} placeholder={t('placeholder')} value={text} onChange={(e) => setText(e.currentTarget.value)} />
          <Button size="xs" disabled={!text.trim()} loading={add.isPending} onClick={() => add.mutate()}>{t('add')}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
