import { ActionIcon, Alert, Button, Code, CopyButton, Group, Paper, Skeleton, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconEye, IconEyeOff, IconSend, IconWebhook } from '@tabler/icons-react';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage, notify, usePluginTranslation, type ChannelConnectProps } from '@atende/ui-shell/sdk';
import { sandboxSimulateForm, type SandboxSecret, type SandboxSimulate, type SandboxSimulateForm } from '@atende/plugin-channel-sandbox/contract';

function Copy({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={label} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={label}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/**
 * The sandbox has nothing to pair: its panel shows where a simulator posts
 * customer messages (the signed inbound URL, its secret and header) and lets
 * the admin play a customer right here.
 */
export function SandboxConnect({ channel }: ChannelConnectProps) {
  const { t } = usePluginTranslation('channel-sandbox');
  const [reveal, setReveal] = useState(false);
  const form = useForm<SandboxSimulateForm>({
    initialValues: { name: 'Cliente de teste', from: '5511900000000', text: '' },
    validate: schemaResolver(sandboxSimulateForm, { sync: true }),
  });
  const secret = useQuery({
    queryKey: ['channel-sandbox', 'secret', channel.id],
    queryFn: ({ signal }) => api.get<SandboxSecret>(`/plugins/channel-sandbox/channels/${channel.id}/secret`, { signal, background: true }),
  });
  const simulate = useMutation({
    mutationFn: (v: SandboxSimulateForm) => {
      const { name, from, text } = sandboxSimulateForm.parse(v);
      const body: SandboxSimulate = { from: { id: from, name: name || undefined }, body: text };
      return api.post(`/plugins/channel-sandbox/channels/${channel.id}/simulate`, body, { silent: true });
    },
    onSuccess: () => {
      notify.success(t('simulated'));
      form.setFieldValue('text', '');
    },
    onError: (err) => notify.error(errorMessage(err)),
  });
  const url = secret.data ? `${window.location.origin}${secret.data.webhookUrl}` : '';

  return (
    <Stack gap="md" data-testid="sandbox-connect">
      <Alert variant="light" color={channel.status === 'connected' ? 'teal' : 'gray'} icon={<IconWebhook size={18} />} p="sm">
        <Text size="sm">{t('connectIntro')}</Text>
      </Alert>
      {secret.isLoading ? (
        <Skeleton h={90} radius="md" />
      ) : secret.data ? (
        <Paper withBorder radius="md" p="md">
          <Stack gap={10}>
            <div>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">{t('inboundUrl')}</Text>
              <Group gap={4} wrap="nowrap">
                <Code style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="sandbox-inbound-url">{url}</Code>
                <Copy value={url} label={t('copy')} />
              </Group>
            </div>
            <div>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase">{t('secret')}</Text>
              <Group gap={4} wrap="nowrap">
                <Code style={{ flex: 1 }}>{reveal ? secret.data.secret : '•'.repeat(24)}</Code>
                <ActionIcon variant="subtle" color="gray" onClick={() => setReveal((v) => !v)} aria-label={t('reveal')}>{reveal ? <IconEyeOff size={16} /> : <IconEye size={16} />}</ActionIcon>
                <Copy value={secret.data.secret} label={t('copy')} />
              </Group>
            </div>
            <Text size="xs" c="dimmed">{t('signatureHint', { header: secret.data.header })}</Text>
          </Stack>
        </Paper>
      ) : null}
      <Paper withBorder radius="md" p="md">
        <Text fw={600} size="sm" mb="xs">{t('simulateTitle')}</Text>
        {/* The button stays off until both required fields are filled, so the schema's (Portuguese) messages never show. */}
        <form onSubmit={form.onSubmit((v) => simulate.mutate(v))} noValidate>
          <Stack gap="xs">
            <Group grow>
              <TextInput label={t('customerName')} maxLength={200} {...form.getInputProps('name')} />
              <TextInput label={t('customerId')} maxLength={200} {...form.getInputProps('from')} />
            </Group>
            <Group align="flex-end" wrap="nowrap">
              <TextInput style={{ flex: 1 }} label={t('message')} placeholder={t('messagePlaceholder')} {...form.getInputProps('text')} data-testid="sandbox-simulate-text" />
              <Button type="submit" leftSection={<IconSend size={15} />} disabled={!form.values.text.trim() || !form.values.from.trim()} loading={simulate.isPending} data-testid="sandbox-simulate">{t('send')}</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
