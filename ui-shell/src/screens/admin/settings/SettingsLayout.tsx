import { Tabs } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { uiPluginsAtom, type UiSettingsTab } from '@atende/ui-shell/sdk';

type Group = UiSettingsTab['group'];
const GROUPS: Group[] = ['general', 'bots', 'integrations', 'crm', 'sessions'];

interface Page {
  path: string;
  group: Group;
  label: string;
  order: number;
  pluginId?: string;
}

/**
 * `/configuracoes`: the settings pages in the spec's groups (administration.md
 * §2: General, Bots and AI, Integrations, CRM, Sessions). "Geral" is the
 * shell's own; the others are tabs the remotes loaded for this tenant declare
 * (`settingsTabs`), so disabling a plugin removes its tab, and a group shows
 * only while it has a page.
 */
export default function SettingsLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { plugins } = useAtomValue(uiPluginsAtom);
  const pages: Page[] = [
    { path: '/configuracoes/geral', group: 'general' as const, label: 'admin.settings.pages.geral', order: 0 },
    ...plugins.flatMap((p) => (p.settingsTabs ?? []).map((tab) => ({ ...tab, pluginId: p.id }))),
  ].sort((a, b) => a.order - b.order);
  const current = pages.find((p) => pathname === p.path || pathname.startsWith(`${p.path}/`));
  const group = current?.group ?? 'general';
  const groups = GROUPS.filter((g) => pages.some((p) => p.group === g));
  const label = (p: Page) => (p.pluginId ? t(p.label, { ns: [p.pluginId, 'translation'] }) : t(p.label));
  return (
    <>
      {groups.length > 1 && (
        <Tabs value={group} onChange={(g) => { const first = pages.find((p) => p.group === g); if (first) navigate(first.path); }} mb="xs" variant="pills">
          <Tabs.List aria-label={t('admin.settings.groups.label')}>
            {groups.map((g) => <Tabs.Tab key={g} value={g}>{t(`admin.settings.groups.${g}`)}</Tabs.Tab>)}
          </Tabs.List>
        </Tabs>
      )}
      <Tabs value={current?.path ?? pathname} onChange={(v) => v && navigate(v)} mb="md" variant="outline">
        <Tabs.List aria-label={t('admin.settings.sections')}>
          {pages.filter((p) => p.group === group).map((p) => <Tabs.Tab key={p.path} value={p.path}>{label(p)}</Tabs.Tab>)}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
