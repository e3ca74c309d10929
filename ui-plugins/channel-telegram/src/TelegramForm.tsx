import { Alert, Anchor, Collapse, Group, NumberInput, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { IconBrandTelegram, IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { usePluginTranslation, type ChannelFormProps } from '@atende/ui-shell/sdk';
import { telegramConfig, telegramToken, type TelegramConfig } from '@atende/plugin-channel-telegram/contract';

/** A base URL the server accepts (the contract's rule for `apiRoot` and `webhookBaseUrl`). */
const validUrl = (v: string) => telegramConfig.shape.apiRoot.safeParse(v).success;

type Mode = NonNullable<TelegramConfig['mode']>;

/**
 * Provider fields of a Telegram channel, checked by the rules of the
 * plugin's contract (what its `prepare` accepts): the bot token
 * (write-only: once saved it never comes back, a blank field keeps it),
 * webhook or long polling, the public base URL for the webhook, a
 * self-hosted Bot API server, and the timings.
 */
export function TelegramForm({ channel, value, onChange, disabled }: ChannelFormProps) {
  const { t } = usePluginTranslation('channel-telegram');
  const [touched, setTouched] = useState(false);
  const [advanced, setAdvanced] = useState(Boolean(value.config.apiRoot || value.config.pollTimeoutSec !== undefined || value.config.healthIntervalMs !== undefined));
  const cfg = value.config as TelegramConfig;
  const token = value.secrets.token ?? '';
  const saved = channel?.secretsSet.includes('token') ?? false;

  const setConfig = (patch: Partial<typeof cfg>) => onChange({ ...value, config: { ...value.config, ...patch } });
  const setToken = (v: string) => onChange({ ...value, secrets: { ...value.secrets, token: v } });

  const tokenError = token.trim()
    ? telegramToken.safeParse(token).success ? undefined : t('tokenFormat')
    : touched && !saved ? t('tokenRequired') : undefined;
  const urlError = (v: string | undefined) => (v && !validUrl(v) ? t('urlInvalid') : undefined);

  return (
    <Stack gap="sm" data-testid="telegram-form">
      <Alert variant="light" color="blue" icon={<IconBrandTelegram size={18} />} p="sm">
        <Text size="sm">{t('intro')}</Text>
      </Alert>
      <PasswordInput
        label={t('token')}
        withAsterisk={!saved}
        placeholder={saved ? t('tokenKept') : '123456789:AAH…'}
        description={t('tokenHint')}
        value={token}
        onChange={(e) => setToken(e.currentTarget.value)}
        onBlur={() => setTouched(true)}
        error={tokenError}
        disabled={disabled}
        autoComplete="new-password"
        data-testid="telegram-token"
      />
      <Radio.Group
        label={t('mode')}
        description={t('modeHint')}
        value={cfg.mode ?? ''}
        onChange={(v) => setConfig({ mode: v as Mode })}
      >
        <Group mt={6} gap="lg">
          {!cfg.mode && <Radio value="" label={t('modeAuto')} disabled={disabled} />}
          <Radio value="webhook" label={t('modeWebhook')} disabled={disabled} data-testid="telegram-mode-webhook" />
          <Radio value="polling" label={t('modePolling')} disabled={disabled} data-testid="telegram-mode-polling" />
        </Group>
      </Radio.Group>
      {cfg.mode === 'webhook' && (
        <TextInput
          label={t('webhookBaseUrl')}
          description={t('webhookBaseUrlHint')}
          placeholder="https://atende.suaempresa.com.br"
          value={cfg.webhookBaseUrl ?? ''}
          onChange={(e) => setConfig({ webhookBaseUrl: e.currentTarget.value.trim() || undefined })}
          error={urlError(cfg.webhookBaseUrl)}
          disabled={disabled}
        />
      )}
      <Anchor component="button" type="button" size="sm" onClick={() => setAdvanced((v) => !v)} data-testid="telegram-advanced">
        <Group gap={4}>{advanced ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}{t('advanced')}</Group>
      </Anchor>
      <Collapse expanded={advanced}>
        <Stack gap="sm">
          <TextInput
            label={t('apiRoot')}
            description={t('apiRootHint')}
            placeholder="https://api.telegram.org"
            value={cfg.apiRoot ?? ''}
            onChange={(e) => setConfig({ apiRoot: e.currentTarget.value.trim() || undefined })}
            error={urlError(cfg.apiRoot)}
            disabled={disabled}
            data-testid="telegram-api-root"
          />
          <Group grow align="flex-start">
            <NumberInput
              label={t('pollTimeout')}
              description={t('pollTimeoutHint')}
              min={0}
              max={50}
              allowDecimal={false}
              value={cfg.pollTimeoutSec ?? ''}
              onChange={(v) => setConfig({ pollTimeoutSec: v === '' ? undefined : Number(v) })}
              disabled={disabled}
            />
            <NumberInput
              label={t('healthInterval')}
              description={t('healthIntervalHint')}
              min={1}
              max={3600}
              value={cfg.healthIntervalMs === undefined ? '' : cfg.healthIntervalMs / 1000}
              onChange={(v) => setConfig({ healthIntervalMs: v === '' ? undefined : Math.round(Number(v) * 1000) })}
              disabled={disabled}
            />
          </Group>
        </Stack>
      </Collapse>
    </Stack>
  );
}
