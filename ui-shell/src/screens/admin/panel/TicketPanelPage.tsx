import { Affix, Alert, Badge, Button, Checkbox, Group, Modal, MultiSelect, Paper, Progress, Select, Stack, Text, Transition } from '@mantine/core';
import { IconArrowsExchange, IconCircleCheck, IconInbox } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ConfirmDialog, DataTable, EmptyState, PageHeader, api, formatDateTime, notify, useDataTableState, useRealtime, type DataTableColumn } from '@atende/ui-shell/sdk';
import { ColorName, useQueues, useUsersLite } from '../shared.tsx';

interface Ticket {
  id: number; status: 'open' | 'pending' | 'closed' | 'schedule'; unreadMessages: number; lastMessage: string | null; lastMessageAt: string | null;
  protocol: string | null; channel: string | null; contact?: { id: number; name: string; number: string | null };
  queue: { id: number; name: string | null; color: string | null } | null; user: { id: number; name: string | null } | null;
}
interface TicketPage { tickets: Ticket[]; count: number; counts: { open: number; pending: number; closed: number } }
interface BulkResult { failed: { id: number; error: string }[] }
/** `tickets.bulk_progress` from the server after each block of 10 tickets. */
interface BulkProgress { action: 'resolve' | 'transfer'; done: number; total: number }
/** A bulk run of up to 1,000 tickets may take minutes: the request waits that long, the socket shows how far it got. */
const BULK_TIMEOUT_MS = 300_000;

const STATUS_COLOR: Record<string, string> = { open: 'teal', pending: 'yellow', closed: 'gray', schedule: 'blue' };
const panelKey = ['admin', 'ticket-panel'] as const;

/** Asks where the selected tickets go; the page runs the transfer and shows its progress. */
function TransferModal({ count, onClose, onSubmit }: { count: number; onClose: () => void; onSubmit: (userId: number, queueId: number) => void }) {
  const { t } = useTranslation();
  const users = useUsersLite();
  const queues = useQueues();
  const [userId, setUserId] = useState<string | null>(null);
  const [queueId, setQueueId] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ user?: string; queue?: string }>({});
  const submit = () => {
    // administration.md: destination user and queue are both required for a bulk transfer.
    const e = { user: userId ? undefined : t('validation.requiredField', { field: t('admin.panel.user').toLowerCase() }), queue: queueId ? undefined : t('validation.requiredField', { field: t('admin.panel.queue').toLowerCase() }) };
    setErrors(e);
    if (!e.user && !e.queue) onSubmit(Number(userId), Number(queueId));
  };
  return (
    <Modal opened onClose={onClose} title={<Text fw={700}>{t('admin.panel.transferTitle', { count })}</Text>} radius="md">
      <form noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">{t('admin.panel.transferHint')}</Text>
          <Select label={t('admin.panel.user')} withAsterisk data-testid="transfer-user" searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={userId} onChange={(v) => { setUserId(v); setErrors((x) => ({ ...x, user: undefined })); }} error={errors.user} />
          <Select label={t('admin.panel.queue')} withAsterisk data-testid="transfer-queue" searchable data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))} value={queueId} onChange={(v) => { setQueueId(v); setErrors((x) => ({ ...x, queue: undefined })); }} error={errors.queue} />
          <Group justify="flex-end" gap="xs" mt="sm">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" leftSection={<IconArrowsExchange size={16} />} data-testid="transfer-submit">{t('admin.panel.transfer')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** `/painel-atendimentos`: every ticket of the tenant, filters, multi-select, bulk resolve (with progress) and bulk transfer. */
