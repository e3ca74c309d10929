import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title, useMantineColorScheme } from '@mantine/core';
import { IconLock, IconMail } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError, api, errorMessage, homePathFor, isEmail, notify, startSession, type LoginAnswer } from '@atende/ui-shell/sdk';
import { AuthLayout } from './auth/AuthLayout.tsx';
import { ForgotPasswordDialog } from './auth/ForgotPasswordDialog.tsx';
import { SliderCaptcha, type CaptchaChallenge } from './auth/SliderCaptcha.tsx';

/** Login answers with their own wording on this screen (core.md §8 "Other messages"). */
const LOGIN_MESSAGES: Record<string, string> = {
  ERR_INVALID_CREDENTIALS: 'login.invalid',
  ERR_CAPTCHA: 'login.captchaRequired',
  ERR_LIMIT_MAX: 'login.tooMany',
  ERR_NO_PERMISSION_API_ADMIN: 'login.notAuthorized',
  INVALID_LICENSE: 'login.licenseError',
};

/** `#/login`: email, password, slider captcha first, forgot password (core.md §2, §5, §8). */
export default function Login() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [captchaX, setCaptchaX] = useState<number | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);

  const captcha = useQuery({
    queryKey: ['auth', 'captcha'],
    queryFn: ({ signal }) => api.get<CaptchaChallenge>('/auth/captcha', { signal, silent: true }),
    staleTime: Infinity,
    retry: false,
    gcTime: 0,
  });
  const reloadCaptcha = () => {
    setCaptchaX(null);
    void captcha.refetch();
  };

  const submit = async () => {
    const trimmed = email.trim();
    if (!trimmed || !password) {
      notify.warning(t('login.invalid'));
      return;
    }
    if (!isEmail(trimmed)) {
      setEmailError(t('validation.email'));
      return;
    }
    // When the captcha could not even be loaded the server decides; otherwise it must be solved first.
    const challenge = captcha.data;
    if (challenge?.enabled && captchaX === null) {
      notify.warning(t('login.captchaRequired'));
      return;
    }
    setSubmitting(true);
    try {
      const body: Record<string, unknown> = { email: trimmed, password };
      if (challenge?.enabled) {
        body.captchaToken = challenge.token;
        body.captchaX = captchaX;
      }
      const answer = await api.post<LoginAnswer>('/auth/login', body, { silent: true });
      notify.success(t('login.success'));
      if (typeof answer.configs?.isDark === 'boolean') setColorScheme(answer.configs.isDark ? 'dark' : 'light');
      // Starting the session makes the shell build a fresh router (rendered on the next
      // frame); moving the hash now makes it start on the profile's landing page (core.md §6).
      startSession(answer);
      window.location.hash = `#${homePathFor(answer.profile)}`;
    } catch (e) {
      const key = e instanceof ApiError && e.code ? LOGIN_MESSAGES[e.code] : undefined;
      notify.error(key ? t(key) : errorMessage(e));
      // A captcha challenge is single-use.
      if (challenge?.enabled) reloadCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout>
      <Stack gap="lg">
        <div>
          <Title order={2} fw={800}>{t('login.title')}</Title>
          <Text c="dimmed" mt={6}>{t('login.subtitle')}</Text>
        </div>
        <form onSubmit={(e) => { e.preventDefault(); void submit(); }} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('login.email')}
              placeholder={t('login.emailPlaceholder')}
              type="email"
              autoComplete="username"
              size="md"
              leftSection={<IconMail size={18} stroke={1.6} />}
              value={email}
              onChange={(e) => { setEmail(e.currentTarget.value); setEmailError(null); }}
              onBlur={() => setEmailError(email.trim() && !isEmail(email) ? t('validation.email') : null)}
              error={emailError}
            />
            <PasswordInput
              label={t('login.password')}
              placeholder={t('login.passwordPlaceholder')}
              autoComplete="current-password"
              size="md"
              leftSection={<IconLock size={18} stroke={1.6} />}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <SliderCaptcha
              challenge={captcha.data}
              loading={captcha.isFetching}
              failed={captcha.isError && !captcha.isFetching}
              onReload={reloadCaptcha}
              onChange={setCaptchaX}
            />
            <Group justify="flex-end" mt={-4}>
              <Anchor component="button" type="button" size="sm" onClick={() => setForgotOpen(true)}>{t('login.forgot')}</Anchor>
            </Group>
            <Button type="submit" size="md" fullWidth loading={submitting}>{t('login.submit')}</Button>
          </Stack>
        </form>
        <Text size="sm" ta="center" c="dimmed">
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/signup" fw={600}>{t('login.signupLink')}</Anchor>
        </Text>
      </Stack>
      <ForgotPasswordDialog key={String(forgotOpen)} opened={forgotOpen} onClose={() => setForgotOpen(false)} initialEmail={email.trim()} />
    </AuthLayout>
  );
}
