import { Button, Center, Stack } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { ErrorBox } from '@atende/ui-shell/sdk';
import { logout } from '../shell/logout.ts';
import { BrandMark } from './BrandMark.tsx';

/**
 * A loader failed (typically the server is down while checking access): the
 * layout cannot be drawn, so say why, offer a retry, and a way out to login.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error('Route error', error);
  const leave = async () => {
    await logout({ silent: true });
    window.location.hash = '#/login';
  };
  return (
    <Center mih="100vh" px="md">
      <Stack align="center" gap={0}>
        <BrandMark size={44} />
        <ErrorBox error={error} onRetry={() => window.location.reload()} />
        <Button variant="subtle" color="gray" size="xs" leftSection={<IconLogout size={14} />} onClick={() => void leave()} mt={-32}>
          {t('layout.logout')}
        </Button>
      </Stack>
    </Center>
  );
}
