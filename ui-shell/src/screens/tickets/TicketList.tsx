import { ActionIcon, Badge, Box, Button, Checkbox, Group, Indicator, Kbd, ScrollArea, Skeleton, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconChecks, IconFilterOff, IconMessagePlus, IconSearch, IconUsers, IconX } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useAtomValue } from 'jotai';
import { lazy, memo, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { EmptyState, ErrorBox, errorMessage, notify, sessionAtom } from '@atende/ui-shell/sdk';
import { Menu, Tooltip } from '../../ui/overlays.tsx';
import { listChannels, listQueues, markAllRead, unwrap, type Channel, type Queue, type Ticket, type TicketFilters, type TicketStatus } from './api.ts';
import { ticketListQuery } from './queries.ts';
import { OnFirstOpen } from '../../ui/deferred.tsx';
import { ChannelIcon, ContactAvatar, intlLang, previewText, relativeTime, ticketName } from './util.tsx';
import { WaitInfo } from './WaitInfo.tsx';
import { TeamPresenceButton } from './TeamPresence.tsx';
import classes from './tickets.module.css';

const ROW_HEIGHT = 76;
/** core.md §9: at the end of the list, load more every 3 s. */
const AUTO_LOAD_MS = 3000;

interface Props {
  status: TicketStatus;
  onStatus: (s: TicketStatus) => void;
  filters: TicketFilters;
  onFilters: (f: TicketFilters) => void;
  selectedId: number | undefined;
  onNewTicket: () => void;
}

// Fetched the first time it opens (the list paints first, U1).
const ConfirmDialog = lazy(() => import('../../sdk/components/ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

export function TicketList({ status, onStatus, filters, onFilters, selectedId, onNewTicket }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const canShowAll = session?.profile === 'admin' || session?.profile === 'super' || session?.profile === 'superadmin';
  const [search, setSearch] = useState(filters.searchParam);
  const [debounced] = useDebouncedValue(search, 350);
  const searchRef = useRef<HTMLInputElement>(null);
  const qc = useQueryClient();
  const [marking, setMarking] = useState(false);
  const [confirmMark, setConfirmMark] = useState(false);
  const markAll = async () => {
    setMarking(true);
    try {
      const r = await markAllRead();
      // Said as soon as the server has done it; the lists follow (the server also sends one update per
      // ticket, and refetching brings the tab counts along at once) without holding the answer back.
      notify.success(r?.marked ? t('tickets.markAllRead.done', { n: r.marked }) : t('tickets.markAllRead.none'));
      void qc.invalidateQueries({ queryKey: ['tickets', 'list'] });
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setMarking(false);
    }
  };

  useEffect(() => {
    if (debounced !== filters.searchParam) onFilters({ ...filters, searchParam: debounced });
  }, [debounced]);

  const query = useInfiniteQuery(ticketListQuery(status, filters));
  const tickets = useMemo(() => query.data?.pages.flatMap((p) => p.tickets) ?? [], [query.data]);
  const counts = query.data?.pages[0]?.counts;

  const queues = useQuery({ queryKey: ['tickets', 'queues'], queryFn: listQueues, staleTime: 300_000 });
  const channels = useQuery({ queryKey: ['tickets', 'channels'], queryFn: listChannels, staleTime: 300_000 });
  const queueList = unwrap<Queue>(queues.data, 'queues');
  const channelList = unwrap<Channel>(channels.data, 'channels');

  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: tickets.length + (query.hasNextPage ? 1 : 0), getScrollElement: () => parentRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? -1;
  const atEnd = query.hasNextPage && lastIndex >= tickets.length - 1;

  useEffect(() => {
    if (!atEnd) return;
    if (!query.isFetchingNextPage) void query.fetchNextPage();
    const timer = setInterval(() => {
      if (!query.isFetchingNextPage) void query.fetchNextPage();
    }, AUTO_LOAD_MS);
    return () => clearInterval(timer);
  }, [atEnd, query.isFetchingNextPage]);

  // Keyboard habits (docs/ui.md): Alt+↑/↓ moves between tickets, Ctrl+K searches.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
        return;
      }
      if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        if (!tickets.length) return;
        e.preventDefault();
        const idx = tickets.findIndex((x) => x.id === selectedId);
        const next = e.key === 'ArrowDown' ? Math.min(tickets.length - 1, idx + 1) : Math.max(0, idx < 0 ? 0 : idx - 1);
        const target = tickets[next];
        if (target && target.id !== selectedId) {
          virtualizer.scrollToIndex(next, { align: 'auto' });
          navigate(`/atendimento/${target.id}`);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [tickets, selectedId, navigate, virtualizer]);

  const activeFilters = filters.queuesIds.length + filters.whatsappIds.length + (filters.withUnreadMessages ? 1 : 0) + (filters.isNotAssignedUser ? 1 : 0) + (filters.showAll ? 1 : 0);
  const toggleId = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const closedLabel = counts ? (counts.closedCapped || counts.closed > 1000 ? '1000+' : String(counts.closed)) : undefined;
  const tabs: Array<{ key: TicketStatus; label: string; count?: string | number; unread?: number }> = [
    { key: 'open', label: t('tickets.tabs.open'), count: counts?.open, unread: query.data?.pages[0]?.unread?.open },
    { key: 'pending', label: t('tickets.tabs.pending'), count: counts?.pending, unread: query.data?.pages[0]?.unread?.pending },
    { key: 'closed', label: t('tickets.tabs.closed'), count: closedLabel },
  ];
  const yesterday = t('tickets.time.yesterday');
  const lng = intlLang(i18n.language);

  return (
    <Stack gap={0} h="100%" className={classes.listPane} data-testid="ticket-list">
      <Group justify="space-between" px="md" pt="sm" pb={6} wrap="nowrap">
        <Text fw={700} size="lg">{t('tickets.title')}</Text>
        <Group gap={4} wrap="nowrap">
          <Menu position="bottom-end" width={280} closeOnItemClick={false} shadow="md">
            <Menu.Target>
              <Tooltip label={t('tickets.filters.title')}>
                <Indicator disabled={!activeFilters} label={activeFilters} size={16} offset={4}>
                  <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('tickets.filters.title')}><IconAdjustmentsHorizontal size={20} /></ActionIcon>
                </Indicator>
              </Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              <ScrollArea.Autosize mah={420}>
                <Menu.Label>{t('tickets.filters.show')}</Menu.Label>
                <Stack gap={8} px="sm" py={4}>
                  <Checkbox size="xs" label={t('tickets.filters.unread')} checked={filters.withUnreadMessages} onChange={(e) => onFilters({ ...filters, withUnreadMessages: e.currentTarget.checked })} />
                  <Checkbox size="xs" label={t('tickets.filters.notAssigned')} checked={filters.isNotAssignedUser} onChange={(e) => onFilters({ ...filters, isNotAssignedUser: e.currentTarget.checked })} />
                  {canShowAll && <Checkbox size="xs" label={t('tickets.filters.showAll')} checked={filters.showAll} onChange={(e) => onFilters({ ...filters, showAll: e.currentTarget.checked })} />}
                </Stack>
                {queueList.length > 0 && <Menu.Divider />}
                {queueList.length > 0 && <Menu.Label>{t('tickets.filters.queues')}</Menu.Label>}
                <Stack gap={8} px="sm" py={4}>
                  {queueList.map((q) => (
                    <Checkbox key={q.id} size="xs" color={q.color ?? undefined} label={q.name} checked={filters.queuesIds.includes(q.id)} onChange={() => onFilters({ ...filters, queuesIds: toggleId(filters.queuesIds, q.id) })} />
                  ))}
                </Stack>
                {channelList.length > 0 && <Menu.Divider />}
                {channelList.length > 0 && <Menu.Label>{t('tickets.filters.channels')}</Menu.Label>}
                <Stack gap={8} px="sm" py={4}>
                  {channelList.map((c) => (
                    <Checkbox key={c.id} size="xs" label={<Group gap={6} wrap="nowrap"><ChannelIcon type={c.type} size={13} />{c.name}</Group>} checked={filters.whatsappIds.includes(c.id)} onChange={() => onFilters({ ...filters, whatsappIds: toggleId(filters.whatsappIds, c.id) })} />
                  ))}
                </Stack>
                {activeFilters > 0 && (
                  <>
                    <Menu.Divider />
                    <Menu.Item leftSection={<IconFilterOff size={14} />} onClick={() => onFilters({ ...filters, queuesIds: [], whatsappIds: [], withUnreadMessages: false, isNotAssignedUser: false, showAll: false })}>
                      {t('tickets.filters.clear')}
                    </Menu.Item>
                  </>
                )}
              </ScrollArea.Autosize>
            </Menu.Dropdown>
          </Menu>
          <Tooltip label={t('tickets.markAllRead.action')}>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('tickets.markAllRead.action')} onClick={() => setConfirmMark(true)} loading={marking} data-testid="mark-all-read"><IconChecks size={20} /></ActionIcon>
          </Tooltip>
          {canShowAll && <TeamPresenceButton />}
          {/* Asked first: it clears every badge the user can see, in every queue, and cannot be undone. */}
          <OnFirstOpen opened={confirmMark}>
            {(opened) => (
              <Suspense fallback={null}>
                <ConfirmDialog
                  opened={opened}
                  danger={false}
                  title={t('tickets.markAllRead.action')}
                  message={t('tickets.markAllRead.confirm', { count: (query.data?.pages[0]?.unread?.open ?? 0) + (query.data?.pages[0]?.unread?.pending ?? 0) })}
                  confirmLabel={t('tickets.markAllRead.confirmButton')}
                  onClose={() => setConfirmMark(false)}
                  onConfirm={async () => { await markAll(); setConfirmMark(false); }}
                />
              </Suspense>
            )}
          </OnFirstOpen>
          <Tooltip label={t('tickets.contactsMode')}>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('tickets.contactsMode')} onClick={() => navigate('/atendimento/contatos')}><IconUsers size={20} /></ActionIcon>
          </Tooltip>
          <Tooltip label={t('tickets.newTicket.title')}>
            <ActionIcon variant="filled" size="lg" aria-label={t('tickets.newTicket.title')} onClick={onNewTicket} data-testid="new-ticket"><IconMessagePlus size={18} /></ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Box px="md" pb={8}>
        <TextInput
          ref={searchRef}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          placeholder={t('tickets.searchPlaceholder')}
          aria-label={t('tickets.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          rightSectionWidth={search ? 32 : 52}
          rightSection={search ? <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('tickets.clearSearch')} onClick={() => setSearch('')}><IconX size={14} /></ActionIcon> : <Kbd size="xs">Ctrl K</Kbd>}
          radius="xl"
          variant="filled"
        />
      </Box>
      <Group gap={0} className={classes.tabs} role="tablist" wrap="nowrap">
        {tabs.map((tab) => (
          <UnstyledButton key={tab.key} role="tab" aria-selected={status === tab.key} data-active={status === tab.key || undefined} className={classes.tab} onClick={() => onStatus(tab.key)} data-testid={`tab-${tab.key}`}>
            <Text span size="sm" fw={600}>{tab.label}</Text>
            {tab.count !== undefined && (
              <Badge size="sm" variant={status === tab.key ? 'filled' : 'light'} color={tab.unread ? 'green' : status === tab.key ? undefined : 'gray'} ml={6} data-testid={`count-${tab.key}`}>{tab.count}</Badge>
            )}
          </UnstyledButton>
        ))}
      </Group>
      <Box ref={parentRef} className={classes.listScroll} data-testid="ticket-scroll">
        {query.isPending ? (
          <Stack gap={0}>{Array.from({ length: 8 }, (_, i) => <RowSkeleton key={i} />)}</Stack>
        ) : query.isError ? (
          <ErrorBox title={t('tickets.loadFailed')} onRetry={() => void query.refetch()} />
        ) : !tickets.length ? (
          <EmptyState
            title={filters.searchParam || activeFilters ? t('tickets.empty.filtered') : t(`tickets.empty.${status}`)}
            description={filters.searchParam || activeFilters ? t('tickets.empty.filteredHint') : t('tickets.empty.hint')}
            action={status !== 'closed' && !filters.searchParam ? <Button variant="light" size="xs" leftSection={<IconMessagePlus size={14} />} onClick={onNewTicket}>{t('tickets.newTicket.title')}</Button> : undefined}
          />
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const ticket = tickets[item.index];
              return (
                <div key={ticket?.id ?? 'loader'} style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: item.size, transform: `translateY(${item.start}px)` }}>
                  {ticket ? <TicketRow ticket={ticket} selected={ticket.id === selectedId} lng={lng} yesterday={yesterday} onOpen={() => navigate(`/atendimento/${ticket.id}`)} /> : <RowSkeleton />}
                </div>
              );
            })}
          </div>
        )}
      </Box>
    </Stack>
  );
}

