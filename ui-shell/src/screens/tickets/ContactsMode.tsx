import { Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconMessagePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Contact } from './api.ts';
import { ContactPicker } from './ContactPicker.tsx';
import { NewTicketDialog } from './NewTicketDialog.tsx';
import classes from './tickets.module.css';

/** `/atendimento/contatos`: find a contact and start a conversation with them. */
export default function ContactsMode() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [contact, setContact] = useState<Contact | null>(null);
  const [open, setOpen] = useState(false);
  return (
    <Box className={classes.chat} style={{ overflowY: 'auto' }} bg="var(--mantine-color-body)">
      <div className={classes.chatHeader}>
        <Button variant="subtle" color="gray" size="xs" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate('/atendimento')}>{t('common.back')}</Button>
        <Title order={4}>{t('tickets.contactsMode')}</Title>
      </div>
      <Stack p="lg" maw={560} w="100%" mx="auto">
        <Text c="dimmed" size="sm">{t('tickets.contactsModeHint')}</Text>
        <ContactPicker selected={contact} onSelect={setContact} />
        <Group justify="flex-end">
          <Button leftSection={<IconMessagePlus size={16} />} disabled={!contact} onClick={() => setOpen(true)}>{t('tickets.newTicket.title')}</Button>
        </Group>
      </Stack>
      <NewTicketDialog opened={open} onClose={() => setOpen(false)} contact={contact} />
    </Box>
  );
}
