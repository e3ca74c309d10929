import { ActionIcon, Badge, Box, Button, CopyButton, Divider, Group, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconBan, IconCheck, IconCircleCheck, IconCopy, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, notify, usePhoneFormat } from '@atende/ui-shell/sdk';
import { OnFirstOpen } from '../../ui/deferred.tsx';
import { Tooltip } from '../../ui/overlays.tsx';
import { getContact, setContactBlocked, updateTicket, type Ticket } from './api.ts';
import { applyTicket } from './live.ts';
import { ContactHistory, EditContactButton } from './ContactHistory.tsx';
import { ChannelIcon, ContactAvatar, ticketName } from './util.tsx';
import classes from './tickets.module.css';

// Fetched the first time someone blocks or unblocks (docs/performance.md U1: the ticket screen's first load stays small).
const ConfirmDialog = lazy(() => import('../../sdk/components/ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

function Field({ label, value, copy }: { label: string; value: string | null | undefined; copy?: boolean }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3}>{label}</Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" truncate="end">{value || '—'}</Text>
        {copy && value && (
          <CopyButton value={value}>
            {({ copied, copy: doCopy }) => (
              <Tooltip label={copied ? t('tickets.panel.copied') : t('tickets.msg.copy')}><ActionIcon size="xs" variant="subtle" color="gray" onClick={doCopy} aria-label={`${t('tickets.msg.copy')} ${label}`}>{copied ? <IconCheck size={12} /> : <IconCopy size={12} />}</ActionIcon></Tooltip>
            )}
          </CopyButton>
        )}
      </Group>
    </div>
  );
}

/**
 * Block or unblock the contact from the conversation (U2 "work from the conversation"): asked first, since a blocked
 * contact's messages are dropped, then confirmed by a toast and the panel's badge. Any agent who sees the contact may
 * (PUT /contacts/:id/block, as the contacts screen's switch).
 */
