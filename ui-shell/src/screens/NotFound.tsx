import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BrandMark } from '../layout/BrandMark.tsx';

/**
 * Any path the spec does not list, and any listed route whose screen is not
 * available (yet) for this user. `standalone` fills the window (outside the layout).
 */
export function NotFound({ standalone = false }: { standalone?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center mih={standalone ? '100vh' : '60vh'} px="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        {standalone && <BrandMark size={44} />}
        <Text fz={64} fw={800} lh={1} c="brand" style={{ letterSpacing: -2 }}>404</Text>
        <Title order={3}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.text')}</Text>
        <Button component={Link} to="/" variant="light" leftSection={<IconArrowLeft size={16} />} mt="xs">
          {t('notFound.back')}
        </Button>
      </Stack>
    </Center>
  );
}

export default NotFound;
