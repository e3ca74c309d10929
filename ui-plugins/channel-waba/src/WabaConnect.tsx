import { ActionIcon, Button, Code, CopyButton, Group, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBox, formatDateTime, notify, usePluginTranslation, useRealtime, type ChannelConnectProps } from '@atende/ui-shell/sdk';
import { callbackUrlOf, getWebhookInfo, listTemplates, syncTemplates, templatesKey, webhookKey } from './api.ts';

/**
 * The WABA connect panel: a webhook channel has no QR code, so this shows
 * what the admin pastes in Meta's app dashboard (the callback URL and the
 * verify token, each with a copy button) and the message templates synced
 * from the account with a button to sync them again. The shell's dialog
 * around it shows the live status and the last error (for refused data,
 * "Dados WABA incorretos" with what to check).
 */
export default function WabaConnect({ channel }: ChannelConnectProps) {
  const { t, i18n } = usePluginTranslation('channel-waba');
  const qc = useQueryClient();
  const info = useQuery({ queryKey: webhookKey(channel.id), queryFn: ({ signal }) => getWebhookInfo(channel.id, signal) });
  const templates = useQuery({ queryKey: templatesKey(channel.id), queryFn: ({ signal }) => listTemplates(channel.id, signal), enabled: channel.status === 'connected' });
  // Connecting queues a sync that may finish after the list was read: show its result when it lands.
  useRealtime<{ channelId: number }>('waba_templates.synced', (e) => {
    if (e.channelId === channel.id) void qc.invalidateQueries({ queryKey: templatesKey(channel.id) });
  });
  const sync = useMutation({
    mutationFn: () => syncTemplates(channel.id),
    onSuccess: (r) => {
      notify.success(t('templatesSynced', { count: r.count }));
      void qc.invalidateQueries({ queryKey: templatesKey(channel.id) });
    },
  });
  const approved = templates.data?.templates.filter((x) => x.status === 'APPROVED').length ?? 0;

  return (
    <Stack gap="md" data-testid="waba-connect">
      <Paper withBorder radius="md" p="md">
        <Text fw={600} size="sm">{t('webhookTitle')}</Text>
        <Text size="xs" c="dimmed" mb="sm">{t('webhookSteps')}</Text>
        {info.isLoading ? (
          <Stack gap="xs"><Skeleton h={34} /><Skeleton h={34} /></Stack>
        ) : info.error ? (
          <ErrorBox compact error={info.error} onRetry={() => void info.refetch()} />
        ) : info.data ? (
          <Stack gap="xs">
            <CopyRow label={t('callbackUrl')} value={callbackUrlOf(info.data)} copy={t('copy')} copied={t('copied')} testId="waba-callback-url" />
            {info.data.verifyToken && <CopyRow label={t('verifyToken')} value={info.data.verifyToken} copy={t('copy')} copied={t('copied')} testId="waba-verify-token-value" />}
            <Text size="xs" c="dimmed">{t('subscribeHint')}</Text>
          </Stack>
        ) : null}
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text fw={600} size="sm">{t('templatesTitle')}</Text>
            <Text size="xs" c="dimmed" data-testid="waba-templates-summary">
              {channel.status !== 'connected'
                ? t('templatesWhenConnected')
                : templates.isLoading
                  ? t('loading')
                  : templates.data?.syncedAt
                    ? t('templatesSummary', { count: templates.data.templates.length, approved, date: formatDateTime(templates.data.syncedAt, i18n.language) })
                    : t('templatesNone')}
            </Text>
          </div>
          <Button size="xs" variant="light" style={{ flexShrink: 0 }} leftSection={<IconRefresh size={14} />} loading={sync.isPending} disabled={channel.status !== 'connected'} onClick={() => sync.mutate()} data-testid="waba-sync-templates">
            {t('syncTemplates')}
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}

function CopyRow({ label, value, copy, copied, testId }: { label: string; value: string; copy: string; copied: string; testId: string }) {
  return (
    <div>
      <Text size="xs" fw={500} mb={2}>{label}</Text>
      <Group gap={6} wrap="nowrap">
        <Code block style={{ flex: 1, overflowX: 'auto', whiteSpace: 'nowrap', padding: '6px 10px' }} data-testid={testId}>{value}</Code>
        <CopyButton value={value} timeout={1500}>
          {({ copied: done, copy: doCopy }) => (
            <Tooltip label={done ? copied : copy} withArrow>
              <ActionIcon variant="light" color={done ? 'teal' : 'gray'} size="lg" onClick={doCopy} aria-label={`${copy}: ${label}`}>
                {done ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </div>
  );
}
