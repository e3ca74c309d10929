import { PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { usePluginTranslation, type ChannelFormProps } from '@atende/ui-shell/sdk';
import { channelConfig } from '@atende/plugin-__ID__/contract';

/** The same rule the adapter's `prepare` applies on the server (the plugin's contract). */
const validUrl = (v: string) => channelConfig.shape.apiBase.safeParse(v).success;

/**
 * Provider fields of a __LABEL__ channel: the account token (write-only: once
 * saved it never comes back; a blank field keeps it) and the API base URL.
 * They become the channel's `secrets` and `config`, checked again by the
 * adapter's `prepare` on the server with the same schema.
 */
export function ProviderForm({ channel, value, onChange, disabled }: ChannelFormProps) {
  const { t } = usePluginTranslation('__ID__');
  const [touched, setTouched] = useState(false);
  const saved = channel?.secretsSet.includes('token') ?? false;
  const token = value.secrets.token ?? '';
  const apiBase = (value.config.apiBase as string | undefined) ?? '';
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">{t('intro')}</Text>
      <PasswordInput
        label={t('token')}
        withAsterisk={!saved}
        placeholder={saved ? t('tokenKept') : undefined}
        value={token}
        onChange={(e) => onChange({ ...value, secrets: { ...value.secrets, token: e.currentTarget.value } })}
        onBlur={() => setTouched(true)}
        error={touched && !saved && !token.trim() ? t('tokenRequired') : undefined}
        disabled={disabled}
        autoComplete="new-password"
      />
      <TextInput
        label={t('apiBase')}
        description={t('apiBaseHint')}
        withAsterisk
        placeholder="https://api.provedor.com"
        value={apiBase}
        onChange={(e) => onChange({ ...value, config: { ...value.config, apiBase: e.currentTarget.value.trim() } })}
        error={apiBase && !validUrl(apiBase) ? t('urlInvalid') : undefined}
        disabled={disabled}
      />
    </Stack>
  );
}
