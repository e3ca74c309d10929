import { Button, Menu } from '@mantine/core';
import { IconCheck, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, changeLanguage, type LanguageCode } from '../../i18n/index.ts';

/** The auth pages' language menu, loaded on first use (see `LanguagePicker` in AuthLayout.tsx); it opens as it mounts. */
export default function LanguageMenu() {
  const { i18n, t } = useTranslation();
  const current = LANGUAGES.find((l) => l.code === i18n.language) ?? LANGUAGES[0];
  return (
    <Menu position="bottom-end" shadow="md" width={220} defaultOpened>
      <Menu.Target>
        <Button variant="subtle" color="gray" size="xs" leftSection={<IconWorld size={16} stroke={1.6} />} aria-label={`${t('layout.language')}: ${current.label}`}>
          {current.label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((l) => (
          <Menu.Item key={l.code} onClick={() => void changeLanguage(l.code as LanguageCode)} rightSection={l.code === current.code ? <IconCheck size={14} /> : null}>
            {l.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
