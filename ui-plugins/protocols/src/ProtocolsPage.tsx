import { ActionIcon, Badge, Button, CopyButton, Group, Paper, Select, Skeleton, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconCopy, IconExternalLink, IconSearch } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { DateInputBR, EmptyState, ErrorBox, PageHeader, formatDateTime, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { listProtocols, listUsers, type ProtocolFilters } from './api.ts';

const STATUS_COLOR: Record<string, string> = { open: 'teal', pending: 'yellow', closed: 'gray', schedule: 'blue' };

/** `/protocolos`: every ticket's protocol with its agent, contact and date; search by number, name or phone. */
export default function ProtocolsPage() {
  const { t, i18n } = usePluginTranslation('protocols');
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), 300);
  const [userId, setUserId] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const filters: ProtocolFilters = { search, userId, status, from, to };
  const badRange = !!from && !!to && from > to;

  const users = useQuery({ queryKey: ['plugins', 'protocols', 'users'], queryFn: listUsers });
  const list = useInfiniteQuery({
    queryKey: ['plugins', 'protocols', 'list', filters],
    queryFn: ({ pageParam, signal }) => listProtocols(filters, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    enabled: !badRange,
  });
  // A new ticket brings a new protocol: the first page follows.
  useRealtime('ticket.created', () => void list.refetch());

  const rows = list.data?.pages.flatMap((p) => p.protocols) ?? [];
  const count = list.data?.pages[0]?.count ?? 0;
  const filtered = !!(search || userId || status || from || to);

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Paper withBorder radius="md" p="sm" mb="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            style={{ flex: 1, minWidth: 260 }}
            label={t('searchLabel')}
            placeholder={t('search')}
            leftSection={<IconSearch size={16} />}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Select w={200} label={t('user')} placeholder={t('allUsers')} clearable searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={userId} onChange={setUserId} />
          <Select
            w={160}
            label={t('status')}
            placeholder={t('allStatuses')}
            clearable
            data={[{ value: 'open', label: t('status_open') }, { value: 'pending', label: t('status_pending') }, { value: 'closed', label: t('status_closed') }]}
            value={status}
            onChange={setStatus}
          />
          <DateInputBR w={150} label={t('from')} value={from} onChange={setFrom} />
          <DateInputBR w={150} label={t('to')} value={to} onChange={setTo} error={badRange ? t('badRange') : undefined} />
        </Group>
      </Paper>
      {list.error ? (
        <ErrorBox title={t('loadError')} onRetry={() => void list.refetch()} />
      ) : (
        <Paper withBorder radius="md">
          <Group justify="space-between" px="md" py="xs">
            <Text size="sm" c="dimmed" aria-live="polite">{list.data ? t('count', { count }) : ' '}</Text>
          </Group>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs" highlightOnHover aria-label={t('title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('protocol')}</Table.Th>
                  <Table.Th>{t('contact')}</Table.Th>
                  <Table.Th>{t('user')}</Table.Th>
                  <Table.Th>{t('status')}</Table.Th>
                  <Table.Th>{t('date')}</Table.Th>
                  <Table.Th w={60} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!list.data &&
                  [0, 1, 2, 3, 4].map((i) => (
                    <Table.Tr key={i}>
                      {[0, 1, 2, 3, 4, 5].map((j) => <Table.Td key={j}><Skeleton h={14} /></Table.Td>)}
                    </Table.Tr>
                  ))}
                {rows.map((p) => (
                  <Table.Tr key={p.ticketId}>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Text ff="monospace" fw={600} size="sm">{p.protocol}</Text>
                        <CopyButton value={p.protocol}>
                          {({ copied, copy }) => (
                            <Tooltip label={copied ? t('copied') : t('copy')}>
                              <ActionIcon size="sm" variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('copy')}>
                                {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                              </ActionIcon>
                            </Tooltip>
                          )}
                        </CopyButton>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>{p.contactName}</Text>
                      {p.contactNumber && <Text size="xs" c="dimmed">{p.contactNumber}</Text>}
                    </Table.Td>
                    <Table.Td><Text size="sm" c={p.userName ? undefined : 'dimmed'}>{p.userName ?? t('noUser')}</Text></Table.Td>
                    <Table.Td><Badge variant="light" radius="sm" color={STATUS_COLOR[p.status] ?? 'gray'}>{t(`status_${p.status}`)}</Badge></Table.Td>
                    <Table.Td><Text size="sm">{formatDateTime(p.createdAt, i18n.language)}</Text></Table.Td>
                    <Table.Td>
                      <Tooltip label={t('openTicket')}>
                        <ActionIcon variant="subtle" aria-label={t('openTicketOf', { protocol: p.protocol })} onClick={() => navigate(`/atendimento/${p.ticketId}`)}>
                          <IconExternalLink size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data && rows.length === 0 && (filtered ? <EmptyState title={t('noResults')} /> : <EmptyState title={t('emptyTitle')} description={t('emptyText')} />)}
          {list.hasNextPage && (
            <Group justify="center" p="sm">
              <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>{t('loadMore')}</Button>
            </Group>
          )}
        </Paper>
      )}
    </>
  );
}
