import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Shown when even the fallback page is not allowed (core.md §6). */
export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" px="md">
      <Stack align="center" gap="sm" maw={440} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="orange"><IconLock size={28} stroke={1.6} /></ThemeIcon>
        <Title order={3}>{t('session.accessDenied')}</Title>
        <Text c="dimmed">{t('session.accessDeniedPage')}</Text>
      </Stack>
    </Center>
  );
}
