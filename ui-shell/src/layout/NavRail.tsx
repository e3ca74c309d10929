import { Badge, Divider, Indicator, NavLink, ScrollArea, Stack, Text, UnstyledButton, Group, VisuallyHidden } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { attentionAtom, sessionAtom, uiPluginsAtom, useAccess } from '@atende/ui-shell/sdk';
import { Tooltip } from '../ui/overlays.tsx';
import { visibleGroups, type NavItem } from './menu.ts';

function isActive(pathname: string, item: NavItem): boolean {
  return pathname === item.path || pathname.startsWith(`${item.path}/`);
}

function RailLink({ item, collapsed, active, onNavigate }: { item: NavItem; collapsed: boolean; active: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const label = item.pluginId ? t(item.label, { ns: [item.pluginId, 'translation'] }) : t(item.label);
  // Things waiting there (unread tickets, internal messages): a badge, as messaging apps show.
  const waiting = useAtomValue(attentionAtom)[item.key] ?? 0;
  const shown = waiting > 99 ? '99+' : String(waiting);
  const Icon = item.icon;
  const icon = <Icon size={20} stroke={1.6} />;
  const link = (
    <NavLink
      component={Link}
      to={item.path}
      onClick={onNavigate}
      active={active}
      label={collapsed ? undefined : label}
      // Icons only: the name says it all; with labels, the visible label and badge name it (axe: label-content-name-mismatch).
      aria-label={collapsed ? (waiting ? t('attention.railLabel', { label, n: shown }) : label) : undefined}
      leftSection={collapsed && waiting ? <Indicator label={shown} size={16} color="red.8" offset={2} data-testid={`rail-badge-${item.key}`}>{icon}</Indicator> : icon}
      rightSection={!collapsed && waiting ? (
        <Badge size="sm" color="red.8" variant="filled" circle={waiting < 10} data-testid={`rail-badge-${item.key}`}>
          {shown}<VisuallyHidden> {t('attention.waiting')}</VisuallyHidden>
        </Badge>
      ) : undefined}
      variant="light"
      styles={{
        root: { borderRadius: 'var(--mantine-radius-md)', paddingBlock: 7, justifyContent: collapsed ? 'center' : undefined },
        section: collapsed ? { marginInlineEnd: 0 } : undefined,
        label: { fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500 },
      }}
    />
  );
  return collapsed ? <Tooltip label={label} position="right" withArrow openDelay={150}>{link}</Tooltip> : link;
}

/** Left rail grouped as the spec's menus; collapsible to icons. */
export function NavRail({ collapsed, onToggle, onNavigate }: { collapsed: boolean; onToggle?: () => void; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const access = useAccess();
  const session = useAtomValue(sessionAtom);
  // The access map is the server's word on the profile; the stored session is only a fallback.
  const { plugins } = useAtomValue(uiPluginsAtom);
  const groups = visibleGroups(access, access?.user?.profile ?? session?.profile, plugins);
  return (
    <Stack h="100%" gap={0}>
      <ScrollArea flex={1} type="scroll" px={collapsed ? 8 : 'sm'} py="sm">
        <Stack gap="md" component="nav" aria-label={t('layout.navigation')}>
          {groups.map((g, gi) => (
            <Stack key={g.key} gap={2}>
              {collapsed
                ? gi > 0 && <Divider my={4} />
                : <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4} style={{ letterSpacing: 0.6 }}>{t(`menuGroups.${g.key}`)}</Text>}
              {g.items.map((item) => (
                <RailLink key={item.key} item={item} collapsed={collapsed} active={isActive(pathname, item)} onNavigate={onNavigate} />
              ))}
            </Stack>
          ))}
        </Stack>
      </ScrollArea>
      {onToggle && <Divider />}
      {onToggle && (
      <UnstyledButton onClick={onToggle} p="sm" aria-label={collapsed ? t('layout.expand') : t('layout.collapse')} visibleFrom="sm">
        <Group gap="sm" justify={collapsed ? 'center' : 'flex-start'} c="dimmed">
          {collapsed ? <IconLayoutSidebarLeftExpand size={20} stroke={1.6} /> : <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} />}
          {!collapsed && <Text size="sm">{t('layout.collapse')}</Text>}
        </Group>
      </UnstyledButton>
      )}
    </Stack>
  );
}
