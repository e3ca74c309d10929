import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isEmail, notify } from '@atende/ui-shell/sdk';

/** Asks for the account email and requests a recovery link (`POST /api/password-reset`). */
export function ForgotPasswordDialog({ opened, onClose, initialEmail }: { opened: boolean; onClose: () => void; initialEmail: string }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const send = async () => {
    const value = email.trim();
    if (!isEmail(value)) {
      setError(t('validation.email'));
      return;
    }
    setSending(true);
    try {
      await api.post('/password-reset', { email: value }, { silent: true });
      notify.success(t('forgot.sent'));
      onClose();
    } catch {
      notify.error(t('forgot.error'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('forgot.title')} centered>
      <form onSubmit={(e) => { e.preventDefault(); void send(); }} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">{t('forgot.text')}</Text>
          <TextInput
            label={t('login.email')}
            type="email"
            autoComplete="email"
            leftSection={<IconMail size={16} />}
            value={email}
            onChange={(e) => { setEmail(e.currentTarget.value); setError(null); }}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={sending}>{t('forgot.submit')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
