import { Alert, Badge, Button, Card, Group, NumberInput, SegmentedControl, SimpleGrid, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconPlug, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, ErrorBox, PageHeader, api, errorMessage, getSession, notify } from '@atende/ui-shell/sdk';
import { tenantSettingsQuery } from '../../../shell/tenant-settings.ts';

type Flag = 'enabled' | 'disabled';
type Settings = Record<string, Flag | number>;
interface PluginInfo { id: string; name: string; kind: string; description: string; enabled: boolean; ui: boolean }

/** The three visibility rules the spec forbids combining (core.md §5). */
const EXCLUSIVE = ['NotViewAssignedTickets', 'NotViewTicketsChatBot', 'ViewTicketsWithoutQueue'] as const;
const VISIBILITY = ['DirectTicketsToWallets', 'mostrarGruposParaTodos', 'mostrarFechadoParaTodos', 'supervisorAdmin', 'ForceAdminPendingAssignment', 'ForceSignature'] as const;
const FILTERS = ['nullticket', 'tagFiltro', 'kanbanFiltro'] as const;
const NUMBERS = [['maxAbsenceMessageRetries', 0, 100], ['ticketsFetchLimit', 10, 500], ['internalChatMessageLimit', 10, 1000]] as const;
/** core.md §4/§9: auto-resolve idle tickets after 10 min, 1 h, 1 day, 5 days, 10 days. */
const AUTO_CLOSE = [0, 10, 60, 1440, 7200, 14400] as const;

const pluginsKey = ['admin', 'plugins'] as const;

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" p="md">
      <Title order={5}>{title}</Title>
      {description && <Text size="sm" c="dimmed" mt={2}>{description}</Text>}
      <Stack gap={0} mt="sm">{children}</Stack>
    </Card>
  );
}

function Row({ label, hint, control }: { label: string; hint?: ReactNode; control: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" py={10} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} gap="lg">
      <Stack gap={2} style={{ flex: 1 }}>
        <Text size="sm" fw={500}>{label}</Text>
        {hint && <Text size="xs" c="dimmed">{hint}</Text>}
      </Stack>
      {control}
    </Group>
  );
}

