import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  opened: boolean;
  title?: string;
  message: string;
  confirmLabel?: string;
  /** Red confirm button for destructive actions (default true). */
  danger?: boolean;
  /** May return a promise: the button shows a spinner and the dialog closes when it resolves. */
  onConfirm: () => unknown;
  onClose: () => void;
}

/** Asks before doing something that cannot be undone; Esc and Cancel close it. */
export function ConfirmDialog({ opened, title, message, confirmLabel, danger = true, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch {
      // The API client already explained the failure; keep the dialog open to retry.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title ?? t('confirm.title')} centered radius="md">
      <Text size="sm">{message}</Text>
      <Group justify="flex-end" mt="lg" gap="xs">
        <Button variant="default" onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
        <Button color={danger ? 'red' : undefined} onClick={confirm} loading={busy} data-autofocus>
          {confirmLabel ?? t('common.confirm')}
        </Button>
      </Group>
    </Modal>
  );
}
