import { ActionIcon, Badge, Group, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconLock, IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api, formatDateTime } from '@atende/ui-shell/sdk';
import { Tooltip } from '../../ui/overlays.tsx';
import type { Contact as AdminContact } from '../admin/contacts/api.ts';
import { ensureAdminStrings } from '../../i18n/index.ts';

// The contacts screen's form, the same rules and fields (name, number, e-mail, CPF/CNPJ, tags, wallets, lane, blocked).
// Its texts are in the admin section of the catalogue, which only admin routes load: fetched with it.
const ContactDrawer = lazy(() => Promise.all([import('../admin/contacts/ContactDrawer.tsx'), ensureAdminStrings()]).then(([m]) => ({ default: m.ContactDrawer })));

interface HistoryTicket {
  id: number;
  protocol: string | null;
  status: string;
  createdAt: string;
  lastMessageAt: string;
  queue: { id: number; name: string | null; color: string | null } | null;
  user: { id: number; name: string | null } | null;
  lastMessage: string | null;
  canOpen: boolean;
}

/** Edits the contact from the conversation, then refreshes what the ticket screen shows of it. */
export function EditContactButton({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const contact = useQuery({ queryKey: ['tickets', 'contact', contactId], queryFn: () => api.get<AdminContact>(`/contacts/${contactId}`, { silent: true }), staleTime: 60_000, retry: false });
  const close = () => {
    setOpen(false);
    // Name, number, tags and wallets appear on the rows, the header and this panel.
    void qc.invalidateQueries({ queryKey: ['tickets'] });
  };
  return (
    <>
      <Tooltip label={t('tickets.panel.edit')}>
        <ActionIcon variant="subtle" color="gray" onClick={() => setOpen(true)} disabled={!contact.data} aria-label={t('tickets.panel.edit')} data-testid="contact-edit"><IconPencil size={18} /></ActionIcon>
      </Tooltip>
      {open && contact.data && (
        <Suspense fallback={null}>
          <ContactDrawer opened contact={contact.data} onClose={close} />
        </Suspense>
      )}
    </>
  );
}

/** All of the contact's tickets (GET /contacts/:id/tickets): the ones the agent may not open are listed, locked, without their content. */
export function ContactHistory({ contactId, currentId }: { contactId: number; currentId: number }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const history = useQuery({ queryKey: ['tickets', 'history', contactId], queryFn: () => api.get<{ tickets: HistoryTicket[] }>(`/contacts/${contactId}/tickets`, { silent: true, background: true }), staleTime: 30_000, retry: false });
  const list = (history.data?.tickets ?? []).filter((x) => x.id !== currentId);
  return (
    <Stack gap={4} p="md" data-testid="contact-history">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3}>{t('tickets.panel.previous')}</Text>
      {history.isPending ? <Skeleton height={40} /> : !list.length ? <Text size="sm" c="dimmed">{t('tickets.panel.noPrevious')}</Text> : list.map((p) => {
        const body = (
          <>
            <Group justify="space-between" wrap="nowrap" gap={6}>
              <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
                {!p.canOpen && <IconLock size={12} aria-label={t('tickets.panel.readOnly')} />}
                <Text size="sm" fw={500} truncate="end">#{p.id}{p.protocol ? ` · ${p.protocol}` : ''}</Text>
              </Group>
              <Badge size="xs" variant="light" color={p.status === 'open' ? 'teal' : p.status === 'pending' ? 'yellow' : 'gray'} tt="none" style={{ flexShrink: 0 }}>{t(`tickets.status.${p.status === 'schedule' ? 'pending' : p.status}`)}</Badge>
            </Group>
            <Text size="xs" c="dimmed" truncate="end">{[formatDateTime(p.lastMessageAt, i18n.language), p.queue?.name, p.user?.name].filter(Boolean).join(' · ')}</Text>
            {p.canOpen ? <Text size="xs" c="dimmed" truncate="end">{p.lastMessage}</Text> : <Text size="xs" c="dimmed" fs="italic">{t('tickets.panel.notYours')}</Text>}
          </>
        );
        return p.canOpen ? (
          <UnstyledButton key={p.id} p={6} style={{ borderRadius: 6 }} onClick={() => navigate(`/atendimento/${p.id}`)} data-testid="history-ticket" data-can-open="true">{body}</UnstyledButton>
        ) : (
          <div key={p.id} style={{ padding: 6, opacity: 0.85 }} data-testid="history-ticket" data-can-open="false">{body}</div>
        );
      })}
    </Stack>
  );
}
