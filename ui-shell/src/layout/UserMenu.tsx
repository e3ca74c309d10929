import { Avatar, Box, Group, Indicator, Switch, Text, UnstyledButton, VisuallyHidden, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconBell, IconBellOff, IconCheck, IconChevronDown, IconLanguage, IconLogout, IconMoon, IconSun, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api, desktopPermission, playSound, requestDesktopPermission, sessionAtom, updateSession, type UserConfigs } from '@atende/ui-shell/sdk';
import { Menu } from '../ui/overlays.tsx';
import { LANGUAGES, changeLanguage, type LanguageCode } from '../i18n/index.ts';
import { logout } from '../shell/logout.ts';
import { PresenceMenuItems, PRESENCE_COLOURS, notifyPresenceError, usePresence, type PresenceStatus } from './PresenceMenu.tsx';
import { OnFirstOpen } from '../ui/deferred.tsx';

const PauseDialog = lazy(() => import('./PauseDialog.tsx').then((m) => ({ default: m.PauseDialog })));

function initials(name: string | undefined): string {
  const parts = (name ?? '?').trim().split(/\s+/);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? parts[parts.length - 1]![0] : '')).toUpperCase();
}

/** Avatar with online status; status, language, dark mode and logout (docs/ui.md "Navigation"). */
export function UserMenu({ compact = false, position = 'bottom-end' }: { compact?: boolean; position?: 'bottom-end' | 'right-end' }) {
  const { t, i18n } = useTranslation();
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const presence = usePresence(session?.userId);
  const [pausing, setPausing] = useState(false);
  const [permission, setPermission] = useState(desktopPermission);
  if (!session) return null;

  /** A preference of the user menu, kept on the server with the user (`configs`). */
  const saveConfig = (patch: UserConfigs) => {
    updateSession({ configs: { ...session.configs, ...patch } });
    void api.put(`/users/${session.userId}/configs`, patch, { background: true }).catch(() => undefined);
  };
  const soundsOn = session.configs?.sounds !== false;
  const toggleSounds = () => {
    saveConfig({ sounds: !soundsOn });
    // Turning them on plays one, so the user hears what to expect (and the browser has its click to allow audio).
    if (!soundsOn) requestAnimationFrame(() => playSound('message'));
  };
  const notificationsOn = permission === 'granted' && session.configs?.desktopNotifications !== false;
  const toggleNotifications = async () => {
    if (permission === 'granted') return saveConfig({ desktopNotifications: !notificationsOn });
    const answer = await requestDesktopPermission();
    setPermission(answer);
    if (answer === 'granted') saveConfig({ desktopNotifications: true });
  };

  const toggleDark = () => {
    const isDark = scheme !== 'dark';
    setColorScheme(isDark ? 'dark' : 'light');
    updateSession({ configs: { ...session.configs, isDark } });
    void api.put(`/users/${session.userId}/configs`, { isDark }, { background: true }).catch(() => undefined);
  };
  const pickPresence = (s: PresenceStatus) => {
    if (s === 'paused') return setPausing(true);
    presence.set(s).catch(notifyPresenceError);
  };
  const signOut = async () => {
    await logout();
    navigate('/login', { replace: true });
  };

  return (
    <>
    <OnFirstOpen opened={pausing}>{(opened) => <PauseDialog opened={opened} onClose={() => setPausing(false)} onConfirm={(reason) => presence.set('paused', reason)} />}</OnFirstOpen>
    <Menu width={260} position={position} shadow="md" withinPortal>
      <Menu.Target>
        {/* Named by what it shows (initials, name, profile) and what it is, so the spoken name includes the visible text. */}
        <UnstyledButton px={6} py={4} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <VisuallyHidden>{t('layout.userMenu')}</VisuallyHidden>
          <Group gap="sm" wrap="nowrap">
            <Indicator color={PRESENCE_COLOURS[presence.status]} offset={5} position="bottom-end" size={10} withBorder data-testid="presence-indicator" data-status={presence.status}>
              <Avatar radius="xl" color="brand" variant="filled" size={34}>{initials(session.username)}</Avatar>
            </Indicator>
            {!compact && (
              <>
                <Box visibleFrom="sm" maw={180}>
                  <Text size="sm" fw={600} truncate>{session.username}</Text>
                  <Text size="xs" c="dimmed" truncate>{t(`profiles.${session.profile}`)}</Text>
                </Box>
                <IconChevronDown size={14} stroke={1.6} />
              </>
            )}
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{session.email}</Menu.Label>
        <PresenceMenuItems status={presence.status} pauseReason={presence.pauseReason} onPick={pickPresence} />
        <Menu.Divider />
        <Menu.Item leftSection={scheme === 'dark' ? <IconSun size={16} /> : <IconMoon size={16} />} onClick={toggleDark}>
          {scheme === 'dark' ? t('layout.lightMode') : t('layout.darkMode')}
        </Menu.Item>
        <Menu.Item leftSection={soundsOn ? <IconVolume size={16} /> : <IconVolumeOff size={16} />} closeMenuOnClick={false} onClick={toggleSounds}
          rightSection={<Switch size="xs" checked={soundsOn} readOnly tabIndex={-1} aria-hidden />} data-testid="menu-sounds" aria-pressed={soundsOn}>
          {t('attention.sounds')}
        </Menu.Item>
        {permission !== 'unsupported' && (
          <Menu.Item leftSection={notificationsOn ? <IconBell size={16} /> : <IconBellOff size={16} />} closeMenuOnClick={false} onClick={() => void toggleNotifications()}
            disabled={permission === 'denied'} rightSection={permission === 'denied' ? undefined : <Switch size="xs" checked={notificationsOn} readOnly tabIndex={-1} aria-hidden />}
            data-testid="menu-desktop-notifications" aria-pressed={notificationsOn}>
            {permission === 'denied' ? t('attention.desktopBlocked') : t('attention.desktop')}
          </Menu.Item>
        )}
        <Menu.Sub position="left-start">
          <Menu.Sub.Target>
            <Menu.Sub.Item leftSection={<IconLanguage size={16} />}>{t('layout.language')}</Menu.Sub.Item>
          </Menu.Sub.Target>
          <Menu.Sub.Dropdown>
            {LANGUAGES.map((l) => (
              <Menu.Item key={l.code} onClick={() => void changeLanguage(l.code as LanguageCode)} rightSection={i18n.language === l.code ? <IconCheck size={14} /> : null}>
                {l.label}
              </Menu.Item>
            ))}
          </Menu.Sub.Dropdown>
        </Menu.Sub>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>{t('layout.logout')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
    </>
  );
}
