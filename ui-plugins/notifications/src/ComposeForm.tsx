import { Button, Group, MultiSelect, SegmentedControl, Select, Stack, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { getSession, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { getTargets, sendNotification, sentKey } from './api.ts';

/**
 * Writes a notification to chosen users or to every user of a tenant. The
 * superadmin also picks the tenant; an admin writes into their own. The server
 * enforces the same rules.
 */
export function ComposeForm({ onSent }: { onSent?: () => void }) {
  const { t } = usePluginTranslation('notifications');
  const queryClient = useQueryClient();
  const superadmin = getSession()?.profile === 'superadmin';
  const [tenantId, setTenantId] = useState<number | undefined>(undefined);
  const [target, setTarget] = useState<'users' | 'all'>('users');
  const [userIds, setUserIds] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<{ message?: string; users?: string }>({});
  const targets = useQuery({ queryKey: ['plugins', 'notifications', 'targets', tenantId], queryFn: ({ signal }) => getTargets(tenantId, signal) });
  const send = useMutation({
    mutationFn: () => sendNotification({ message: message.trim(), tenantId: targets.data?.tenantId, ...(target === 'all' ? { all: true } : { userIds: userIds.map(Number) }) }),
    onSuccess: (r) => {
      notify.success(t('sent', { n: r.recipients }));
      setMessage('');
      setUserIds([]);
      void queryClient.invalidateQueries({ queryKey: sentKey });
      onSent?.();
    },
  });
  const submit = () => {
    const next = {
      message: message.trim() ? undefined : t('required', { field: t('fieldMessage') }),
      users: target === 'users' && !userIds.length ? t('required', { field: t('fieldRecipients') }) : undefined,
    };
    setErrors(next);
    if (!next.message && !next.users) send.mutate();
  };
  return (
    <form aria-label={t('composeLabel')} onSubmit={(e) => { e.preventDefault(); submit(); }} noValidate>
      <Stack gap="sm">
        {superadmin && (
          <Select label={t('tenant')} searchable allowDeselect={false} data={(targets.data?.tenants ?? []).map((x) => ({ value: String(x.id), label: `${x.id} · ${x.name}` }))}
            value={String(targets.data?.tenantId ?? '')} onChange={(v) => { setTenantId(v ? Number(v) : undefined); setUserIds([]); }} />
        )}
        <SegmentedControl fullWidth value={target} onChange={(v) => setTarget(v as 'users' | 'all')}
          data={[{ value: 'users', label: t('toUsers') }, { value: 'all', label: t('toAll') }]} />
        {target === 'users' && (
          <MultiSelect label={t('recipients')} withAsterisk searchable clearable hidePickedOptions placeholder={t('pickUsers')} error={errors.users}
            data={(targets.data?.users ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={userIds}
            onChange={(v) => { setUserIds(v); setErrors((e) => ({ ...e, users: undefined })); }} />
        )}
        <Textarea label={t('message')} withAsterisk autosize minRows={3} maxLength={2000} value={message} error={errors.message}
          onChange={(e) => { setMessage(e.currentTarget.value); setErrors((x) => ({ ...x, message: undefined })); }} />
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconSend size={16} />} loading={send.isPending}>{t('send')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
