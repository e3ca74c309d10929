import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  /** What to do next. */
  description?: string;
  icon?: ReactNode;
  /** Usually the button that creates the first record. */
  action?: ReactNode;
}

/** An empty list that says what to do next (docs/ui.md "Feedback"). */
export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  return (
    <Center py={48} px="md">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light">
          {icon ?? <IconInbox size={28} stroke={1.5} />}
        </ThemeIcon>
        <Title order={4} mt={4}>{title}</Title>
        {description && <Text c="dimmed" size="sm">{description}</Text>}
        {action && <div style={{ marginTop: 8 }}>{action}</div>}
      </Stack>
    </Center>
  );
}
