import { Anchor, CloseButton, Group, Text, ThemeIcon } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, desktopPermission, getSession, requestDesktopPermission, updateSession } from '@atende/ui-shell/sdk';

const DISMISSED_KEY = 'atende.desktopNotifications.dismissed';

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * WhatsApp Web's offer above the list: desktop notifications, so a customer
 * who writes while the agent is in another window is not missed. The browser
 * is asked only when the agent clicks (never on page load); "not now" is
 * remembered in this browser, and the user menu keeps the switch.
 */
export function NotificationsBanner() {
  const { t } = useTranslation();
  const [hidden, setHidden] = useState(() => desktopPermission() !== 'default' || dismissedBefore());
  if (hidden) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, new Date().toISOString());
    } catch {
      // Storage refused: the banner comes back on the next visit only.
    }
    setHidden(true);
  };
  const enable = async () => {
    const answer = await requestDesktopPermission();
    const session = getSession();
    if (answer === 'granted' && session) {
      updateSession({ configs: { ...session.configs, desktopNotifications: true } });
      void api.put(`/users/${session.userId}/configs`, { desktopNotifications: true }, { background: true }).catch(() => undefined);
    }
    if (answer !== 'default') setHidden(true);
  };
  return (
    <Group gap="sm" wrap="nowrap" px="md" py={10} role="region" aria-label={t('attention.bannerTitle')} data-testid="notifications-banner"
      style={{ background: 'var(--mantine-color-blue-light)', borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <ThemeIcon radius="xl" size={38} color="blue.8" variant="filled" aria-hidden><IconBellRinging size={20} /></ThemeIcon>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" fw={600}>{t('attention.bannerTitle')}</Text>
        <Anchor component="button" type="button" size="sm" c="var(--mantine-color-blue-light-color)" underline="always" onClick={() => void enable()} data-testid="notifications-enable">{t('attention.bannerAction')}</Anchor>
      </div>
      <CloseButton size="sm" aria-label={t('attention.bannerLater')} title={t('attention.bannerLater')} onClick={dismiss} />
    </Group>
  );
}
