import { Button, Group, MultiSelect, SegmentedControl, Select, Stack, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { getSession, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { composeForm, type ComposeValues } from '@atende/plugin-notifications/contract';
import { getTargets, sendNotification, sentKey } from './api.ts';

/**
 * Writes a notification to chosen users or to every user of a tenant. The
 * superadmin also picks the tenant; an admin writes into their own. The form
 * checks the contract's rules; the server enforces the same ones.
 */
export function ComposeForm({ onSent }: { onSent?: () => void }) {
  const { t } = usePluginTranslation('notifications');
  const queryClient = useQueryClient();
  const superadmin = getSession()?.profile === 'superadmin';
  const [tenantId, setTenantId] = useState<number | undefined>(undefined);
  const form = useForm<ComposeValues>({
    initialValues: { message: '', target: 'users', userIds: [] },
    validate: schemaResolver(composeForm, { sync: true }),
  });
  const targets = useQuery({ queryKey: ['plugins', 'notifications', 'targets', tenantId], queryFn: ({ signal }) => getTargets(tenantId, signal) });
  const send = useMutation({
    mutationFn: (v: ComposeValues) =>
      sendNotification({ message: v.message.trim(), tenantId: targets.data?.tenantId, ...(v.target === 'all' ? { all: true } : { userIds: v.userIds.map(Number) }) }),
    onSuccess: (r) => {
      notify.success(t('sent', { n: r.recipients }));
      form.setValues({ message: '', userIds: [] });
      void queryClient.invalidateQueries({ queryKey: sentKey });
      onSent?.();
    },
  });
  // The schema's messages are Portuguese; the screen shows its own translated "required" texts.
  const messageError = form.errors.message ? (form.values.message.trim() ? String(form.errors.message) : t('required', { field: t('fieldMessage') })) : undefined;
  const usersError = form.errors.userIds ? t('required', { field: t('fieldRecipients') }) : undefined;
  return (
    <form aria-label={t('composeLabel')} onSubmit={form.onSubmit((v) => send.mutate(v))} noValidate>
      <Stack gap="sm">
        {superadmin && (
          <Select label={t('tenant')} searchable allowDeselect={false} data={(targets.data?.tenants ?? []).map((x) => ({ value: String(x.id), label: `${x.id} · ${x.name}` }))}
            value={String(targets.data?.tenantId ?? '')} onChange={(v) => { setTenantId(v ? Number(v) : undefined); form.setFieldValue('userIds', []); }} />
        )}
        <SegmentedControl fullWidth {...form.getInputProps('target')}
          data={[{ value: 'users', label: t('toUsers') }, { value: 'all', label: t('toAll') }]} />
        {form.values.target === 'users' && (
          <MultiSelect label={t('recipients')} withAsterisk searchable clearable hidePickedOptions placeholder={t('pickUsers')}
            data={(targets.data?.users ?? []).map((u) => ({ value: String(u.id), label: u.name }))} {...form.getInputProps('userIds')} error={usersError} />
        )}
        <Textarea label={t('message')} withAsterisk autosize minRows={3} maxLength={2000} {...form.getInputProps('message')} error={messageError} />
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconSend size={16} />} loading={send.isPending}>{t('send')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
