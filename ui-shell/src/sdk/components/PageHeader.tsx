import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface PageHeaderProps {
  title: string;
  description?: string;
  /** Buttons on the right (e.g. "New"). */
  actions?: ReactNode;
  icon?: ReactNode;
}

/** Title row of a screen. */
export function PageHeader({ title, description, actions, icon }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="md" mb="lg">
      <Group gap="sm" wrap="nowrap" align="center">
        {icon}
        <Stack gap={2}>
          <Title order={2} fz={{ base: 22, sm: 26 }} fw={700} lh={1.2}>{title}</Title>
          {description && <Text c="dimmed" size="sm">{description}</Text>}
        </Stack>
      </Group>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}
