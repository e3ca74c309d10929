import { Alert, Button, Card, Center, Group, List, Loader, NumberInput, Stack, Switch, Text, Textarea } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from '@mantine/form';
import { ErrorBox, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { ratingConfigInput, type RatingConfigInput } from '@atende/plugin-ratings/contract';
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

/** The form's values: the number field holds '' while being typed over. */
interface FormValues {
  enabled: boolean;
  maxAttempts: number | string;
  message: string;
}

/** Checked by the contract's schema, the one the kernel applies to `PUT /tenants/rating`. */
const toInput = (v: FormValues): RatingConfigInput => ({ enabled: v.enabled, maxAttempts: v.maxAttempts === '' ? Number.NaN : Number(v.maxAttempts), message: v.message.trim() || null });

function RatingsConfigForm({ initial }: { initial: RatingConfig }) {
  const { t } = usePluginTranslation('ratings');
  const queryClient = useQueryClient();
  const form = useForm<FormValues>({
    initialValues: { enabled: initial.enabled, maxAttempts: initial.maxAttempts, message: initial.message ?? '' },
    validate: (v) => {
      const r = ratingConfigInput.safeParse(toInput(v));
      // The schema's messages are Portuguese; the field shows the screen's translated hint.
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.path[0] === 'maxAttempts' ? t('maxAttemptsHint') : i.message]));
    },
  });
  const save = useMutation({
    mutationFn: (v: FormValues) => saveConfig(ratingConfigInput.parse(toInput(v))),
    onSuccess: (c) => {
      queryClient.setQueryData(['plugins', 'ratings', 'config'], c);
      notify.success(t('saved'));
    },
  });
  return (
    <Card withBorder padding="lg" maw={720}>
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack gap="md">
          <Switch label={t('enabled')} description={t('enabledHint')} {...form.getInputProps('enabled', { type: 'checkbox' })} data-testid="rating-enabled" />
          <NumberInput label={t('maxAttempts')} description={t('maxAttemptsHint')} min={1} max={10} w={220} {...form.getInputProps('maxAttempts')} data-testid="rating-attempts" />
          <Textarea label={t('message')} description={t('messageHint')} autosize minRows={2} maxRows={6} maxLength={1024} {...form.getInputProps('message')} />
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