function RowSkeleton() {
  return (
    <Group px="md" h={ROW_HEIGHT} wrap="nowrap" gap="sm">
      <Skeleton circle height={44} />
      <Stack gap={8} style={{ flex: 1 }}>
        <Skeleton height={10} width="55%" />
        <Skeleton height={8} width="85%" />
      </Stack>
    </Group>
  );
}

const TicketRow = memo(function TicketRow({ ticket, selected, lng, yesterday, onOpen }: { ticket: Ticket; selected: boolean; lng: string; yesterday: string; onOpen: () => void }) {
  const { t } = useTranslation();
  const name = ticketName(ticket);
  const unread = ticket.unreadMessages > 0;
  return (
    <UnstyledButton
      className={classes.row}
      data-selected={selected || undefined}
      onClick={onOpen}
      aria-current={selected ? 'true' : undefined}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      style={{ ['--queue-color' as string]: ticket.queue?.color ?? 'transparent' }}
    >
      <Box pos="relative">
        <ContactAvatar name={name} src={ticket.contact?.profilePicUrl} seed={ticket.contactId} size={46} />
        <Box className={classes.channelBadge}><ChannelIcon type={ticket.channel} size={12} /></Box>
      </Box>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" wrap="nowrap" gap={6}>
          <Text size="sm" fw={unread ? 700 : 600} truncate="end" className={classes.rowName}>{name}</Text>
          <Text size="xs" c={unread ? 'var(--tk-unread)' : 'dimmed'} fw={unread ? 600 : 400} style={{ flexShrink: 0 }}>{relativeTime(ticket.lastMessageAt, lng, yesterday)}</Text>
        </Group>
        <Group justify="space-between" wrap="nowrap" gap={6}>
          <Text size="xs" c={unread ? undefined : 'dimmed'} truncate="end" style={{ flex: 1, minWidth: 0 }}>{previewText(ticket.lastMessage) || '\u00a0'}</Text>
          {unread && <Badge size="sm" circle={ticket.unreadMessages < 10} color="green" variant="filled" data-testid="unread-badge">{ticket.unreadMessages > 99 ? '99+' : ticket.unreadMessages}</Badge>}
        </Group>
        <Group gap={6} wrap="nowrap" mt={1}>
          {ticket.queue && (
            <Badge size="xs" variant="light" color={ticket.queue.color ?? 'gray'} leftSection={<span className={classes.dot} style={{ background: ticket.queue.color ?? 'gray' }} />} radius="sm" tt="none">
              {ticket.queue.name}
            </Badge>
          )}
          {ticket.username && ticket.status !== 'pending' && <Text size="10px" c="dimmed" truncate="end">{ticket.username}</Text>}
          {!ticket.queue && !ticket.username && ticket.status !== 'pending' && <Text size="10px" c="dimmed">{t('tickets.noQueue')}</Text>}
          <WaitInfo ticket={ticket} />
        </Group>
      </Stack>
    </UnstyledButton>
  );
});
