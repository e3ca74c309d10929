import { Button, Group, SegmentedControl, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { PageHeader, sessionAtom, usePluginTranslation } from '@atende/ui-shell/sdk';
import type { BoardContext } from './BoardPage.tsx';

/** `/kanban`: the board's frame — the lanes/tags switch, the search and, for who may edit them, the lanes. */
export default function KanbanLayout() {
  const { t } = usePluginTranslation('kanban');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useAtomValue(sessionAtom);
  const [text, setText] = useState('');
  const [search] = useDebouncedValue(text.trim(), 300);
  const view = pathname.endsWith('/tags') ? '/kanban/tags' : '/kanban/kanbans';
  const canEditLanes = session?.profile !== 'user';
  const context: BoardContext = { search };
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canEditLanes && (
            <Button variant="default" leftSection={<IconAdjustmentsHorizontal size={16} />} onClick={() => navigate('/lanes')}>
              {t('manageLanes')}
            </Button>
          )
        }
      />
      <Group justify="space-between" mb="md" gap="sm">
        <SegmentedControl
          value={view}
          onChange={(v) => navigate(v)}
          data={[
            { value: '/kanban/kanbans', label: t('viewLanes') },
            { value: '/kanban/tags', label: t('viewTags') },
          ]}
          aria-label={t('viewLabel')}
        />
        <TextInput
          w={320}
          leftSection={<IconSearch size={16} />}
          placeholder={t('search')}
          aria-label={t('search')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
      </Group>
      <Outlet context={context} />
    </>
  );
}