/** `/configuracoes/geral`: tenant settings, the conflict rule explained, auto-close and plugins per tenant. */
export default function GeneralSettings() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const isAdmin = ['admin', 'superadmin'].includes(getSession()?.profile ?? '');
  const settings = useQuery(tenantSettingsQuery);
  const plugins = useQuery({ queryKey: pluginsKey, queryFn: ({ signal }) => api.get<PluginInfo[]>('/plugins', { signal }), enabled: isAdmin });
  const [conflict, setConflict] = useState<string | null>(null);
  const [pluginsChanged, setPluginsChanged] = useState(false);

  const save = useMutation({
    mutationFn: (patch: Settings) => api.put<Settings>('/settings', patch, { silent: true }),
    onSuccess: (data) => {
      qc.setQueryData(tenantSettingsQuery.queryKey, data);
      setConflict(null);
      notify.success(t('admin.settings.saved'));
    },
    onError: (e) => {
      if (e instanceof ApiError && e.code === 'ERR_SETTINGS_CONFLICT') setConflict(errorMessage(e));
      else notify.error(errorMessage(e));
    },
  });
  const togglePlugin = useMutation({
    mutationFn: (p: { id: string; enabled: boolean }) => api.put(`/plugins/${p.id}/enabled`, { enabled: p.enabled }),
    onSuccess: (_d, p) => {
      qc.setQueryData<PluginInfo[]>(pluginsKey, (list) => list?.map((x) => (x.id === p.id ? { ...x, enabled: p.enabled } : x)));
      setPluginsChanged(true);
      notify.success(p.enabled ? t('admin.settings.plugins.enabledOk') : t('admin.settings.plugins.disabledOk'));
    },
  });

  if (settings.error) return <ErrorBox error={settings.error} onRetry={() => void settings.refetch()} />;
  const s = settings.data;
  const on = (k: string) => s?.[k] === 'enabled';
  const activeExclusive = EXCLUSIVE.filter((k) => on(k));
  const flagSwitch = (k: string, blockedBy?: string) => (
    <Switch
      checked={on(k)}
      disabled={!isAdmin || !s || Boolean(blockedBy)}
      onChange={(e) => save.mutate({ [k]: e.currentTarget.checked ? 'enabled' : 'disabled' })}
      aria-label={t(`admin.settings.keys.${k}.label`)}
    />
  );

  return (
    <>
      <PageHeader title={t('admin.settings.title')} description={t('admin.settings.description')} />
      {!s ? (
        <Stack>{[1, 2, 3].map((i) => <Skeleton key={i} height={140} radius="md" />)}</Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" verticalSpacing="md">
          <Stack gap="md">
            <Section title={t('admin.settings.visibility')} description={t('admin.settings.visibilityText')}>
              <Alert variant="light" color={conflict ? 'red' : 'blue'} icon={conflict ? <IconAlertTriangle size={16} /> : <IconInfoCircle size={16} />} mb="xs" data-testid="settings-conflict">
                {conflict ?? t('admin.settings.exclusiveRule')}
              </Alert>
              {EXCLUSIVE.map((k) => {
                const other = activeExclusive.find((x) => x !== k);
                return (
                  <Row
                    key={k}
                    label={t(`admin.settings.keys.${k}.label`)}
                    hint={other && !on(k) ? <Text span size="xs" c="orange">{t('admin.settings.blockedBy', { other: t(`admin.settings.keys.${other}.label`) })}</Text> : t(`admin.settings.keys.${k}.hint`)}
                    control={flagSwitch(k, other && !on(k) ? other : undefined)}
                  />
                );
              })}
              {VISIBILITY.map((k) => <Row key={k} label={t(`admin.settings.keys.${k}.label`)} hint={t(`admin.settings.keys.${k}.hint`)} control={flagSwitch(k)} />)}
            </Section>
          </Stack>
          <Stack gap="md">
            <Section title={t('admin.settings.autoClose')} description={t('admin.settings.autoCloseText')}>
              <SegmentedControl
                mt="xs"
                fullWidth
                disabled={!isAdmin || !('autoCloseMinutes' in s)}
                value={String(typeof s.autoCloseMinutes === 'number' ? s.autoCloseMinutes : 0)}
                onChange={(v) => save.mutate({ autoCloseMinutes: Number(v) })}
                data={AUTO_CLOSE.map((m) => ({ value: String(m), label: t(`admin.settings.autoCloseOptions.${m}`) }))}
                aria-label={t('admin.settings.autoClose')}
              />
              {!('autoCloseMinutes' in s) && <Text size="xs" c="dimmed" mt={6}>{t('admin.settings.autoCloseServer')}</Text>}
            </Section>
            <Section title={t('admin.settings.filters')}>
              {FILTERS.map((k) => <Row key={k} label={t(`admin.settings.keys.${k}.label`)} hint={t(`admin.settings.keys.${k}.hint`)} control={flagSwitch(k)} />)}
            </Section>
            <Section title={t('admin.settings.limits')}>
              {NUMBERS.map(([k, min, max]) => (
                <Row
                  key={k}
                  label={t(`admin.settings.keys.${k}.label`)}
                  hint={t('admin.settings.range', { min, max })}
                  control={
                    <NumberInput
                      w={110}
                      size="xs"
                      min={min}
                      max={max}
                      clampBehavior="strict"
                      allowDecimal={false}
                      disabled={!isAdmin}
                      defaultValue={Number(s[k])}
                      aria-label={t(`admin.settings.keys.${k}.label`)}
                      onBlur={(e) => {
                        const v = Number(e.currentTarget.value);
                        if (Number.isInteger(v) && v >= min && v <= max && v !== s[k]) save.mutate({ [k]: v });
                      }}
                    />
                  }
                />
              ))}
            </Section>
          </Stack>
        </SimpleGrid>
      )}
      {isAdmin && (
        <Card withBorder radius="md" p="md" mt="md">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={5}>{t('admin.settings.plugins.title')}</Title>
              <Text size="sm" c="dimmed" mt={2}>{t('admin.settings.plugins.text')}</Text>
            </div>
            {pluginsChanged && <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => window.location.reload()}>{t('admin.settings.plugins.reload')}</Button>}
          </Group>
          {plugins.isLoading ? <Skeleton height={120} mt="sm" /> : plugins.error ? <ErrorBox compact error={plugins.error} onRetry={() => void plugins.refetch()} /> : (
            <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="sm" mt="sm">
              {(plugins.data ?? []).map((p) => (
                <Card key={p.id} withBorder radius="md" p="sm" data-testid={`plugin-${p.id}`}>
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Group gap="sm" wrap="nowrap" align="flex-start">
                      <IconPlug size={18} style={{ marginTop: 2, flexShrink: 0 }} color="var(--mantine-color-dimmed)" />
                      <Stack gap={2}>
                        <Group gap={6}><Text size="sm" fw={600}>{p.name}</Text><Badge size="xs" variant="default" radius="sm">{p.kind}</Badge></Group>
                        <Text size="xs" c="dimmed" lineClamp={2}>{p.description || p.id}</Text>
                      </Stack>
                    </Group>
                    <Switch
                      checked={p.enabled}
                      onChange={(e) => togglePlugin.mutate({ id: p.id, enabled: e.currentTarget.checked })}
                      aria-label={t('admin.settings.plugins.toggle', { name: p.name })}
                    />
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
          )}
        </Card>
      )}
    </>
  );
}
