import { Anchor, Button, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconId, IconLock, IconMail, IconPhone, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError, api, errorMessage, isCpfOrCnpj, isEmail, isStrongPassword, maskCpfCnpj, notify } from '@atende/ui-shell/sdk';
import { AuthLayout } from './auth/AuthLayout.tsx';
import { PlanPicker, type PublicPlan } from './auth/PlanPicker.tsx';

type Field = 'name' | 'email' | 'identity' | 'phone' | 'password' | 'plan';

/** `(11) 91234-5678`, or with the country code when more digits are typed. */
function maskPhone(raw: string): string {
  const d = raw.replace(/\D/g, '').slice(0, 13);
  if (d.length <= 2) return d;
  const local = d.length > 11 ? d.slice(d.length - 11) : d;
  const cc = d.length > 11 ? `+${d.slice(0, d.length - 11)} ` : '';
  const ddd = local.slice(0, 2);
  const rest = local.slice(2);
  const split = rest.length > 8 ? 5 : 4;
  return `${cc}(${ddd}) ${rest.length > split ? `${rest.slice(0, split)}-${rest.slice(split)}` : rest}`;
}

/** `#/signup`: customer data and a plan (core.md §2, §5, §8). */
export default function Signup() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', email: '', identity: '', phone: '', password: '' });
  const [planId, setPlanId] = useState<number | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);

  const plans = useQuery({
    queryKey: ['plans', 'public'],
    queryFn: ({ signal }) => api.get<PublicPlan[]>('/plans/public', { signal, silent: true }),
    retry: false,
  });

  const set = (field: Exclude<Field, 'plan'>, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const validate = (): Partial<Record<Field, string>> | null => {
    const required = t('validation.required');
    const missing: Partial<Record<Field, string>> = {};
    (Object.keys(form) as Array<keyof typeof form>).forEach((k) => {
      if (!form[k].trim()) missing[k] = required;
    });
    if (planId === null) missing.plan = required;
    if (Object.keys(missing).length) {
      notify.warning(t('signup.fillAll'));
      return missing;
    }
    const found: Partial<Record<Field, string>> = {};
    if (!isEmail(form.email)) found.email = t('signup.invalidEmail');
    if (!isCpfOrCnpj(form.identity)) found.identity = t('signup.invalidIdentity');
    if (form.phone.replace(/\D/g, '').length < 10) found.phone = t('validation.phone');
    if (!isStrongPassword(form.password)) found.password = t('signup.weakPassword');
    const first = Object.values(found)[0];
    if (first) {
      notify.warning(first);
      return found;
    }
    return null;
  };

  const submit = async () => {
    const problems = validate();
    setErrors(problems ?? {});
    if (problems) return;
    setSubmitting(true);
    try {
      await api.post('/signup', {
        name: form.name.trim(),
        email: form.email.trim(),
        identity: form.identity,
        phone: form.phone.replace(/\D/g, ''),
        password: form.password,
        planId,
      }, { silent: true });
      notify.success(t('signup.success'));
      navigate('/login');
    } catch (e) {
      // A catalogue code (e.g. e-mail in use) says more than the generic failure.
      const known = e instanceof ApiError && e.code && e.code !== 'ERR_CREATING_CLIENT' && i18next.exists(`errors.${e.code}`);
      notify.error(known ? errorMessage(e) : t('signup.error'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout wide>
      <Stack gap="lg">
        <div>
          <Title order={2} fw={800}>{t('signup.title')}</Title>
          <Text c="dimmed" mt={6}>{t('signup.subtitle')}</Text>
        </div>
        <form onSubmit={(e) => { e.preventDefault(); void submit(); }} noValidate>
          <Stack gap="md">
            <PlanPicker
              plans={plans.data}
              loading={plans.isLoading}
              failed={plans.isError}
              onRetry={() => void plans.refetch()}
              value={planId}
              onChange={(id) => { setPlanId(id); setErrors((e) => ({ ...e, plan: undefined })); }}
              error={errors.plan}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput label={t('signup.name')} withAsterisk autoComplete="organization" leftSection={<IconUser size={16} />} value={form.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} />
              <TextInput label={t('signup.email')} withAsterisk type="email" autoComplete="email" leftSection={<IconMail size={16} />} placeholder={t('login.emailPlaceholder')} value={form.email} onChange={(e) => set('email', e.currentTarget.value)} error={errors.email} />
              <TextInput label={t('signup.identity')} withAsterisk inputMode="numeric" leftSection={<IconId size={16} />} placeholder="000.000.000-00" value={form.identity} onChange={(e) => set('identity', maskCpfCnpj(e.currentTarget.value))} error={errors.identity} />
              <TextInput label={t('signup.phone')} withAsterisk type="tel" autoComplete="tel" leftSection={<IconPhone size={16} />} placeholder="(11) 91234-5678" value={form.phone} onChange={(e) => set('phone', maskPhone(e.currentTarget.value))} error={errors.phone} />
            </SimpleGrid>
            <PasswordInput
              label={t('signup.password')}
              withAsterisk
              autoComplete="new-password"
              leftSection={<IconLock size={16} />}
              description={t('signup.passwordHint')}
              value={form.password}
              onChange={(e) => set('password', e.currentTarget.value)}
              error={errors.password}
            />
            <Button type="submit" size="md" fullWidth loading={submitting} mt={4}>{t('signup.submit')}</Button>
          </Stack>
        </form>
        <Text size="sm" ta="center" c="dimmed">
          {t('signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login" fw={600}>{t('signup.loginLink')}</Anchor>
        </Text>
      </Stack>
    </AuthLayout>
  );
}
