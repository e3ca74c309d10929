/**
 * `/sessoes` (administration.md §2–§5): the tenant's channels as cards with
 * their type, number, live status and last update, and every channel action —
 * new/edit (the channel dialog), connect/disconnect, QR or pairing code,
 * close all open or pending tickets, move tickets to another channel, import
 * history, delete. Status changes arrive live (`channel.updated`).
 */
import { ActionIcon, Badge, Button, Group, Menu, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import {
  IconCloudDownload, IconDotsVertical, IconPencil, IconPlugConnected, IconPlugConnectedX, IconPlus, IconQrcode, IconSearch, IconStar, IconTicketOff, IconTransfer, IconTrash, IconPlug,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, EmptyState, ErrorBox, PageHeader, notify } from '@atende/ui-shell/sdk';
import { ChannelDialog } from './ChannelDialog.tsx';
import { ConnectModal } from './ConnectPanel.tsx';
import { ImportDialog, TransferDialog } from './ChannelTools.tsx';
import { channelsKey, closeChannelTickets, connectChannel, deleteChannel, disconnectChannel, useChannels, useChannelTypes, useChannelUis, type Channel, type ChannelType } from './api.ts';
import { ChannelTypeIcon, RelativeTime, StatusBadge, STATUS_COLOR } from './visuals.tsx';
import classes from './channels.module.css';

type Dialog =
  | { kind: 'edit'; channel?: Channel }
  | { kind: 'connect'; id: number }
  | { kind: 'import'; channel: Channel }
  | { kind: 'transfer'; channel: Channel }
  | { kind: 'delete'; channel: Channel }
  | { kind: 'close'; channel: Channel; status: 'open' | 'pending' };

type StatusFilter = 'all' | 'connected' | 'attention' | 'disconnected';
const ATTENTION = new Set(['qrcode', 'opening', 'pairingTimeout']);

export default function ChannelsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const channels = useChannels();
  const types = useChannelTypes();
  const uis = useChannelUis();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<StatusFilter>('all');

  const typeOf = useMemo(() => new Map((types.data ?? []).map((x) => [x.type, x])), [types.data]);
  const all = channels.data ?? [];
  const counts = useMemo(() => ({
    connected: all.filter((c) => c.status === 'connected').length,
    attention: all.filter((c) => ATTENTION.has(c.status)).length,
    disconnected: all.filter((c) => c.status === 'disconnected').length,
  }), [all]);
  const shown = all.filter((c) => {
    if (filter === 'connected' && c.status !== 'connected') return false;
    if (filter === 'attention' && !ATTENTION.has(c.status)) return false;
    if (filter === 'disconnected' && c.status !== 'disconnected') return false;
    const needle = search.trim().toLocaleLowerCase();
    return !needle || `${c.name} ${c.number ?? ''} ${typeOf.get(c.type)?.label ?? c.type}`.toLocaleLowerCase().includes(needle);
  });

  const connect = useMutation({ mutationFn: (id: number) => connectChannel(id) });
  const disconnect = useMutation({ mutationFn: (id: number) => disconnectChannel(id) });
  const connectable = (c: Channel) => {
    const ty = typeOf.get(c.type);
    // A channel holding a QR or pairing code can always show it, whatever its type declares.
    return !!(ty?.capabilities.qr || ty?.capabilities.pairingCode || uis.get(c.type)?.connect || c.qrcode || c.pairingCode);
  };
  const live = dialog?.kind === 'connect' ? all.find((c) => c.id === dialog.id) : undefined;

  const onSaved = (saved: Channel, created: boolean) => {
    // A new channel that pairs by QR code or code goes straight to its connect panel.
    if (created && connectable(saved)) setDialog({ kind: 'connect', id: saved.id });
    else setDialog(null);
  };

  return (
    <Stack gap={0} data-testid="channels-page">
      <PageHeader
        title={t('channels.title')}
        description={t('channels.description')}
        actions={<Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'edit' })} disabled={!types.data} data-testid="channel-new">{t('channels.new')}</Button>}
      />

      <Group justify="space-between" mb="md" gap="sm" wrap="wrap">
        <SegmentedControl
          size="sm"
          value={filter}
          onChange={(v) => setFilter(v as StatusFilter)}
          data={[
            { value: 'all', label: `${t('channels.filter.all')} · ${all.length}` },
            { value: 'connected', label: `${t('channels.filter.connected')} · ${counts.connected}` },
            { value: 'attention', label: `${t('channels.filter.attention')} · ${counts.attention}` },
            { value: 'disconnected', label: `${t('channels.filter.disconnected')} · ${counts.disconnected}` },
          ]}
        />
        <TextInput w={280} leftSection={<IconSearch size={15} />} placeholder={t('channels.search')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} aria-label={t('channels.search')} />
      </Group>

      {channels.isError ? (
        <ErrorBox error={channels.error} onRetry={() => void channels.refetch()} />
      ) : channels.isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">{[0, 1, 2].map((i) => <Skeleton key={i} h={168} radius="md" />)}</SimpleGrid>
      ) : all.length === 0 ? (
        <Paper withBorder radius="md">
          <EmptyState
            icon={<IconPlug size={28} stroke={1.5} />}
            title={t('channels.emptyTitle')}
            description={t('channels.emptyText')}
            action={<Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'edit' })} disabled={!types.data}>{t('channels.new')}</Button>}
          />
        </Paper>
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md"><EmptyState title={t('channels.noResults')} /></Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="channel-list">
          {shown.map((c) => (
            <ChannelCard
              key={c.id}
              channel={c}
              type={typeOf.get(c.type)}
              canPair={connectable(c)}
              busy={(connect.isPending && connect.variables === c.id) || (disconnect.isPending && disconnect.variables === c.id)}
              onAction={(action) => {
                if (action === 'edit') setDialog({ kind: 'edit', channel: c });
                else if (action === 'connect') {
                  connect.mutate(c.id);
                  // Channels that pair by QR code or code show the panel where the code will appear.
                  if (connectable(c)) setDialog({ kind: 'connect', id: c.id });
                }
                else if (action === 'disconnect') disconnect.mutate(c.id);
                else if (action === 'pair') setDialog({ kind: 'connect', id: c.id });
                else if (action === 'import') setDialog({ kind: 'import', channel: c });
                else if (action === 'transfer') setDialog({ kind: 'transfer', channel: c });
                else if (action === 'delete') setDialog({ kind: 'delete', channel: c });
                else if (action === 'closeOpen') setDialog({ kind: 'close', channel: c, status: 'open' });
                else if (action === 'closePending') setDialog({ kind: 'close', channel: c, status: 'pending' });
              }}
            />
          ))}
        </SimpleGrid>
      )}

      {dialog?.kind === 'edit' && types.data && (
        <ChannelDialog channel={dialog.channel} types={types.data} uis={uis} onClose={() => setDialog(null)} onSaved={onSaved} />
      )}
      {dialog?.kind === 'connect' && live && (
        <ConnectModal channel={live} type={typeOf.get(live.type)} custom={uis.get(live.type)?.connect} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'import' && <ImportDialog channel={dialog.channel} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'transfer' && <TransferDialog channel={dialog.channel} channels={all} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          opened
          title={t('channels.deleteTitle')}
          message={t('channels.deleteText', { name: dialog.channel.name })}
          confirmLabel={t('common.delete')}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            await deleteChannel(dialog.channel.id);
            qc.setQueryData<Channel[]>(channelsKey, (rows) => rows?.filter((x) => x.id !== dialog.channel.id));
            notify.success(t('channels.deleted'));
          }}
        />
      )}
      {dialog?.kind === 'close' && (
        <ConfirmDialog
          opened
          title={t(dialog.status === 'open' ? 'channels.closeOpenTitle' : 'channels.closePendingTitle')}
          message={t(dialog.status === 'open' ? 'channels.closeOpenText' : 'channels.closePendingText', { name: dialog.channel.name })}
          confirmLabel={t('channels.closeConfirm')}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            const r = await closeChannelTickets(dialog.channel.id, dialog.status);
            notify.success(t('channels.closedTickets', { count: r.closed }));
          }}
        />
      )}
    </Stack>
  );
}

