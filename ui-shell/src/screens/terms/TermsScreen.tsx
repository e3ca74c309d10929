import { Alert, Box, Button, Center, Checkbox, Group, Loader, Paper, ScrollArea, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClockHour4, IconFileText, IconLogout, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accessQuery, api, errorMessage, notify, queryClient, type AccessInfo } from '@atende/ui-shell/sdk';
import { BrandMark } from '../../layout/BrandMark.tsx';
import { logout } from '../../shell/logout.ts';

/** Answer of `GET /api/tenants/terms` (reachable before acceptance). */
interface TermsAnswer {
  accepted: boolean;
  acceptedAt: string | null;
  version: string;
  text: string;
}

/** While someone waits for the superadmin, the access map is asked again this often: the page goes on by itself. */
export const TERMS_RECHECK_MS = 15_000;

/**
 * "Accept the terms of use to continue" (core.md §6, administration.md §8):
 * shown instead of every logged-in screen while the install's terms are not
 * accepted. Only the superadmin accepts them; everyone else reads them and is
 * told to ask, and continues as soon as they are accepted.
 */
export default function TermsScreen({ access }: { access: AccessInfo }) {
  const { t } = useTranslation();
  const [agreed, setAgreed] = useState(false);
  const superadmin = access.superadmin;
  const terms = useQuery({
    queryKey: ['tenants', 'terms'],
    queryFn: ({ signal }) => api.get<TermsAnswer>('/tenants/terms', { signal, silent: true }),
  });
  // Others wait: the access map is refreshed until the superadmin has accepted.
  useQuery({ ...accessQuery, refetchInterval: superadmin ? false : TERMS_RECHECK_MS, refetchIntervalInBackground: true });
  const accept = useMutation({
    mutationFn: () => api.post<TermsAnswer>('/tenants/terms/accept', undefined, { silent: true }),
    onSuccess: async () => {
      notify.success(t('terms.accepted'));
      await queryClient.invalidateQueries({ queryKey: accessQuery.queryKey });
    },
    onError: (e) => notify.error(errorMessage(e)),
  });
  const recheck = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...accessQuery, staleTime: 0 }),
    onSuccess: (a) => {
      if (!a.tenant.termsAccepted) notify.warning(t('terms.stillPending'));
    },
  });

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-light)" data-testid="terms-screen">
      <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 36 }} w="100%" maw={760}>
        <Stack gap="lg">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Group gap="md" wrap="nowrap">
              <BrandMark size={44} />
              <div>
                <Title order={2} fz={24}>{t('terms.title')}</Title>
                <Text c="dimmed" size="sm">{t('errors.ERR_TERMS_NOT_ACCEPTED')}</Text>
              </div>
            </Group>
            <Button variant="subtle" color="gray" size="xs" leftSection={<IconLogout size={15} />} onClick={() => void logout().then(() => { window.location.hash = '#/login'; })}>
              {t('terms.logout')}
            </Button>
          </Group>

          {!superadmin && (
            <Alert color="orange" variant="light" radius="md" icon={<IconClockHour4 size={20} />} title={t('terms.waitTitle')} data-testid="terms-wait">
              <Text size="sm">{t('errors.ERR_TERMS_SUPERADMIN_ONLY')}</Text>
              <Text size="sm" c="dimmed" mt={4}>{t('terms.waitAuto')}</Text>
            </Alert>
          )}

          <Box>
            <Group gap={8} mb={8}>
              <ThemeIcon variant="light" size={26} radius="md"><IconFileText size={16} /></ThemeIcon>
              <Text fw={600} size="sm">{t('terms.document')}</Text>
              {terms.data && <Text size="xs" c="dimmed">{t('terms.version', { version: terms.data.version })}</Text>}
            </Group>
            <Paper withBorder radius="md" bg="var(--mantine-color-body)">
              <ScrollArea.Autosize mah="min(46vh, 420px)" type="auto" offsetScrollbars>
                <Box p="md" data-testid="terms-text">
                  {terms.isPending ? (
                    <Center py="xl"><Loader size="sm" /></Center>
                  ) : terms.isError ? (
                    <Group justify="space-between">
                      <Text size="sm" c="red">{t('terms.loadFailed')}</Text>
                      <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => void terms.refetch()}>{t('common.retry')}</Button>
                    </Group>
                  ) : (
                    terms.data.text.split('\n').map((line, i) =>
                      i === 0 ? <Text key={i} fw={700} mb="sm">{line}</Text> : line ? <Text key={i} size="sm" mb={8} lh={1.6}>{line}</Text> : null,
                    )
                  )}
                </Box>
              </ScrollArea.Autosize>
            </Paper>
          </Box>

          {superadmin ? (
            <Group justify="space-between" wrap="wrap" gap="md">
              <Checkbox label={t('terms.agree')} checked={agreed} onChange={(e) => setAgreed(e.currentTarget.checked)} disabled={!terms.data} data-testid="terms-agree" />
              <Button size="md" disabled={!agreed || !terms.data} loading={accept.isPending} onClick={() => accept.mutate()} data-testid="terms-accept">
                {t('terms.accept')}
              </Button>
            </Group>
          ) : (
            <Group justify="flex-end">
              <Button variant="default" leftSection={<IconRefresh size={16} />} loading={recheck.isPending} onClick={() => recheck.mutate()} data-testid="terms-recheck">
                {t('terms.checkAgain')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
