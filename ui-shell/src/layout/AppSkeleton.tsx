import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BrandMark } from './BrandMark.tsx';

/** First paint while the router resolves the initial route (`hydrateFallbackElement`). */
export function AppSkeleton() {
  const { t } = useTranslation();
  return (
    <Center h="100vh">
      <Stack align="center" gap="md">
        <BrandMark size={48} />
        <Loader type="dots" size="sm" />
        <Text size="sm" c="dimmed">{t('app.loading')}</Text>
      </Stack>
    </Center>
  );
}
