import { Loader, Paper } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { busyAtom } from '@atende/ui-shell/sdk';

/** The spec's global busy spinner (shown by the API client's timing rules). */
export function BusyIndicator() {
  const busy = useAtomValue(busyAtom);
  const { t } = useTranslation();
  if (!busy) return null;
  return (
    <Paper shadow="sm" radius="xl" p={6} withBorder pos="fixed" bottom={16} right={16} style={{ zIndex: 3000 }} role="status" aria-label={t('app.busy')}>
      <Loader size={18} />
    </Paper>
  );
}
