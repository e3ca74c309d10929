import { Tabs } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { uiPluginsAtom } from '@atende/ui-shell/sdk';

/**
 * `/configuracoes`: the settings pages as tabs. "Geral" is the shell's own;
 * the others appear only while a plugin loaded for this tenant provides them,
 * so disabling a plugin removes its tab (and its route shows not-found).
 */
export default function SettingsLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { plugins } = useAtomValue(uiPluginsAtom);
  const pages = ['/configuracoes/geral', ...plugins.flatMap((p) => p.routes.map((r) => r.path)).filter((p) => p.startsWith('/configuracoes/') && p !== '/configuracoes/geral')];
  const label = (path: string) => {
    const seg = path.slice('/configuracoes/'.length);
    return t(`admin.settings.pages.${seg}`, { defaultValue: seg });
  };
  return (
    <>
      <Tabs value={pathname} onChange={(v) => v && navigate(v)} mb="md" variant="outline">
        <Tabs.List aria-label={t('admin.settings.sections')}>
          {pages.map((p) => <Tabs.Tab key={p} value={p}>{label(p)}</Tabs.Tab>)}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
