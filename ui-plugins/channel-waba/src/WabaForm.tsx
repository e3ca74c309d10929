import { Anchor, Badge, Group, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { usePluginTranslation, type ChannelFormProps } from '@atende/ui-shell/sdk';
import { DEFAULT_API_VERSION, MIN_VERIFY_TOKEN, WABA_API_VERSION, WABA_ID } from '@atende/plugin-channel-waba/contract';

type ConfigKey = 'phoneNumberId' | 'businessAccountId' | 'apiVersion' | 'verifyToken';
type SecretKey = 'accessToken' | 'appSecret';

/**
 * The WABA part of the channel dialog (administration.md §3: phone number
 * id, business account id, API version, business manager token), plus the
 * app secret that signs Meta's webhooks and the verify token of the webhook
 * handshake. Credentials are write-only: once saved only "salvo" shows, and
 * a blank field keeps the saved value. The server answers wrong data with
 * "Dados WABA incorretos", which the dialog shows above the form.
 */
export default function WabaForm({ channel, value, onChange, disabled, fieldErrors }: ChannelFormProps) {
  const { t } = usePluginTranslation('channel-waba');
  const config = value.config;
  const str = (k: ConfigKey) => (typeof config[k] === 'string' ? (config[k] as string) : '');
  const setConfig = (k: ConfigKey, v: string) => onChange({ ...value, config: { ...config, [k]: v.trim() } });
  const setSecret = (k: SecretKey, v: string) => {
    const secrets = { ...value.secrets };
    // Absent means "keep what is saved": an emptied field must not send an empty string.
    if (v) secrets[k] = v;
    else delete secrets[k];
    onChange({ ...value, secrets });
  };
  const saved = (k: SecretKey) => !!channel?.secretsSet.includes(k);
  const secret = (k: SecretKey) => (typeof value.secrets[k] === 'string' ? (value.secrets[k] as string) : '');

  // The server's rules for these fields (the plugin's contract), shown as the admin types.
  const idError = (k: 'phoneNumberId' | 'businessAccountId') => (str(k) && !WABA_ID.test(str(k)) ? t('idDigits') : undefined);
  const versionError = str('apiVersion') && !WABA_API_VERSION.test(str('apiVersion')) ? t('versionFormat') : undefined;
  const verifyError = str('verifyToken') && str('verifyToken').length < MIN_VERIFY_TOKEN ? t('verifyTokenShort') : undefined;
  // "Obrigatório" appears once a field was visited and left empty, not on a blank new form.
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const visit = (k: string) => () => setTouched((x) => ({ ...x, [k]: true }));
  const required = (k: string, filled: boolean) => (touched[k] && !filled ? t('required') : undefined);
  // What the server said about a field on the last save ("informe o token…"), until it is changed.
  const refused = (k: string) => fieldErrors?.[k];

  return (
    <Stack gap="md" data-testid="waba-form">
      <Text size="sm" c="dimmed">
        {t('formIntro')}{' '}
        <Anchor href="https://business.facebook.com/wa/manage/phone-numbers/" target="_blank" rel="noreferrer" size="sm">{t('whatsappManager')}</Anchor>
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        <TextInput
          label={t('phoneNumberId')}
          description={t('phoneNumberIdHint')}
          placeholder="109876543210987"
          inputMode="numeric"
          withAsterisk
          value={str('phoneNumberId')}
          onChange={(e) => setConfig('phoneNumberId', e.currentTarget.value)}
          error={idError('phoneNumberId') ?? required('phoneNumberId', !!str('phoneNumberId')) ?? refused('phoneNumberId')}
          onBlur={visit('phoneNumberId')}
          disabled={disabled}
          data-testid="waba-phone-number-id"
        />
        <TextInput
          label={t('businessAccountId')}
          description={t('businessAccountIdHint')}
          placeholder="209876543210987"
          inputMode="numeric"
          withAsterisk
          value={str('businessAccountId')}
          onChange={(e) => setConfig('businessAccountId', e.currentTarget.value)}
          error={idError('businessAccountId') ?? required('businessAccountId', !!str('businessAccountId')) ?? refused('businessAccountId')}
          onBlur={visit('businessAccountId')}
          disabled={disabled}
          data-testid="waba-business-account-id"
        />
        <TextInput
          label={t('apiVersion')}
          description={t('apiVersionHint')}
          placeholder={DEFAULT_API_VERSION}
          value={str('apiVersion')}
          onChange={(e) => setConfig('apiVersion', e.currentTarget.value)}
          error={versionError ?? refused('apiVersion')}
          disabled={disabled}
          data-testid="waba-api-version"
        />
        <TextInput
          label={t('verifyToken')}
          description={t('verifyTokenHint')}
          placeholder={t('verifyTokenPlaceholder')}
          value={str('verifyToken')}
          onChange={(e) => setConfig('verifyToken', e.currentTarget.value)}
          error={verifyError ?? refused('verifyToken')}
          disabled={disabled}
          data-testid="waba-verify-token"
        />
      </SimpleGrid>
      <SecretField hint={t('accessTokenHint')} saved={saved('accessToken')} savedLabel={t('saved')}>
        <PasswordInput
          label={t('accessToken')}
          withAsterisk={!saved('accessToken')}
          placeholder={saved('accessToken') ? t('keepSaved') : 'EAAG…'}
          autoComplete="new-password"
          value={secret('accessToken')}
          onChange={(e) => setSecret('accessToken', e.currentTarget.value.trim())}
          error={required('accessToken', saved('accessToken') || !!secret('accessToken')) ?? refused('accessToken')}
          onBlur={visit('accessToken')}
          disabled={disabled}
          data-testid="waba-access-token"
        />
      </SecretField>
      <SecretField hint={t('appSecretHint')} saved={saved('appSecret')} savedLabel={t('saved')}>
        <PasswordInput
          label={t('appSecret')}
          withAsterisk={!saved('appSecret')}
          placeholder={saved('appSecret') ? t('keepSaved') : undefined}
          autoComplete="new-password"
          value={secret('appSecret')}
          onChange={(e) => setSecret('appSecret', e.currentTarget.value.trim())}
          error={required('appSecret', saved('appSecret') || !!secret('appSecret')) ?? refused('appSecret')}
          onBlur={visit('appSecret')}
          disabled={disabled}
          data-testid="waba-app-secret"
        />
      </SecretField>
      <Switch
        label={t('readReceipts')}
        description={t('readReceiptsHint')}
        checked={config.readReceipts !== false}
        onChange={(e) => onChange({ ...value, config: { ...config, readReceipts: e.currentTarget.checked } })}
        disabled={disabled}
        data-testid="waba-read-receipts"
      />
    </Stack>
  );
}

/** A write-only credential with its help line and, once saved, the "salvo" badge (the value itself never comes back). */
function SecretField({ hint, saved, savedLabel, children }: { hint: string; saved: boolean; savedLabel: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      {children}
      <Group gap="xs" wrap="nowrap" align="center">
        {saved && (
          <Badge variant="light" color="teal" size="sm" leftSection={<IconCheck size={12} />} styles={{ root: { textTransform: 'none', flexShrink: 0 } }} data-testid="waba-secret-saved">
            {savedLabel}
          </Badge>
        )}
        <Text size="xs" c="dimmed">{hint}</Text>
      </Group>
    </Stack>
  );
}
