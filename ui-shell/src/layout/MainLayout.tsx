import { AppShell, Group, Skeleton, Text } from '@mantine/core';
import { useDisclosure, useLocalStorage, useMediaQuery } from '@mantine/hooks';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { WidgetSlot, useAccess } from '@atende/ui-shell/sdk';
import { AttentionBurger } from './AttentionBurger.tsx';
import { BrandMark } from './BrandMark.tsx';
import { NavRail } from './NavRail.tsx';
import { RealtimeBanner } from './RealtimeBanner.tsx';
import { TermsGate } from './TermsGate.tsx';
import { UserMenu } from './UserMenu.tsx';

/** The header zone passes no props: `WidgetSlot`'s props type reduces to `never` for an empty prop set, so name the zone alone. */
const HeaderWidgets = WidgetSlot as unknown as ComponentType<{ zone: 'layout.header' }>;

/** The main layout: header with tenant and user menu, the left rail, the screen. */
export function MainLayout() {
  const { t } = useTranslation();
  const access = useAccess();
  const [mobileOpen, mobile] = useDisclosure(false);
  const [stored, setCollapsed] = useLocalStorage({ key: 'atende-rail-collapsed', defaultValue: false });
  // On a phone the rail is a full-width drawer: always with labels.
  // Read at once, not in an effect: the effect's first answer re-rendered the whole screen under the layout (U1).
  const isMobile = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const collapsed = stored && !isMobile;

  return (
    <TermsGate>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: collapsed ? 72 : 256, breakpoint: 'sm', collapsed: { mobile: !mobileOpen } }}
        padding={0}
        transitionDuration={150}
      >
        <AppShell.Header px="md">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <AttentionBurger opened={mobileOpen} onClick={mobile.toggle} hiddenFrom="sm" size="sm" aria-label={t('layout.navigation')} />
              <BrandMark size={34} />
              <div>
                <Text fw={700} size="sm" lh={1.2}>{t('app.name')}</Text>
                {access ? (
                  <Text size="xs" c="dimmed" lh={1.2} truncate maw={220}>{access.tenant?.name}</Text>
                ) : (
                  <Skeleton height={10} width={120} mt={4} />
                )}
              </div>
            </Group>
            <Group gap="xs" wrap="nowrap">
              {/* Remotes' header widgets (e.g. the notifications badge) sit beside the user menu. */}
              <HeaderWidgets zone="layout.header" />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar>
          <NavRail collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} onNavigate={mobile.close} />
        </AppShell.Navbar>
        <AppShell.Main bg="var(--mantine-color-body)">
          <RealtimeBanner />
          <div style={{ padding: 'var(--mantine-spacing-lg)' }}>
            <Outlet />
          </div>
        </AppShell.Main>
      </AppShell>
    </TermsGate>
  );
}