export default function TicketPanelPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [query, setQuery] = useDataTableState({ pageSize: 50 });
  const [status, setStatus] = useState<string[]>(['open', 'pending']);
  const [queueFilter, setQueueFilter] = useState<string[]>([]);
  const [userFilter, setUserFilter] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirmResolve, setConfirmResolve] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const queues = useQueues();
  const users = useUsersLite();

  const list = useQuery({
    queryKey: [...panelKey, status.join(','), queueFilter.join(','), userFilter, query.search, query.page, query.pageSize],
    queryFn: ({ signal }) => api.get<TicketPage>('/tickets', {
      signal,
      query: { showAll: true, status: status.length ? status.join(',') : 'open,pending', queuesIds: queueFilter.length ? queueFilter.join(',') : undefined, selectedUser: userFilter ?? undefined, searchParam: query.search || undefined, pageNumber: query.page, limit: query.pageSize },
    }),
    placeholderData: keepPreviousData,
  });
  useRealtime<BulkProgress>('tickets.bulk_progress', (d) => setProgress((p) => ({ action: d.action ?? p?.action ?? 'resolve', done: d.done, total: d.total })));
  useRealtime('ticket.updated', () => { if (!progress) void qc.invalidateQueries({ queryKey: panelKey }); });

  const rows = list.data?.tickets ?? [];
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const someOnPage = rows.some((r) => selected.has(r.id));
  const toggle = (id: number) => setSelected((s) => { const n = new Set(s); if (n.has(id)) n.delete(id); else n.add(id); return n; });
  const togglePage = () => setSelected((s) => { const n = new Set(s); rows.forEach((r) => (allOnPage ? n.delete(r.id) : n.add(r.id))); return n; });
  const done = () => { setSelected(new Set()); void qc.invalidateQueries({ queryKey: panelKey }); };

  const resolve = useMutation({
    mutationFn: (ids: number[]) => { setProgress({ action: 'resolve', done: 0, total: ids.length }); return api.post<BulkResult & { resolved: number }>('/tickets/bulk-resolve', { ticketIds: ids }, { timeoutMs: BULK_TIMEOUT_MS }); },
    onSuccess: (r) => {
      if (r.failed.length) notify.warning(t('admin.panel.resolvePartial', { ok: r.resolved, failed: r.failed.length }));
      else notify.success(t('admin.panel.resolved', { count: r.resolved }));
      done();
    },
    onSettled: () => setTimeout(() => setProgress(null), 1200),
  });
  const transfer = useMutation({
    mutationFn: ({ ids, userId, queueId }: { ids: number[]; userId: number; queueId: number }) => {
      setProgress({ action: 'transfer', done: 0, total: ids.length });
      return api.post<BulkResult & { transferred: number }>('/tickets/bulk-transfer', { ticketIds: ids, userId, queueId }, { timeoutMs: BULK_TIMEOUT_MS });
    },
    onSuccess: (r) => {
      if (r.failed.length) notify.warning(t('admin.panel.transferPartial', { ok: r.transferred, failed: r.failed.length }));
      else notify.success(t('admin.panel.transferred', { count: r.transferred }));
      done();
    },
    onSettled: () => setTimeout(() => setProgress(null), 1200),
  });

  const columns: DataTableColumn<Ticket>[] = [
    { key: 'select', title: <Checkbox aria-label={t('admin.panel.selectPage')} checked={allOnPage} indeterminate={!allOnPage && someOnPage} onChange={togglePage} />, width: 40, render: (r) => <Checkbox aria-label={t('admin.panel.selectTicket', { id: r.id })} checked={selected.has(r.id)} onChange={() => toggle(r.id)} /> },
    { key: 'id', title: '#', width: 70, render: (r) => <Text size="sm" c="dimmed" ff="monospace">{r.id}</Text> },
    {
      key: 'contact', title: t('admin.panel.contact'),
      render: (r) => (
        // A bounded, shrinkable cell: a long name (or one without spaces) is cut with "…" and shown whole on hover,
        // instead of widening the column and pushing the others off the table.
        <Stack gap={0} maw={360} miw={0} data-testid="panel-contact">
          <Group gap={6} wrap="nowrap" miw={0}>
            <Text size="sm" fw={600} truncate="end" miw={0} title={r.contact?.name ?? undefined} component={Link} to={`/atendimento/${r.id}`} style={{ color: 'inherit', textDecoration: 'none' }}>{r.contact?.name ?? '—'}</Text>
            {r.unreadMessages > 0 && <Badge size="xs" circle color="teal" style={{ flexShrink: 0 }}>{r.unreadMessages}</Badge>}
          </Group>
          <Text size="xs" c="dimmed" truncate maw={320}>{r.lastMessage ?? r.contact?.number ?? ''}</Text>
        </Stack>
      ),
    },
    { key: 'status', title: t('admin.panel.status'), width: 140, render: (r) => <Badge variant="light" radius="sm" color={STATUS_COLOR[r.status]} style={{ flexShrink: 0, overflow: 'visible' }}>{t(`admin.panel.statuses.${r.status}`)}</Badge> },
    { key: 'queue', title: t('admin.panel.queue'), width: 170, render: (r) => (r.queue ? <ColorName color={r.queue.color} name={r.queue.name ?? ''} /> : <Text size="sm" c="dimmed">{t('admin.panel.noQueue')}</Text>) },
    { key: 'user', title: t('admin.panel.user'), width: 160, render: (r) => <Text size="sm" c={r.user ? undefined : 'dimmed'}>{r.user?.name ?? t('admin.panel.unassigned')}</Text> },
    { key: 'channel', title: t('admin.panel.channel'), width: 110, render: (r) => <Text size="sm" c="dimmed">{r.channel ?? '—'}</Text> },
    { key: 'lastMessageAt', title: t('admin.panel.lastActivity'), width: 150, render: (r) => <Text size="sm" c="dimmed">{r.lastMessageAt ? formatDateTime(r.lastMessageAt, i18n.language) : '—'}</Text> },
  ];

  const c = list.data?.counts;
  const ids = [...selected];
  return (
    <>
      <PageHeader
        title={t('admin.panel.title')}
        description={t('admin.panel.description')}
        actions={c && (
          <Group gap="xs">
            <Badge size="lg" variant="light" color="teal" radius="sm">{t('admin.panel.statuses.open')}: {c.open}</Badge>
            <Badge size="lg" variant="light" color="yellow" radius="sm">{t('admin.panel.statuses.pending')}: {c.pending}</Badge>
            <Badge size="lg" variant="light" color="gray" radius="sm">{t('admin.panel.statuses.closed')}: {c.closed}</Badge>
          </Group>
        )}
      />
      {progress && (
        <Alert
          variant="light"
          mb="sm"
          color={progress.action === 'transfer' ? 'blue' : 'teal'}
          icon={progress.action === 'transfer' ? <IconArrowsExchange size={16} /> : <IconCircleCheck size={16} />}
          title={t(progress.action === 'transfer' ? 'admin.panel.transferring' : 'admin.panel.resolving', { done: progress.done, total: progress.total })}
          data-testid="bulk-progress"
        >
          <Progress value={progress.total ? (progress.done / progress.total) * 100 : 0} size="md" radius="xl" animated={progress.done < progress.total} striped />
        </Alert>
      )}
      <DataTable
        columns={columns}
        rowKey={(r) => r.id}
        rows={list.data?.tickets}
        total={list.data?.count ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isFetching}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('admin.panel.search')}
        pageSizes={[25, 50, 100, 200]}
        toolbar={
          <>
            <MultiSelect aria-label={t('admin.panel.status')} placeholder={status.length ? undefined : t('admin.panel.status')} w={230} data={['open', 'pending', 'closed'].map((s) => ({ value: s, label: t(`admin.panel.statuses.${s}`) }))} value={status} onChange={(v) => { setStatus(v); setQuery({ ...query, page: 1 }); }} />
            <MultiSelect aria-label={t('admin.panel.queue')} placeholder={queueFilter.length ? undefined : t('admin.panel.allQueues')} w={200} clearable data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))} value={queueFilter} onChange={(v) => { setQueueFilter(v); setQuery({ ...query, page: 1 }); }} />
            <Select aria-label={t('admin.panel.user')} placeholder={t('admin.panel.allUsers')} w={180} clearable searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={userFilter} onChange={(v) => { setUserFilter(v); setQuery({ ...query, page: 1 }); }} />
          </>
        }
        empty={<EmptyState icon={<IconInbox size={28} />} title={t('admin.panel.empty')} description={t('admin.panel.emptyText')} />}
      />
      <Affix position={{ bottom: 24, left: '50%' }} style={{ transform: 'translateX(-50%)' }}>
        <Transition transition="slide-up" mounted={ids.length > 0}>
          {(style) => (
            <Paper style={style} shadow="lg" radius="md" withBorder px="md" py="sm">
              <Group gap="sm">
                <Text size="sm" fw={600} data-testid="selected-count">{t('admin.panel.selected', { count: ids.length })}</Text>
                <Button size="xs" variant="subtle" color="gray" onClick={() => setSelected(new Set())}>{t('admin.panel.clear')}</Button>
                <Button size="xs" variant="default" leftSection={<IconArrowsExchange size={14} />} onClick={() => setTransferring(true)} loading={transfer.isPending} disabled={!!progress && !transfer.isPending}>{t('admin.panel.transfer')}</Button>
                <Button size="xs" color="teal" leftSection={<IconCircleCheck size={14} />} onClick={() => setConfirmResolve(true)} loading={resolve.isPending} disabled={!!progress && !resolve.isPending}>{t('admin.panel.resolve')}</Button>
              </Group>
            </Paper>
          )}
        </Transition>
      </Affix>
      {transferring && (
        <TransferModal
          count={ids.length}
          onClose={() => setTransferring(false)}
          onSubmit={(userId, queueId) => { setTransferring(false); transfer.mutate({ ids, userId, queueId }); }}
        />
      )}
      <ConfirmDialog
        opened={confirmResolve}
        danger={false}
        title={t('admin.panel.resolveTitle')}
        message={t('admin.panel.resolveText', { count: ids.length })}
        confirmLabel={t('admin.panel.resolve')}
        onConfirm={() => { resolve.mutate(ids); }}
        onClose={() => setConfirmResolve(false)}
      />
    </>
  );
}
