import { Box, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMessages } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatch, useParams } from 'react-router-dom';
import { useRealtime } from '@atende/ui-shell/sdk';
import type { Message, Ticket } from './api.ts';
import { useCatalogLive } from './useCatalogLive.ts';
import { applyMessage, applyTicket } from './live.ts';
import { tenantSettingsQuery } from '../../shell/tenant-settings.ts';
import { filtersAtom, statusTabAtom } from './state.ts';
import { NotificationsBanner } from './NotificationsBanner.tsx';
import { TicketList } from './TicketList.tsx';
import classes from './tickets.module.css';
import { OnFirstOpen } from '../../ui/deferred.tsx';

// The new-ticket dialog (contact picker, channel select) is fetched when first opened (U1).
const NewTicketDialog = lazy(() => import('./NewTicketDialog.tsx').then((m) => ({ default: m.NewTicketDialog })));

/**
 * `/atendimento` (and `/chats`): the agent's whole day. Three panes at ≥ 1024 px
 * (list | conversation | contact panel), one pane at a time on a phone.
 */
export default function TicketsScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const params = useParams();
  const contactsMode = useMatch('/atendimento/contatos');
  const selectedId = params.ticketId && /^\d+$/.test(params.ticketId) ? Number(params.ticketId) : undefined;
  const wide = useMediaQuery('(min-width: 64em)', true, { getInitialValueInEffect: false });
  const [status, setStatus] = useAtom(statusTabAtom);
  const [filters, setFilters] = useAtom(filtersAtom);
  const [newTicket, setNewTicket] = useState(false);

  useRealtime<{ ticket?: Ticket }>('ticket.created', (d) => d?.ticket && applyTicket(qc, d.ticket));
  useRealtime<{ ticket?: Ticket }>('ticket.updated', (d) => d?.ticket && applyTicket(qc, d.ticket));
  useRealtime<{ id?: number; updatedAt?: string; ticket?: { id: number } }>('ticket.removed', (d) => {
    const id = d?.id ?? d?.ticket?.id;
    if (id) applyTicket(qc, { id, updatedAt: d?.updatedAt }, true);
  });
  const onMessage = (deleted: boolean) => (d: { message?: Message; ticket?: Ticket }) => {
    if (d?.ticket) applyTicket(qc, d.ticket);
    if (d?.message) applyMessage(qc, deleted ? { ...d.message, isDeleted: true } : d.message);
  };
  useRealtime('message.created', onMessage(false));
  useRealtime('message.ack_updated', onMessage(false));
  useRealtime('message.updated', onMessage(false));
  useRealtime('message.deleted', onMessage(true));
  // After a gap the server cannot replay, the lists are fetched again.
  useCatalogLive();
  useRealtime('resync', () => void qc.invalidateQueries({ queryKey: ['tickets'] }));
  // The rules the conversation obeys (signature, pending assignment) change for everyone as soon as an admin saves them.
  useRealtime('settings.updated', () => void qc.invalidateQueries({ queryKey: tenantSettingsQuery.queryKey }));

  const showList = wide || (!selectedId && !contactsMode);
  const showCentre = wide || !!selectedId || !!contactsMode;

  return (
    <Box className={classes.screen} data-testid="tickets-screen">
      {/* The screen's title for screen readers; the list shows it visibly. */}
      <VisuallyHidden component="h1">{t('tickets.title')}</VisuallyHidden>
      {showList && (
        <Box component="section" aria-label={t('a11y.ticketList')} className={classes.listCol} style={wide ? undefined : { width: '100%' }}>
          <NotificationsBanner />
          <TicketList status={status} onStatus={setStatus} filters={filters} onFilters={setFilters} selectedId={selectedId} onNewTicket={() => setNewTicket(true)} />
        </Box>
      )}
      {showCentre && (
        <Box className={classes.centre}>
          {selectedId || contactsMode ? <Outlet /> : (
            <Box className={classes.empty}>
              <Stack align="center" gap="sm" maw={420} ta="center" px="md">
                <ThemeIcon size={84} radius={999} variant="light"><IconMessages size={44} stroke={1.4} /></ThemeIcon>
                <Title order={3} mt="sm">{t('tickets.emptyChat.title')}</Title>
                <Text c="dimmed" size="sm">{t('tickets.emptyChat.text')}</Text>
                <Text c="dimmed" size="xs" mt="md">{t('tickets.emptyChat.keys')}</Text>
              </Stack>
            </Box>
          )}
        </Box>
      )}
      <OnFirstOpen opened={newTicket}>{(opened) => <NewTicketDialog opened={opened} onClose={() => setNewTicket(false)} />}</OnFirstOpen>
    </Box>
  );
}
