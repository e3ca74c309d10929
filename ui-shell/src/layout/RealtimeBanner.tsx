import { Group, Loader, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { realtimeStatusAtom } from '@atende/ui-shell/sdk';

/** "Reconectando…" while no real-time events can flow (docs/ui.md "Feedback"). */
export function RealtimeBanner() {
  const status = useAtomValue(realtimeStatusAtom);
  const { t } = useTranslation();
  if (status !== 'reconnecting') return null;
  return (
    <Group
      role="status"
      gap="xs"
      justify="center"
      py={6}
      px="md"
      bg="var(--mantine-color-yellow-light)"
      style={{ borderBottom: '1px solid var(--mantine-color-yellow-outline)', position: 'sticky', top: 0, zIndex: 50 }}
    >
      <Loader size={14} color="yellow" />
      <Text size="sm" fw={500}>{t('realtime.reconnecting')}</Text>
    </Group>
  );
}
