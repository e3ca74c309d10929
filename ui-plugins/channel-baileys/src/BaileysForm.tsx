import { Radio, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconDeviceMobile, IconQrcode } from '@tabler/icons-react';
import { usePluginTranslation, type ChannelFormProps } from '@atende/ui-shell/sdk';
import { connectionMethod, PAIRING_NUMBER, type ConnectionMethod } from '@atende/plugin-channel-baileys/contract';

/** How the channel links its phone, as saved (QR code unless it says otherwise). */
export const methodOf = (config: Record<string, unknown> | undefined): ConnectionMethod => connectionMethod.safeParse(config?.connectionMethod).data ?? 'qrcode';

/**
 * The Baileys part of the channel dialog: how the phone is linked (reading a
 * QR code, or typing a pairing code WhatsApp sends for a number) and that
 * number. The account's real number replaces it once the phone is linked.
 */
export default function BaileysForm({ value, onChange, disabled }: ChannelFormProps) {
  const { t } = usePluginTranslation('channel-baileys');
  const method = methodOf(value.config);
  const number = value.number ?? '';
  const digits = number.replace(/\D/g, '');
  const numberError = method === 'pairingCode' && digits && !PAIRING_NUMBER.test(digits) ? t('numberInvalid') : undefined;

  return (
    <Stack gap="md" data-testid="baileys-form">
      <Radio.Group
        label={t('method')}
        value={method}
        onChange={(v) => onChange({ ...value, config: { ...value.config, connectionMethod: v as ConnectionMethod } })}
      >
        <Group mt={6} gap="sm" grow>
          <Radio.Card value="qrcode" radius="md" p="sm" disabled={disabled} data-testid="baileys-method-qrcode">
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator />
              <div>
                <Group gap={6}><IconQrcode size={16} /><Text fw={600} size="sm">{t('methodQr')}</Text></Group>
                <Text size="xs" c="dimmed">{t('methodQrHint')}</Text>
              </div>
            </Group>
          </Radio.Card>
          <Radio.Card value="pairingCode" radius="md" p="sm" disabled={disabled} data-testid="baileys-method-pairing">
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator />
              <div>
                <Group gap={6}><IconDeviceMobile size={16} /><Text fw={600} size="sm">{t('methodCode')}</Text></Group>
                <Text size="xs" c="dimmed">{t('methodCodeHint')}</Text>
              </div>
            </Group>
          </Radio.Card>
        </Group>
      </Radio.Group>
      <TextInput
        label={t('number')}
        description={t('numberHint')}
        placeholder="5511988887777"
        inputMode="numeric"
        withAsterisk={method === 'pairingCode'}
        disabled={disabled}
        value={number}
        onChange={(e) => onChange({ ...value, number: e.currentTarget.value.replace(/[^\d+\s()-]/g, '') || null })}
        error={numberError}
        data-testid="baileys-number"
      />
      <Switch
        label={t('fullHistory')}
        description={t('fullHistoryHint')}
        disabled={disabled}
        checked={value.config.syncFullHistory === true}
        onChange={(e) => onChange({ ...value, config: { ...value.config, syncFullHistory: e.currentTarget.checked } })}
        data-testid="baileys-full-history"
      />
    </Stack>
  );
}
