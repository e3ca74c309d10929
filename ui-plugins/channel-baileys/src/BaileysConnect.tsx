import { ActionIcon, Alert, Badge, Box, Button, Center, CopyButton, Group, List, Loader, Paper, SegmentedControl, Stack, Text, TextInput, ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconCopy, IconDeviceMobile, IconPlugConnected, IconQrcode, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { api, usePluginTranslation, type ChannelConnectProps } from '@atende/ui-shell/sdk';
import { PAIRING_NUMBER, type ConnectionMethod } from '@atende/plugin-channel-baileys/contract';
import { methodOf } from './BaileysForm.tsx';

/** `ABCD1234` → `ABCD-1234`, as WhatsApp shows the field on the phone. */
export const formatPairingCode = (code: string) => (code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code);

/**
 * Links a phone to the channel. The QR code comes live with each
 * `channel.updated` (WhatsApp replaces it every ~20 s) and is drawn large and
 * crisp; the pairing code is asked for a number and shown in big spaced
 * characters. Both come with the phone's steps, the retry count and the last
 * error, and a button that starts a fresh attempt.
 */
export default function BaileysConnect({ channel }: ChannelConnectProps) {
  const { t } = usePluginTranslation('channel-baileys');
  const saved = useQuery({
    queryKey: ['channels', channel.id],
    queryFn: ({ signal }) => api.get<{ config: Record<string, unknown>; number: string | null }>(`/channels/${channel.id}`, { signal, silent: true }),
  });
  const [method, setMethod] = useState<ConnectionMethod | null>(null);
  const shown = method ?? methodOf(saved.data?.config);
  const [number, setNumber] = useState<string | null>(null);
  const digits = (number ?? channel.number ?? saved.data?.number ?? '').replace(/\D/g, '');
  const [pendingCode, setPendingCode] = useState(false);
  const [code, setCode] = useState<string | null>(null);

  const restart = useMutation({ mutationFn: () => api.post(`/channels/${channel.id}/connect`) });
  const pairing = useMutation({
    mutationFn: () => api.post<{ pairingCode: string | null }>(`/channels/${channel.id}/pairing-code`, { number: digits }),
    onSuccess: (r) => setCode(r.pairingCode),
  });

  const waiting = channel.status === 'qrcode';
  // A code can only be asked of a running session: start it first, then ask once WhatsApp is waiting for a phone.
  useEffect(() => {
    if (pendingCode && waiting && !pairing.isPending) {
      setPendingCode(false);
      pairing.mutate();
    }
  }, [pendingCode, waiting, pairing]);
  const askCode = () => {
    setCode(null);
    if (waiting) pairing.mutate();
    else {
      setPendingCode(true);
      restart.mutate();
    }
  };

  const connected = channel.status === 'connected';
  const pairingCode = connected ? null : (channel.pairingCode ?? code);

  return (
    <Stack gap="md" data-testid="baileys-connect">
      {!connected && <Group justify="space-between" wrap="nowrap">
        <SegmentedControl
          size="xs"
          value={shown}
          onChange={(v) => setMethod(v as ConnectionMethod)}
          data={[
            { value: 'qrcode', label: <Group gap={4} wrap="nowrap"><IconQrcode size={14} />{t('methodQr')}</Group> },
            { value: 'pairingCode', label: <Group gap={4} wrap="nowrap"><IconDeviceMobile size={14} />{t('methodCode')}</Group> },
          ]}
          data-testid="baileys-connect-method"
        />
        {channel.retries > 0 && (
          <Badge color="orange" variant="light" data-testid="baileys-retries">{t('retries', { count: channel.retries })}</Badge>
        )}
      </Group>}

      {channel.lastError && !connected && (
        <Alert color={channel.status === 'disconnected' || channel.status === 'pairingTimeout' ? 'red' : 'orange'} variant="light" icon={<IconAlertCircle size={16} />} data-testid="baileys-last-error">
          <Text size="sm">{channel.lastError}</Text>
        </Alert>
      )}

      {connected ? (
        <Paper withBorder radius="md" p="lg" data-testid="baileys-connected">
          <Group gap="md" wrap="nowrap">
            <ThemeIcon size={44} radius="xl" color="green" variant="light"><IconPlugConnected size={24} /></ThemeIcon>
            <div>
              <Text fw={600}>{t('connected')}</Text>
              <Text size="sm" c="dimmed">{channel.number ? t('connectedAs', { number: `+${channel.number}` }) : t('connectedHint')}</Text>
            </div>
          </Group>
        </Paper>
      ) : shown === 'qrcode' ? (
        <Paper withBorder radius="md" p="lg">
          <Group align="flex-start" gap="xl" wrap="wrap">
            <Center w={288} h={288} bg="white" style={{ borderRadius: 12, border: '1px solid var(--mantine-color-gray-3)' }} data-testid="baileys-qr-box">
              {waiting && channel.qrcode ? (
                <QRCodeSVG value={channel.qrcode} size={264} level="L" marginSize={2} title={t('qrTitle')} data-testid="baileys-qr" data-qr={channel.qrcode} />
              ) : channel.status === 'opening' || restart.isPending ? (
                <Stack align="center" gap="xs"><Loader size="sm" /><Text size="sm" c="dimmed">{t('qrLoading')}</Text></Stack>
              ) : (
                <Stack align="center" gap="xs" px="md">
                  <IconQrcode size={40} color="var(--mantine-color-gray-5)" />
                  <Text size="sm" c="dimmed" ta="center">{channel.status === 'pairingTimeout' ? t('qrExpired') : t('qrStopped')}</Text>
                </Stack>
              )}
            </Center>
            <Stack gap="sm" style={{ flex: '1 1 240px' }}>
              <Text fw={600}>{t('qrStepsTitle')}</Text>
              <List type="ordered" size="sm" spacing={6}>
                <List.Item>{t('stepOpen')}</List.Item>
                <List.Item>{t('stepDevices')}</List.Item>
                <List.Item>{t('stepLink')}</List.Item>
                <List.Item>{t('stepScan')}</List.Item>
              </List>
              <Text size="xs" c="dimmed">{t('qrRefreshHint')}</Text>
              <Box>
                <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} loading={restart.isPending} onClick={() => restart.mutate()} data-testid="baileys-new-qr">
                  {t('newQr')}
                </Button>
              </Box>
            </Stack>
          </Group>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Group align="flex-end" gap="sm" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                label={t('number')}
                description={t('numberHint')}
                placeholder="5511988887777"
                inputMode="numeric"
                value={number ?? channel.number ?? saved.data?.number ?? ''}
                onChange={(e) => setNumber(e.currentTarget.value)}
                error={digits && !PAIRING_NUMBER.test(digits) ? t('numberInvalid') : undefined}
                data-testid="baileys-pairing-number"
              />
              <Button leftSection={<IconDeviceMobile size={16} />} disabled={!PAIRING_NUMBER.test(digits)} loading={pairing.isPending || pendingCode} onClick={askCode} data-testid="baileys-ask-code">
                {t('askCode')}
              </Button>
            </Group>
            {pairingCode ? (
              <Group justify="center" gap="sm" py="sm" data-testid="baileys-pairing-code">
                <Text ff="monospace" fw={700} fz={40} style={{ letterSpacing: '0.3em' }} aria-label={pairingCode.split('').join(' ')}>
                  {formatPairingCode(pairingCode)}
                </Text>
                <CopyButton value={pairingCode}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? t('copied') : t('copy')}>
                      <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('copy')}>
                        {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
              </Group>
            ) : (
              <Text size="sm" c="dimmed" ta="center" py="sm">{t('codeEmpty')}</Text>
            )}
            <div>
              <Text fw={600} mb={6}>{t('codeStepsTitle')}</Text>
              <List type="ordered" size="sm" spacing={6}>
                <List.Item>{t('stepOpen')}</List.Item>
                <List.Item>{t('stepDevices')}</List.Item>
                <List.Item>{t('stepLink')}</List.Item>
                <List.Item>{t('stepWithNumber')}</List.Item>
                <List.Item>{t('stepTypeCode')}</List.Item>
              </List>
            </div>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