function BlockButton({ contactId, name, blocked }: { contactId: number; name: string; blocked: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const apply = async () => {
    const updated = await setContactBlocked(contactId, !blocked);
    qc.setQueryData(['tickets', 'contact', contactId], (old: object | undefined) => ({ ...(old ?? {}), ...updated }));
    void qc.invalidateQueries({ queryKey: ['admin', 'contacts'] });
    notify.success(updated.blocked ? t('tickets.panel.blockedDone') : t('tickets.panel.unblockedDone'));
  };
  return (
    <>
      <Button size="xs" variant="light" color={blocked ? 'teal' : 'red'} leftSection={blocked ? <IconCircleCheck size={14} /> : <IconBan size={14} />} onClick={() => setOpen(true)} data-testid="contact-block">
        {blocked ? t('tickets.panel.unblock') : t('tickets.panel.block')}
      </Button>
      <OnFirstOpen opened={open}>
        {(opened) => (
          <ConfirmDialog
            opened={opened}
            title={blocked ? t('tickets.panel.unblock') : t('tickets.panel.block')}
            message={blocked ? t('tickets.panel.unblockText', { name }) : t('tickets.panel.blockText', { name })}
            confirmLabel={blocked ? t('tickets.panel.unblock') : t('tickets.panel.block')}
            danger={!blocked}
            onConfirm={apply}
            onClose={() => setOpen(false)}
          />
        )}
      </OnFirstOpen>
    </>
  );
}

/** The contact panel beside the conversation (docs/ui.md): fields, tags, wallets, previous tickets, notes. */
export function ContactPanel({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const contact = useQuery({ queryKey: ['tickets', 'contact', ticket.contactId], queryFn: () => getContact(ticket.contactId), staleTime: 60_000, retry: false });
  const number = ticket.contact?.number ?? contact.data?.number ?? '';
  const phone = usePhoneFormat();
  const lanes = useQuery({ queryKey: ['tickets', 'lanes'], queryFn: () => api.get<unknown>('/plugins/kanban/lanes', { silent: true, background: true }), staleTime: 300_000, retry: false, enabled: ticket.kanban != null });
  const laneName = Array.isArray(lanes.data) ? (lanes.data as { id: number; name: string }[]).find((l) => l.id === ticket.kanban)?.name : undefined;
  const [notes, setNotes] = useState(ticket.notes ?? '');
  const [saving, setSaving] = useState(false);
  useEffect(() => setNotes(ticket.notes ?? ''), [ticket.id, ticket.notes]);
  const saveNotes = async () => {
    setSaving(true);
    try {
      const updated = await updateTicket(ticket.id, { notes: notes.trim() || null });
      applyTicket(qc, updated);
      notify.success(t('tickets.panel.notesSaved'));
    } catch {
      notify.error(t('tickets.panel.notesFailed'));
    } finally {
      setSaving(false);
    }
  };
  const tags = contact.data?.tags ?? ticket.tags ?? [];
  const wallets = ticket.contact?.wallets ?? [];
  const name = ticketName(ticket);
  return (
    <Box component="aside" aria-label={t('tickets.panel.title')} className={classes.panel} data-testid="contact-panel">
      <Group justify="space-between" px="md" h={60} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Text fw={600}>{t('tickets.panel.title')}</Text>
        <Group gap={2}>
          <EditContactButton contactId={ticket.contactId} />
          <ActionIcon variant="subtle" color="gray" onClick={onClose} aria-label={t('common.close')}><IconX size={18} /></ActionIcon>
        </Group>
      </Group>
      <Stack align="center" gap={4} py="lg" px="md">
        <ContactAvatar name={name} src={ticket.contact?.profilePicUrl} seed={ticket.contactId} size={96} radius={999} />
        <Title order={4} ta="center" mt="xs">{name}</Title>
        <Text size="sm" c="dimmed">{phone(number)}</Text>
        <Group gap={6} mt={4}><ChannelIcon type={ticket.channel} /><Text size="xs" c="dimmed">{ticket.channelName}</Text></Group>
        {contact.data?.blocked && <Badge color="red" variant="light" mt={4} data-testid="contact-blocked-badge">{t('tickets.panel.blockedBadge')}</Badge>}
        {contact.data && <Box mt="xs"><BlockButton contactId={ticket.contactId} name={name} blocked={!!contact.data.blocked} /></Box>}
      </Stack>
      <Divider />
      <Stack gap="sm" p="md">
        {contact.isPending ? <Skeleton height={60} /> : (
          <>
            <Field label={t('tickets.panel.number')} value={phone(number)} copy />
            <Field label={t('tickets.panel.email')} value={contact.data?.email} copy />
            <Field label={t('tickets.panel.protocol')} value={ticket.protocol} copy />
            {laneName && <Field label={t('tickets.panel.lane')} value={laneName} />}
          </>
        )}
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3} mb={4}>{t('tickets.panel.tags')}</Text>
          {tags.length ? <Group gap={4}>{tags.map((g) => <Badge key={g.id} color={g.color} variant="light" tt="none">{g.name}</Badge>)}</Group> : <Text size="sm" c="dimmed">{t('tickets.panel.noTags')}</Text>}
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3} mb={4}>{t('tickets.panel.wallets')}</Text>
          <Text size="sm" c={wallets.length ? undefined : 'dimmed'}>{wallets.length ? t('tickets.panel.walletCount', { n: wallets.length }) : t('tickets.panel.noWallets')}</Text>
        </div>
      </Stack>
      <Divider />
      <Stack gap={6} p="md">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3}>{t('tickets.panel.notes')}</Text>
        <Textarea value={notes} onChange={(e) => setNotes(e.currentTarget.value)} autosize minRows={3} maxRows={8} placeholder={t('tickets.panel.notesPlaceholder')} />
        <Group justify="flex-end"><Button size="xs" variant="light" onClick={() => void saveNotes()} loading={saving} disabled={(ticket.notes ?? '') === notes}>{t('common.save')}</Button></Group>
      </Stack>
      <Divider />
      <ContactHistory contactId={ticket.contactId} currentId={ticket.id} />
    </Box>
  );
}
