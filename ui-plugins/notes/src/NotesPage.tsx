import { ActionIcon, Avatar, Badge, Box, Button, Group, Mark, Modal, Paper, Select, Skeleton, Stack, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconExternalLink, IconNotes, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Fragment, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog, DateInputBR, EmptyState, ErrorBox, PageHeader, formatDateTime, notify, sessionAtom, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { noteForm, type NoteFormValues } from '@atende/plugin-notes/contract';
import { addNote, findTickets, listNotes, listUsers, notesKey, removeNote, type Note, type NoteFilters } from './api.ts';

const MAX_NOTE = 4000;

/** Marks the searched words in a note, as a person scanning results expects. */
function highlight(text: string, term: string): ReactNode {
  if (!term) return text;
  const parts = text.split(new RegExp(`(${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi'));
  return parts.map((p, i) => (i % 2 ? <Mark key={i}>{p}</Mark> : <Fragment key={i}>{p}</Fragment>));
}

const initials = (name: string) => name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('');

/** `/notas`: the internal notes of every ticket, by ticket and author, newest first, searchable. */
export default function NotesPage() {
  const { t, i18n } = usePluginTranslation('notes');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useAtomValue(sessionAtom);
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), 300);
  const [userId, setUserId] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Note | null>(null);
  const filters: NoteFilters = { search, userId, from, to };
  const badRange = !!from && !!to && from > to;

  const users = useQuery({ queryKey: ['plugins', 'notes', 'users'], queryFn: listUsers });
  const list = useInfiniteQuery({
    queryKey: [...notesKey, filters],
    queryFn: ({ pageParam, signal }) => listNotes(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    enabled: !badRange,
  });
  // Notes written in the ticket screen arrive as message events.
  useRealtime<{ message?: { isNote?: boolean } }>('message.created', (d) => d?.message?.isNote && void queryClient.invalidateQueries({ queryKey: notesKey }));

  const remove = useMutation({
    mutationFn: (n: Note) => removeNote(n.id),
    onSuccess: () => {
      notify.success(t('deleted'));
      void queryClient.invalidateQueries({ queryKey: notesKey });
    },
  });

  const rows = list.data?.pages.flatMap((p) => p.notes) ?? [];
  const count = list.data?.pages[0]?.count ?? 0;
  const filtered = !!(search || userId || from || to);
  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>{t('new')}</Button>;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={newButton} />
      <Paper withBorder radius="md" p="sm" mb="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput style={{ flex: 1, minWidth: 260 }} label={t('searchLabel')} placeholder={t('search')} leftSection={<IconSearch size={16} />} value={text} onChange={(e) => setText(e.currentTarget.value)} />
          <Select w={220} label={t('author')} placeholder={t('allUsers')} clearable searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={userId} onChange={setUserId} />
          <DateInputBR w={150} label={t('from')} value={from} onChange={setFrom} />
          <DateInputBR w={150} label={t('to')} value={to} onChange={setTo} error={badRange ? t('badRange') : undefined} />
        </Group>
      </Paper>
      {list.error ? (
        <ErrorBox title={t('loadError')} onRetry={() => void list.refetch()} />
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed" aria-live="polite">{list.data ? t('count', { count }) : ' '}</Text>
          {!list.data && [0, 1, 2].map((i) => <Skeleton key={i} h={92} radius="md" />)}
          {rows.map((n) => (
            <Paper key={n.id} withBorder radius="md" p="sm" role="article" aria-label={t('noteOf', { name: n.contactName })} style={{ borderLeft: '3px solid var(--mantine-color-yellow-5)' }}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0, flex: 1 }}>
                  <Avatar radius="xl" size={32} color="yellow">{n.userName ? initials(n.userName) : <IconNotes size={16} />}</Avatar>
                  <Box style={{ minWidth: 0, flex: 1 }}>
                    <Group gap={6} wrap="wrap">
                      <Text size="sm" fw={600}>{n.userName ?? t('unknownUser')}</Text>
                      <Text size="xs" c="dimmed">{formatDateTime(n.createdAt, i18n.language)}</Text>
                      {n.edited && <Badge size="xs" variant="light" color="gray">{t('edited')}</Badge>}
                    </Group>
                    <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{highlight(n.body, search)}</Text>
                    <Group gap={6} mt={6}>
                      <Badge size="sm" variant="outline" radius="sm" color="gray" style={{ textTransform: 'none' }}>{n.contactName}</Badge>
                      {n.protocol && <Text size="xs" c="dimmed" ff="monospace">{t('protocolN', { protocol: n.protocol })}</Text>}
                    </Group>
                  </Box>
                </Group>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('openTicket')}>
                    <ActionIcon variant="subtle" aria-label={t('openTicket')} onClick={() => navigate(`/atendimento/${n.ticketId}`)}><IconExternalLink size={16} /></ActionIcon>
                  </Tooltip>
                  {n.userId === session?.userId && (
                    <Tooltip label={t('common.delete')}>
                      <ActionIcon variant="subtle" color="red" aria-label={t('deleteNote')} onClick={() => setDeleting(n)}><IconTrash size={16} /></ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              </Group>
            </Paper>
          ))}
          {list.data && rows.length === 0 && (filtered ? <EmptyState title={t('noResults')} /> : <EmptyState title={t('emptyTitle')} description={t('emptyText')} action={newButton} />)}
          {list.hasNextPage && (
            <Group justify="center" p="sm">
              <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>{t('loadMore')}</Button>
            </Group>
          )}
        </Stack>
      )}
      {adding && <NewNoteModal onClose={() => setAdding(false)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('deleteTitle')}
        message={t('deleteText')}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/** Writes a note on a ticket found by protocol, contact name or number. */
function NewNoteModal({ onClose }: { onClose: () => void }) {
  const { t } = usePluginTranslation('notes');
  const queryClient = useQueryClient();
  const [ticketSearch, setTicketSearch] = useState('');
  const [term] = useDebouncedValue(ticketSearch, 250);
  // Validated by the contract's rules for a note (a ticket and some text).
  const form = useForm<NoteFormValues>({ initialValues: { ticketId: null, body: '' }, validate: schemaResolver(noteForm, { sync: true }) });
  const tickets = useQuery({ queryKey: ['plugins', 'notes', 'tickets', term], queryFn: () => findTickets(term) });
  const save = useMutation({
    mutationFn: (values: NoteFormValues) => {
      const v = noteForm.parse(values);
      return addNote(Number(v.ticketId), v.body);
    },
    onSuccess: () => {
      notify.success(t('created'));
      void queryClient.invalidateQueries({ queryKey: notesKey });
      onClose();
    },
  });
  // The schema's messages are Portuguese; the screen shows its own translated texts for the two rules users meet.
  const ticketError = form.errors.ticketId ? t('ticketRequired') : undefined;
  const bodyError = form.errors.body ? (form.values.body.trim() ? String(form.errors.body) : t('textRequired')) : undefined;
  return (
    <Modal opened onClose={onClose} title={t('new')} centered size="lg">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Select
            label={t('ticket')}
            placeholder={t('ticketPlaceholder')}
            withAsterisk
            searchable
            searchValue={ticketSearch}
            onSearchChange={setTicketSearch}
            filter={({ options }) => options}
            data={(tickets.data ?? []).map((x) => ({ value: String(x.id), label: `${x.protocol ?? `#${x.id}`} · ${x.contactName}${x.contactNumber ? ` (${x.contactNumber})` : ''}` }))}
            {...form.getInputProps('ticketId')}
            nothingFoundMessage={t('noTickets')}
            error={ticketError}
            comboboxProps={{ withinPortal: true }}
          />
          <Textarea label={t('text')} withAsterisk autosize minRows={4} maxRows={10} maxLength={MAX_NOTE} {...form.getInputProps('body')} error={bodyError} description={t('privateHint')} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>{t('common.cancel')}</Button>
            <Button type="submit" loading={save.isPending}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
