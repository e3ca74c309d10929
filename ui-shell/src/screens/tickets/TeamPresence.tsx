import { ActionIcon } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Tooltip } from '../../ui/overlays.tsx';
import { OnFirstOpen } from '../../ui/deferred.tsx';

const TeamDrawer = lazy(() => import('./TeamDrawer.tsx').then((m) => ({ default: m.TeamDrawer })));

/**
 * Supervisors' view of the team (U2 "presence"): who is online, on a pause (and
 * why, since when) or offline, their queues and their load, kept live by the
 * socket (status changes and ticket moves). The button is in the ticket list's
 * header; the drawer's code loads when it first opens.
 */
export function TeamPresenceButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip label={t('presence.team')}>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('presence.team')} onClick={() => setOpen(true)} data-testid="team-presence"><IconUsersGroup size={20} /></ActionIcon>
      </Tooltip>
      <OnFirstOpen opened={open}>{(opened) => <TeamDrawer opened={opened} onClose={() => setOpen(false)} />}</OnFirstOpen>
    </>
  );
}
