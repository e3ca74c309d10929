import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@atende/ui-shell/sdk';

/** Why the agent pauses (U2 "presence"): its own module, fetched the first time someone pauses (docs/performance.md U1). */
export function PauseDialog({ opened, onClose, onConfirm }: { opened: boolean; onClose: () => void; onConfirm: (reason: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!reason.trim()) return setError(t('presence.reasonRequired'));
    setBusy(true);
    try {
      await onConfirm(reason.trim());
      setReason('');
      setError(null);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('presence.pauseTitle')} centered size="sm">
      <Stack>
        <Text size="sm" c="dimmed">{t('presence.pauseHint')}</Text>
        <TextInput
          label={t('presence.reason')}
          withAsterisk
          value={reason}
          onChange={(e) => { setReason(e.currentTarget.value); setError(null); }}
          error={error}
          maxLength={120}
          data-autofocus
          data-testid="pause-reason"
          onKeyDown={(e) => { if (e.key === 'Enter') void submit(); }}
        />
        {/* The usual reasons in one click (buttons, not a dropdown over the dialog's actions). */}
        <Group gap={6} mt={-6}>
          {(['lunch', 'break', 'meeting', 'training'] as const).map((k) => (
            <Button key={k} size="compact-xs" variant={reason === t(`presence.reasons.${k}`) ? 'filled' : 'light'} color="gray" radius="xl" onClick={() => { setReason(t(`presence.reasons.${k}`)); setError(null); }} data-testid={`pause-reason-${k}`}>
              {t(`presence.reasons.${k}`)}
            </Button>
          ))}
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
          <Button color="yellow.8" onClick={() => void submit()} loading={busy} data-testid="pause-confirm">{t('presence.pause')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
