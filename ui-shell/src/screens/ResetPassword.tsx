import { Anchor, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, notify } from '@atende/ui-shell/sdk';
import { AuthLayout } from './auth/AuthLayout.tsx';

/** `#/reset/:token`: new password twice (core.md §2, §5, §8). */
export default function ResetPassword() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const next: typeof errors = {};
    if (!password) next.password = t('validation.required');
    if (!confirm) next.confirm = t('validation.required');
    else if (password !== confirm) next.confirm = t('reset.mismatch');
    setErrors(next);
    if (next.confirm === t('reset.mismatch')) notify.warning(t('reset.mismatch'));
    if (next.password || next.confirm) return;
    setSaving(true);
    try {
      await api.post('/reset-password', { token, password }, { silent: true });
      notify.success(t('reset.success'));
      navigate('/login');
    } catch {
      notify.error(t('reset.error'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <AuthLayout>
      <Stack gap="lg">
        <div>
          <Title order={2} fw={800}>{t('reset.title')}</Title>
          <Text c="dimmed" mt={6}>{t('reset.subtitle')}</Text>
        </div>
        <form onSubmit={(e) => { e.preventDefault(); void submit(); }} noValidate>
          <Stack gap="md">
            <PasswordInput label={t('reset.password')} autoComplete="new-password" size="md" leftSection={<IconLock size={18} />} value={password} onChange={(e) => { setPassword(e.currentTarget.value); setErrors({}); }} error={errors.password} />
            <PasswordInput label={t('reset.confirm')} autoComplete="new-password" size="md" leftSection={<IconLock size={18} />} value={confirm} onChange={(e) => { setConfirm(e.currentTarget.value); setErrors({}); }} error={errors.confirm} />
            <Button type="submit" size="md" fullWidth loading={saving}>{t('reset.submit')}</Button>
          </Stack>
        </form>
        <Anchor component={Link} to="/login" size="sm" ta="center">{t('reset.backToLogin')}</Anchor>
      </Stack>
    </AuthLayout>
  );
}
