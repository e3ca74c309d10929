import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../errors.ts';

export interface ErrorBoxProps {
  /** Headline; defaults to "Something went wrong" in the user's language. */
  title?: string;
  /** The failure; its text follows the error catalogue rules. */
  error?: unknown;
  /** Explicit text, when there is no error object. */
  message?: string;
  /** Shows a retry button. */
  onRetry?: () => void;
  /** Smaller, for use inside cards and tables. */
  compact?: boolean;
}

/** A failure explained in plain words, with a way forward when there is one. */
export function ErrorBox({ title, error, message, onRetry, compact }: ErrorBoxProps) {
  const { t } = useTranslation();
  const text = message ?? (error === undefined ? undefined : errorMessage(error));
  return (
    <Center py={compact ? 'md' : 48} px="md" role="alert">
      <Stack align="center" gap={compact ? 6 : 'sm'} maw={440} ta="center">
        <ThemeIcon size={compact ? 36 : 52} radius="xl" variant="light" color="red">
          <IconAlertTriangle size={compact ? 20 : 28} stroke={1.6} />
        </ThemeIcon>
        <Title order={compact ? 5 : 4}>{title ?? t('errorBox.title')}</Title>
        {text && <Text c="dimmed" size="sm">{text}</Text>}
        {onRetry && (
          <Button variant="light" color="red" size={compact ? 'xs' : 'sm'} leftSection={<IconRefresh size={16} />} onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