type CardAction = 'edit' | 'connect' | 'disconnect' | 'pair' | 'import' | 'transfer' | 'delete' | 'closeOpen' | 'closePending';

function ChannelCard({ channel: c, type, canPair, busy, onAction }: { channel: Channel; type?: ChannelType; canPair: boolean; busy: boolean; onAction: (a: CardAction) => void }) {
  const { t } = useTranslation();
  const off = c.status === 'disconnected';
  const waiting = c.status === 'qrcode';
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      className={`${classes.card} ${c.isDefault ? classes.cardDefault : ''}`}
      data-testid="channel-card"
      data-channel-id={c.id}
      data-status={c.status}
    >
      <Stack gap="sm" h="100%" justify="space-between">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <ChannelTypeIcon type={c.type} size={42} />
            <div style={{ minWidth: 0 }}>
              <Group gap={6} wrap="nowrap">
                <Text fw={700} truncate data-testid="channel-name-label">{c.name}</Text>
                {c.isDefault && (
                  <Tooltip label={t('channels.defaultHint')}>
                    <Badge size="xs" variant="light" leftSection={<IconStar size={10} />} styles={{ root: { textTransform: 'none', flexShrink: 0 } }}>{t('channels.default')}</Badge>
                  </Tooltip>
                )}
              </Group>
              <Text size="xs" c="dimmed" truncate>
                {type?.label ?? c.type}
                {' · '}
                <span data-testid="channel-number-label">{c.number || t('channels.noNumber')}</span>
              </Text>
            </div>
          </Group>
          <Menu position="bottom-end" withinPortal shadow="md" width={250}>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={t('common.actions')} data-testid="channel-menu"><IconDotsVertical size={18} /></ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={15} />} onClick={() => onAction('edit')} data-testid="channel-action-edit">{t('common.edit')}</Menu.Item>
              {canPair && <Menu.Item leftSection={<IconQrcode size={15} />} onClick={() => onAction('pair')} data-testid="channel-action-pair">{t('channels.actions.pair')}</Menu.Item>}
              {off
                ? <Menu.Item leftSection={<IconPlugConnected size={15} />} onClick={() => onAction('connect')}>{t('channels.actions.connect')}</Menu.Item>
                : <Menu.Item leftSection={<IconPlugConnectedX size={15} />} onClick={() => onAction('disconnect')} data-testid="channel-action-disconnect">{t('channels.actions.disconnect')}</Menu.Item>}
              <Menu.Divider />
              {type?.capabilities.historyImport && <Menu.Item leftSection={<IconCloudDownload size={15} />} onClick={() => onAction('import')} data-testid="channel-action-import">{t('channels.actions.import')}</Menu.Item>}
              <Menu.Item leftSection={<IconTransfer size={15} />} onClick={() => onAction('transfer')} data-testid="channel-action-transfer">{t('channels.actions.transfer')}</Menu.Item>
              <Menu.Item leftSection={<IconTicketOff size={15} />} onClick={() => onAction('closeOpen')} data-testid="channel-action-close-open">{t('channels.actions.closeOpen')}</Menu.Item>
              <Menu.Item leftSection={<IconTicketOff size={15} />} onClick={() => onAction('closePending')} data-testid="channel-action-close-pending">{t('channels.actions.closePending')}</Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={15} />} onClick={() => onAction('delete')} data-testid="channel-action-delete">{t('common.delete')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>

        <Stack gap={4}>
          <Group gap="xs">
            <StatusBadge status={c.status} />
            <Text size="xs" c="dimmed">{t('channels.updatedAt')} <RelativeTime value={c.statusAt} /></Text>
          </Group>
          {c.lastError && c.status !== 'connected' && <Text size="xs" c={`${STATUS_COLOR[c.status] ?? 'red'}.8`} lineClamp={2} title={c.lastError}>{c.lastError}</Text>}
          {c.retries > 0 && c.status !== 'connected' && <Text size="xs" c="dimmed">{t('channels.connect.retries', { count: c.retries })}</Text>}
        </Stack>

        <Group gap="xs" mt={4}>
          {waiting && canPair ? (
            <Button size="xs" leftSection={<IconQrcode size={14} />} onClick={() => onAction('pair')} data-testid="channel-show-qr">{t('channels.actions.showQr')}</Button>
          ) : off ? (
            <Button size="xs" leftSection={<IconPlugConnected size={14} />} loading={busy} onClick={() => onAction('connect')} data-testid="channel-connect">{t('channels.actions.connect')}</Button>
          ) : (
            <Button size="xs" variant="default" leftSection={<IconPlugConnectedX size={14} />} loading={busy} onClick={() => onAction('disconnect')} data-testid="channel-disconnect">{t('channels.actions.disconnect')}</Button>
          )}
          <Button size="xs" variant="subtle" leftSection={<IconPencil size={14} />} onClick={() => onAction('edit')} data-testid="channel-edit">{t('common.edit')}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
