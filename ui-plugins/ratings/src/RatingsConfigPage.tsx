import { Alert, Button, Card, Group, List, NumberInput, Stack, Switch, Text, Textarea } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorBox, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { getConfig, saveConfig } from './api.ts';
import { SCORES } from './scale.ts';

/** `/avaliacoes/configurar`: the rating request over `GET|PUT /tenants/rating`. */
export default function RatingsConfigPage() {
  const { t } = usePluginTranslation('ratings');
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: ['plugins', 'ratings', 'config'], queryFn: getConfig });
  const [enabled, setEnabled] = useState(true);
  const [maxAttempts, setMaxAttempts] = useState<number | string>(1);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (config.data) {
      setEnabled(config.data.enabled);
      setMaxAttempts(config.data.maxAttempts);
      setMessage(config.data.message ?? '');
    }
  }, [config.data]);
  const save = useMutation({
    mutationFn: () => saveConfig({ enabled, maxAttempts: Number(maxAttempts) || 1, message: message.trim() || null }),
    onSuccess: (c) => {
      queryClient.setQueryData(['plugins', 'ratings', 'config'], c);
      notify.success(t('saved'));
    },
  });
  if (config.error) return <ErrorBox title={t('loadFailed')} onRetry={() => void config.refetch()} />;
  return (
    <Card withBorder padding="lg" maw={720}>
      <form onSubmit={(e) => { e.preventDefault(); save.mutate(); }} noValidate>
        <Stack gap="md">
          <Switch label={t('enabled')} description={t('enabledHint')} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} data-testid="rating-enabled" />
          <NumberInput label={t('maxAttempts')} description={t('maxAttemptsHint')} min={1} max={10} w={220} value={maxAttempts} onChange={setMaxAttempts} data-testid="rating-attempts" />
          <Textarea label={t('message')} description={t('messageHint')} autosize minRows={2} maxRows={6} maxLength={1024} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
          <Alert variant="light" color="gray" title={t('scale')}>
            <List size="sm" spacing={2}>
              {SCORES.map((s) => <List.Item key={s}><Text span fw={600}>{s}</Text> — {t(`score${s}`)}</List.Item>)}
            </List>
          </Alert>
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} disabled={config.isLoading} data-testid="rating-save">{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
