import { Alert, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { usePluginTranslation, type ChannelFormProps } from '@atende/ui-shell/sdk';
import type { SandboxConfig } from '@atende/plugin-channel-sandbox/contract';

/** Milliseconds shown as seconds (0 = never). */
const toSeconds = (ms: number | undefined) => (ms === undefined ? '' : ms / 1000);
const toMs = (v: number | string) => (v === '' ? 0 : Math.max(0, Math.round(Number(v) * 1000)));

/**
 * Settings of the simulated provider (plugins/channel-sandbox): after how
 * long a sent message is reported delivered and read, and a text that makes
 * every send containing it fail, to rehearse failures.
 */
export function SandboxForm({ value, onChange, disabled }: ChannelFormProps) {
  const { t } = usePluginTranslation('channel-sandbox');
  const cfg = value.config as SandboxConfig;
  const set = (patch: SandboxConfig) => onChange({ ...value, config: { ...value.config, ...patch } });
  return (
    <Stack gap="sm" data-testid="sandbox-form">
      <Alert variant="light" color="yellow" icon={<IconFlask size={18} />} p="sm">
        <Text size="sm">{t('intro')}</Text>
      </Alert>
      <Group grow align="flex-start">
        <NumberInput
          label={t('deliveredAfter')}
          description={t('delayHint')}
          min={0}
          max={86_400}
          decimalScale={1}
          value={toSeconds(cfg.deliveredAfterMs)}
          onChange={(v) => set({ deliveredAfterMs: toMs(v) })}
          disabled={disabled}
          data-testid="sandbox-delivered-after"
        />
        <NumberInput
          label={t('readAfter')}
          description={t('delayHint')}
          min={0}
          max={86_400}
          decimalScale={1}
          value={toSeconds(cfg.readAfterMs)}
          onChange={(v) => set({ readAfterMs: toMs(v) })}
          disabled={disabled}
        />
      </Group>
      <TextInput
        label={t('failWhen')}
        description={t('failWhenHint')}
        placeholder={t('failWhenPlaceholder')}
        maxLength={200}
        value={cfg.failWhenBodyContains ?? ''}
        onChange={(e) => set({ failWhenBodyContains: e.currentTarget.value })}
        disabled={disabled}
      />
    </Stack>
  );
}
