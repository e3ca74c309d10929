import { Box, Group, Stack } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { WidgetSlot } from '@atende/ui-shell/sdk';
import { AttentionBurger } from './AttentionBurger.tsx';
import { BrandMark } from './BrandMark.tsx';
import { NavRail } from './NavRail.tsx';
import { RealtimeBanner } from './RealtimeBanner.tsx';
import { TermsGate } from './TermsGate.tsx';
import { UserMenu } from './UserMenu.tsx';
import { OnFirstOpen } from '../ui/deferred.tsx';

// The phone's menu drawer is fetched when the burger first opens it (U1).
const PhoneMenuDrawer = lazy(() => import('./PhoneMenuDrawer.tsx'));

const HeaderWidgets = WidgetSlot as unknown as ComponentType<{ zone: 'layout.header' }>;
/** Height of the phone's top bar: the screens below size themselves with `--standalone-top`. */
const PHONE_BAR = 48;

/**
 * Logged-in screens that use the whole window (ticket screen, private chat, reports).
 * Agents spend the day here, so the menus, the notifications and the user menu
 * (status, language, dark mode, logout) stay one click away: a slim icon rail on the
 * left, or on a phone a thin bar whose burger opens the full menu.
 */
export function StandaloneLayout() {
  const { t } = useTranslation();
  // Read at once, not in an effect: the effect's first answer re-rendered the whole screen under the layout (U1).
  const isPhone = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const [opened, drawer] = useDisclosure(false);
  return (
    <TermsGate>
      <Box style={{ display: 'flex', minHeight: '100dvh', ['--standalone-top' as string]: isPhone ? `${PHONE_BAR}px` : '0px' }}>
        {!isPhone && (
          <Stack
            component="aside"
            gap={0}
            w={72}
            h="100dvh"
            style={{ flexShrink: 0, position: 'sticky', top: 0, borderRight: '1px solid var(--mantine-color-default-border)', background: 'var(--mantine-color-body)' }}
            data-testid="standalone-rail"
          >
            <Group h={60} justify="center"><BrandMark size={34} /></Group>
            <Box flex={1} mih={0}><NavRail collapsed /></Box>
            <Stack gap={6} align="center" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
              <HeaderWidgets zone="layout.header" />
              <UserMenu compact position="right-end" />
            </Stack>
          </Stack>
        )}
        <Box component="main" style={{ flex: 1, minWidth: 0 }}>
          {isPhone && (
            <Group h={PHONE_BAR} px="sm" justify="space-between" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
              <Group gap="xs" wrap="nowrap">
                <AttentionBurger opened={opened} onClick={drawer.toggle} size="sm" aria-label={t('layout.navigation')} />
                <BrandMark size={28} />
              </Group>
              <Group gap={4} wrap="nowrap">
                <HeaderWidgets zone="layout.header" />
                <UserMenu compact />
              </Group>
            </Group>
          )}
          <RealtimeBanner />
          <Outlet />
        </Box>
      </Box>
      {isPhone && <OnFirstOpen opened={opened}>{(o) => <PhoneMenuDrawer opened={o} onClose={drawer.close} />}</OnFirstOpen>}
    </TermsGate>
  );
}
