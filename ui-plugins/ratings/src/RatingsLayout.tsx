import { Tabs } from '@mantine/core';
import { IconAdjustments, IconList } from '@tabler/icons-react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { PageHeader, usePluginTranslation } from '@atende/ui-shell/sdk';

/** `/avaliacoes`: the two tabs around `listar` and `configurar`. */
export default function RatingsLayout() {
  const { t } = usePluginTranslation('ratings');
  const navigate = useNavigate();
  const tab = useLocation().pathname.endsWith('/configurar') ? 'configurar' : 'listar';
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Tabs value={tab} onChange={(v) => v && navigate(`/avaliacoes/${v}`)} mb="md">
        <Tabs.List>
          <Tabs.Tab value="listar" leftSection={<IconList size={16} />} data-testid="ratings-tab-list">{t('tabList')}</Tabs.Tab>
          <Tabs.Tab value="configurar" leftSection={<IconAdjustments size={16} />} data-testid="ratings-tab-config">{t('tabConfig')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
