import { Badge, Button, Group, Input, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconCheck, IconPlugConnected, IconRefresh, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatCurrency } from '@atende/ui-shell/sdk';

/** One entry of `GET /api/plans/public`. */
export interface PublicPlan {
  id: number;
  name: string;
  value: number;
  users: number;
  connections: number;
  trial: boolean;
  trialDays: number;
}

interface Props {
  plans: PublicPlan[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  value: number | null;
  onChange: (id: number) => void;
  error?: string | null;
}

function PlanCard({ plan, selected, onSelect }: { plan: PublicPlan; selected: boolean; onSelect: () => void }) {
  const { t } = useTranslation();
  return (
    <UnstyledButton onClick={onSelect} role="radio" aria-checked={selected} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
      <Paper
        withBorder
        radius="md"
        p="md"
        h="100%"
        style={{
          borderColor: selected ? 'var(--mantine-primary-color-filled)' : undefined,
          boxShadow: selected ? '0 0 0 1px var(--mantine-primary-color-filled)' : undefined,
          background: selected ? 'var(--mantine-primary-color-light)' : undefined,
          transition: 'border-color 120ms, background 120ms',
        }}
      >
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text fw={700}>{plan.name}</Text>
            {selected ? (
              <ThemeIcon size={20} radius="xl"><IconCheck size={13} stroke={3} /></ThemeIcon>
            ) : (
              <ThemeIcon size={20} radius="xl" variant="default" />
            )}
          </Group>
          <Group gap={4} align="baseline">
            <Text fz={22} fw={800} lh={1.1}>{plan.value > 0 ? formatCurrency(plan.value) : t('signup.free')}</Text>
            {plan.value > 0 && <Text size="xs" c="dimmed">{t('signup.perMonth')}</Text>}
          </Group>
          <Group gap={6} c="dimmed">
            <IconUsers size={14} />
            <Text size="xs">{t('signup.planUsers', { n: plan.users })}</Text>
          </Group>
          <Group gap={6} c="dimmed">
            <IconPlugConnected size={14} />
            <Text size="xs">{t('signup.planConnections', { n: plan.connections })}</Text>
          </Group>
          {plan.trial && plan.trialDays > 0 && (
            <Badge variant="light" color="teal" size="sm" mt={2} w="fit-content">{t('signup.trial', { n: plan.trialDays })}</Badge>
          )}
        </Stack>
      </Paper>
    </UnstyledButton>
  );
}

/** The plan choice of the signup page. */
export function PlanPicker({ plans, loading, failed, onRetry, value, onChange, error }: Props) {
  const { t } = useTranslation();
  let content;
  if (failed) {
    content = (
      <Paper withBorder radius="md" p="md" role="alert">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">{t('signup.plansError')}</Text>
          <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={onRetry}>{t('common.retry')}</Button>
        </Group>
      </Paper>
    );
  } else if (loading || !plans) {
    content = (
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        {[0, 1, 2].map((i) => <Skeleton key={i} height={138} radius="md" />)}
      </SimpleGrid>
    );
  } else if (plans.length === 0) {
    content = <Text size="sm" c="dimmed">{t('signup.noPlans')}</Text>;
  } else {
    content = (
      <SimpleGrid cols={{ base: 1, xs: Math.min(3, plans.length) }} spacing="sm" role="radiogroup" aria-label={t('signup.plan')}>
        {plans.map((p) => <PlanCard key={p.id} plan={p} selected={value === p.id} onSelect={() => onChange(p.id)} />)}
      </SimpleGrid>
    );
  }
  return (
    <Stack gap={6}>
      <Input.Label required>{t('signup.plan')}</Input.Label>
      {content}
      {error && <Text size="xs" c="red">{error}</Text>}
    </Stack>
  );
}
