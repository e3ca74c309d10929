import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError, errorMessage, notify } from '@atende/ui-shell/sdk';
import { createTicket, listChannels, unwrap, type Channel, type Contact, type Ticket } from './api.ts';
import { ContactPicker } from './ContactPicker.tsx';
import { applyTicket } from './live.ts';
import { useSetAtom } from 'jotai';
import { statusTabAtom } from './state.ts';

/** "Novo atendimento": contact, channel; an existing open ticket is offered per the 409 rules (core.md §4). */
export function NewTicketDialog({ opened, onClose, contact: initial }: { opened: boolean; onClose: () => void; contact?: Contact | null }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const setTab = useSetAtom(statusTabAtom);
  const [contact, setContact] = useState<Contact | null>(initial ?? null);
  const [channelId, setChannelId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [existing, setExisting] = useState<{ ticketId?: number; canOpen: boolean; adminOnly: boolean } | null>(null);
  const channels = useQuery({ queryKey: ['tickets', 'channels'], queryFn: listChannels, staleTime: 300_000, enabled: opened });
  const list = unwrap<Channel>(channels.data, 'channels');

  useEffect(() => {
    if (opened) {
      setContact(initial ?? null);
      setExisting(null);
    }
  }, [opened, initial]);
  useEffect(() => {
    if (!channelId && list.length === 1) setChannelId(String(list[0]!.id));
  }, [list, channelId]);

  const submit = async () => {
    if (!contact) return;
    setBusy(true);
    setExisting(null);
    try {
      const ticket: Ticket = await createTicket({ contactId: contact.id, channelId: channelId ? Number(channelId) : undefined, status: 'open' });
      applyTicket(qc, ticket);
      setTab('open');
      notify.success(t('tickets.newTicket.created'));
      onClose();
      navigate(`/atendimento/${ticket.id}`);
    } catch (e) {
      if (e instanceof ApiError && (e.code === 'ERR_OTHER_OPEN_TICKET' || e.code === 'ERR_OTHER_OPEN_TICKET_ADMIN')) {
        const d = (e.data ?? {}) as { ticketId?: number; canOpen?: boolean };
        setExisting({ ticketId: d.ticketId, canOpen: e.code === 'ERR_OTHER_OPEN_TICKET' && d.canOpen !== false && !!d.ticketId, adminOnly: e.code === 'ERR_OTHER_OPEN_TICKET_ADMIN' || d.canOpen === false });
      } else notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.newTicket.title')} centered size="md">
      <Stack>
        <ContactPicker selected={contact} onSelect={(c) => { setContact(c); setExisting(null); }} />
        <Select
          label={t('tickets.newTicket.channel')}
          placeholder={t('tickets.newTicket.channelPlaceholder')}
          data={list.map((c) => ({ value: String(c.id), label: c.name }))}
          value={channelId}
          onChange={setChannelId}
          clearable
        />
        {existing && (
          <Alert color={existing.adminOnly ? 'red' : 'yellow'} title={t('tickets.newTicket.existsTitle')} data-testid="existing-ticket">
            {existing.adminOnly ? t('tickets.newTicket.adminOnly') : t('tickets.newTicket.exists')}
            {existing.canOpen && existing.ticketId && (
              <Group mt="sm">
                <Button size="xs" onClick={() => { onClose(); navigate(`/atendimento/${existing.ticketId}`); }}>{t('tickets.newTicket.openExisting')}</Button>
              </Group>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!contact}>{t('tickets.newTicket.start')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
