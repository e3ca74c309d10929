import { Group, Loader, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePhoneFormat } from '@atende/ui-shell/sdk';
import { searchContacts, unwrap, type Contact } from './api.ts';
import { ContactAvatar } from './util.tsx';

/** Contact search of the forward and new-ticket dialogs: at least two letters (core.md §5). */
export function ContactPicker({ selected, onSelect }: { selected: Contact | null; onSelect: (c: Contact) => void }) {
  const { t } = useTranslation();
  const phone = usePhoneFormat();
  const [term, setTerm] = useState('');
  const [debounced] = useDebouncedValue(term.trim(), 300);
  const enough = debounced.length >= 2;
  const q = useQuery({ queryKey: ['tickets', 'contact-search', debounced], queryFn: ({ signal }) => searchContacts(debounced, signal), enabled: enough, staleTime: 30_000 });
  const list = unwrap<Contact>(q.data, 'contacts');
  return (
    <Stack gap="xs">
      <TextInput
        data-autofocus
        label={t('tickets.contactPicker.label')}
        placeholder={t('tickets.contactPicker.placeholder')}
        leftSection={<IconSearch size={16} />}
        rightSection={q.isFetching ? <Loader size={14} /> : null}
        value={term}
        onChange={(e) => setTerm(e.currentTarget.value)}
        description={term.trim().length > 0 && term.trim().length < 2 ? t('tickets.contactPicker.min') : undefined}
        data-testid="contact-search"
      />
      <ScrollArea.Autosize mah={260}>
        {enough && !q.isFetching && !list.length && <Text size="sm" c="dimmed" py="sm" ta="center">{t('tickets.contactPicker.none')}</Text>}
        {list.map((c) => (
          <UnstyledButton
            key={c.id}
            w="100%"
            p={8}
            style={{ borderRadius: 8, background: selected?.id === c.id ? 'var(--mantine-primary-color-light)' : undefined }}
            onClick={() => onSelect(c)}
            data-testid="contact-option"
          >
            <Group gap="sm" wrap="nowrap">
              <ContactAvatar name={c.name} src={c.profilePicUrl} seed={c.id} size={36} />
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate="end">{c.name}</Text>
                <Text size="xs" c="dimmed">{phone(c.number)}</Text>
              </div>
            </Group>
          </UnstyledButton>
        ))}
      </ScrollArea.Autosize>
    </Stack>
  );
}
