import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, formatDateTime, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { itemInput, type Item } from '@atende/plugin-__ID__/contract';

/** The items noted on a contact, added inline; a new one by anyone appears live. */
export function ContactItems({ contactId }: { contactId: number }) {
  const { t, i18n } = usePluginTranslation('__ID__');
  const qc = useQueryClient();
  const key = ['plugins', '__ID__', 'items', contactId];
  const [text, setText] = useState('');
  const items = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<Item[]>(`/plugins/__ID__/contacts/${contactId}/items`, { signal, background: true }) });
  useRealtime<Item>('__EVENT__.item_created', (item) => {
    if (item.contactId === contactId) void qc.invalidateQueries({ queryKey: key });
  });
  const add = useMutation({
    // The contract's schema trims and checks the text as the server will.
    mutationFn: () => api.post<Item>(`/plugins/__ID__/contacts/${contactId}/items`, itemInput.parse({ text })),
    onSuccess: () => {
      setText('');
      void qc.invalidateQueries({ queryKey: key });
    },
  });
  const valid = itemInput.safeParse({ text }).success;
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
          <TextInput size="xs" style={{ flex: 1 }} placeholder={t('placeholder')} aria-label={t('placeholder')} maxLength={2000} value={text} onChange={(e) => setText(e.currentTarget.value)} />
          <Button size="xs" disabled={!valid} loading={add.isPending} onClick={() => add.mutate()}>{t('add')}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
