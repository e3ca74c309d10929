import { Alert, Button, Card, Center, Group, List, Loader, NumberInput, Stack, Switch, Text, Textarea } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBox, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { getConfig, saveConfig, type RatingConfig } from './api.ts';
import { SCORES } from './scale.ts';

/** `/avaliacoes/configurar`: the rating request over `GET|PUT /tenants/rating`. */
export default function RatingsConfigPage() {
  const { t } = usePluginTranslation('ratings');
  const config = useQuery({ queryKey: ['plugins', 'ratings', 'config'], queryFn: getConfig });
  if (config.error) return <ErrorBox title={t('loadFailed')} onRetry={() => void config.refetch()} />;
  // The form appears once the saved values are in: fields shown earlier took what was typed and then
  // lost it when the answer arrived (and a later refetch would overwrite an edit the same way).
  if (!config.data) return <Center py="xl"><Loader size="sm" /></Center>;
  return <RatingsConfigForm initial={config.data} />;
}

function RatingsConfigForm({ initial }: { initial: RatingConfig }) {
  const { t } = usePluginTranslation('ratings');
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(initial.enabled);
  const [maxAttempts, setMaxAttempts] = useState<number | string>(initial.maxAttempts);
  const [message, setMessage] = useState(initial.message ?? '');
  const save = useMutation({
    mutationFn: () => saveConfig({ enabled, maxAttempts: Number(maxAttempts) || 1, message: message.trim() || null }),
    onSuccess: (c) => {
      queryClient.setQueryData(['plugins', 'ratings', 'config'], c);
      notify.success(t('saved'));
    },
  });
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
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} data-testid="rating-save">{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
