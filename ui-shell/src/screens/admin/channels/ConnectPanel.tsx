/**
 * Connecting a channel: the remote's own panel when its plugin gives one
 * (`UiChannelType.connect`), otherwise the shell's default — the QR code,
 * redrawn as the provider rotates it, or a pairing code, with status,
 * retries and the last error, all live from `channel.updated`.
 */
import { Alert, Button, Center, Group, Loader, Modal, Paper, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconPlugConnected, IconPlugConnectedX, IconQrcode } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary, ErrorBox, errorMessage, type ChannelConnectProps, type ChannelConnectState } from '@atende/ui-shell/sdk';
import { connectChannel, disconnectChannel, requestPairingCode, type Channel, type ChannelType } from './api.ts';
import { ChannelTypeIcon, RelativeTime, StatusBadge } from './visuals.tsx';
import classes from './channels.module.css';

function connectState(c: Channel): ChannelConnectState {
  return { id: c.id, type: c.type, name: c.name, number: c.number, status: c.status, qrcode: c.qrcode, pairingCode: c.pairingCode, retries: c.retries, lastError: c.lastError };
}

/** The shell's default panel: QR code or pairing code, status, retries, last error. */
export function DefaultConnectPanel({ channel, type }: { channel: Channel; type?: ChannelType }) {
  const { t } = useTranslation();
  const [number, setNumber] = useState('');
  const [numberError, setNumberError] = useState<string>();
  const pairing = useMutation({
    mutationFn: () => requestPairingCode(channel.id, number.replace(/\D/g, '')),
    onError: (err) => setNumberError(errorMessage(err)),
  });
  const code = channel.pairingCode ?? pairing.data?.pairingCode ?? null;
  const askPairing = (ev: React.FormEvent) => {
    ev.preventDefault();
    const digits = number.replace(/\D/g, '');
    if (!/^\d{8,20}$/.test(digits)) return setNumberError(t('channels.connect.pairingNumberInvalid'));
    setNumberError(undefined);
    pairing.mutate();
  };

  return (
    <Stack gap="md" data-testid="connect-panel">
      {channel.status === 'connected' ? (
        <Center py="lg">
          <Stack align="center" gap={6}>
            <ThemeIcon size={64} radius={64} color="teal" variant="light"><IconCircleCheck size={38} /></ThemeIcon>
            <Text fw={700} size="lg">{t('channels.connect.connectedTitle')}</Text>
            <Text c="dimmed" size="sm">{channel.number ? t('channels.connect.connectedAs', { number: channel.number }) : t('channels.connect.connectedText')}</Text>
          </Stack>
        </Center>
      ) : channel.qrcode ? (
        <Group align="flex-start" gap="xl" wrap="nowrap">
          <div className={classes.qrFrame} data-testid="channel-qrcode">
            {channel.qrcode.startsWith('data:image') ? (
              <img src={channel.qrcode} width={232} height={232} alt={t('channels.connect.qrAlt')} />
            ) : (
              <QRCodeSVG value={channel.qrcode} size={232} level="M" title={t('channels.connect.qrAlt')} />
            )}
          </div>
          <Stack gap={8} style={{ flex: 1 }}>
            <Text fw={700}>{t('channels.connect.qrTitle')}</Text>
            <Text size="sm" component="ol" pl={18} m={0} style={{ lineHeight: 1.8 }}>
              <li>{t('channels.connect.qrStep1')}</li>
              <li>{t('channels.connect.qrStep2')}</li>
              <li>{t('channels.connect.qrStep3')}</li>
            </Text>
            <Text size="xs" c="dimmed">{t('channels.connect.qrRefresh')}</Text>
          </Stack>
        </Group>
      ) : channel.status === 'opening' || channel.status === 'pairingTimeout' ? (
        <Center py="lg">
          <Stack align="center" gap={8}>
            <Loader size="md" />
            <Text size="sm" c="dimmed">{channel.status === 'opening' ? t('channels.connect.opening') : t('channels.connect.retrying', { count: channel.retries })}</Text>
          </Stack>
        </Center>
      ) : (
        <Center py="lg">
          <Stack align="center" gap={6}>
            <ThemeIcon size={56} radius={56} color="gray" variant="light"><IconQrcode size={30} /></ThemeIcon>
            <Text size="sm" c="dimmed" ta="center" maw={360}>{t('channels.connect.noQr')}</Text>
          </Stack>
        </Center>
      )}

      {type?.capabilities.pairingCode && channel.status !== 'connected' && (
        <Paper withBorder radius="md" p="md">
          <form onSubmit={askPairing} noValidate>
            <Stack gap="xs">
              <Text fw={600} size="sm">{t('channels.connect.pairingTitle')}</Text>
              <Group align="flex-start" gap="xs" wrap="nowrap">
                <TextInput
                  style={{ flex: 1 }}
                  placeholder="5511999999999"
                  value={number}
                  onChange={(e) => setNumber(e.currentTarget.value)}
                  error={numberError}
                  aria-label={t('channels.connect.pairingNumber')}
                  data-testid="pairing-number"
                />
                <Button type="submit" variant="light" loading={pairing.isPending}>{t('channels.connect.pairingAsk')}</Button>
              </Group>
              {code && (
                <Group gap="sm" mt={4}>
                  <Text size="sm" c="dimmed">{t('channels.connect.pairingCode')}</Text>
                  <Text className={classes.pairing} data-testid="pairing-code">{code}</Text>
                </Group>
              )}
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}

/** The connect dialog: header with the live status, the panel, and connect/disconnect. */
export function ConnectModal({ channel, type, custom, onClose }: { channel: Channel; type?: ChannelType; custom?: React.ComponentType<ChannelConnectProps>; onClose: () => void }) {
  const { t } = useTranslation();
  const connect = useMutation({ mutationFn: () => connectChannel(channel.id) });
  const disconnect = useMutation({ mutationFn: () => disconnectChannel(channel.id) });
  const Custom = custom;
  const off = channel.status === 'disconnected';
  return (
    <Modal
      opened
      onClose={onClose}
      size={620}
      radius="md"
      title={
        <Group gap="sm" wrap="nowrap">
          <ChannelTypeIcon type={channel.type} size={34} />
          <div>
            <Text fw={700}>{channel.name}</Text>
            <Text size="xs" c="dimmed">{type?.label ?? channel.type}{channel.number ? ` · ${channel.number}` : ''}</Text>
          </div>
        </Group>
      }
    >
      <Stack gap="md">
        <Group justify="space-between">
          <Group gap="xs">
            <StatusBadge status={channel.status} />
            <Text size="xs" c="dimmed"><RelativeTime value={channel.statusAt} /></Text>
          </Group>
          {channel.retries > 0 && <Text size="xs" c="orange.7" data-testid="channel-retries">{t('channels.connect.retries', { count: channel.retries })}</Text>}
        </Group>
        {channel.lastError && channel.status !== 'connected' && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} data-testid="channel-last-error">{channel.lastError}</Alert>
        )}
        {Custom ? (
          <ErrorBoundary fallback={(error, reset) => <ErrorBox compact error={error} message={error instanceof Error ? error.message : undefined} onRetry={reset} />}>
            <Custom channel={connectState(channel)} />
          </ErrorBoundary>
        ) : (
          <DefaultConnectPanel channel={channel} type={type} />
        )}
        <Group justify="flex-end" gap="xs">
          {!off && (
            <Button variant="default" color="red" leftSection={<IconPlugConnectedX size={16} />} loading={disconnect.isPending} onClick={() => disconnect.mutate()} data-testid="connect-disconnect">
              {t('channels.actions.disconnect')}
            </Button>
          )}
          <Button leftSection={<IconPlugConnected size={16} />} loading={connect.isPending} onClick={() => connect.mutate()} data-testid="connect-connect">
            {off ? t('channels.actions.connect') : t('channels.actions.reconnect')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
