import '@mantine/charts/styles.css';
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Badge, Card, Group, Rating, SegmentedControl, SimpleGrid, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowsExchange, IconCircleCheck, IconClockHour4, IconMessageCircle, IconStar, IconTicket } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorBox, PageHeader, api, formatNumber, useRealtime } from '@atende/ui-shell/sdk';

interface Stats {
  range: { from: string; to: string; tz: string; scope: 'tenant' | 'user' };
  totals: { created: number; open: number; pending: number; closed: number; unanswered: number; transfers: number };
  byStatus: { status: string; count: number }[];
  perDay: { day: string; created: number; closed: number }[];
  firstResponseSeconds: number | null;
  resolutionSeconds: number | null;
  perQueue: { queueId: number | null; name: string | null; color: string | null; count: number }[];
  perAgent: { userId: number | null; name: string | null; count: number; closed: number; rating: number | null }[];
  rating: { average: number | null; count: number };
}

const STATUS_COLOR: Record<string, string> = { open: 'teal.6', pending: 'yellow.6', closed: 'gray.5', schedule: 'blue.6' };
const RANGES = [7, 30, 90] as const;
const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function duration(seconds: number | null, t: (k: string, o?: Record<string, unknown>) => string, lng: string): string {
  if (seconds === null) return '—';
  if (seconds < 60) return t('admin.dashboard.secs', { n: seconds });
  if (seconds < 3600) return t('admin.dashboard.mins', { n: Math.round(seconds / 60) });
  if (seconds < 86_400) return t('admin.dashboard.hours', { h: Math.floor(seconds / 3600), m: Math.round((seconds % 3600) / 60) });
  return t('admin.dashboard.days', { n: formatNumber(seconds / 86_400, lng, 1) });
}

function Kpi({ icon, color, label, value, hint }: { icon: ReactNode; color: string; label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card withBorder radius="md" p="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>{label}</Text>
          <Text fz={26} fw={700} lh={1.1}>{value}</Text>
          {hint && <Text size="xs" c="dimmed">{hint}</Text>}
        </Stack>
        <ThemeIcon variant="light" color={color} size={38} radius="md">{icon}</ThemeIcon>
      </Group>
    </Card>
  );
}

function ChartCard({ title, children, right }: { title: string; children: ReactNode; right?: ReactNode }) {
  return (
    <Card withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm"><Title order={5}>{title}</Title>{right}</Group>
      {children}
    </Card>
  );
}

/** `/home`: ticket figures of the period, from `GET /api/dashboard`. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState<string>('30');
  const to = new Date();
  const from = new Date(to.getTime() - (Number(days) - 1) * 86_400_000);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const q = useQuery({
    queryKey: ['admin', 'dashboard', days, tz],
    queryFn: ({ signal }) => api.get<Stats>('/dashboard', { signal, query: { from: localDay(from), to: localDay(to), tz } }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  useRealtime('ticket.created', () => void q.refetch());

  const d = q.data;
  const dayLabel = (iso: string) => new Date(`${iso}T12:00:00`).toLocaleDateString(i18n.language, { day: '2-digit', month: '2-digit' });
  const statusLabel = (s: string) => t(`admin.panel.statuses.${s}`, { defaultValue: s });

  return (
    <>
      <PageHeader
        title={t('admin.dashboard.title')}
        description={d?.range.scope === 'user' ? t('admin.dashboard.descriptionUser') : t('admin.dashboard.description')}
        actions={<SegmentedControl value={days} onChange={setDays} data={RANGES.map((n) => ({ value: String(n), label: t('admin.dashboard.lastDays', { n }) }))} aria-label={t('admin.dashboard.period')} />}
      />
      {q.error && !d ? <ErrorBox error={q.error} onRetry={() => void q.refetch()} /> : !d ? (
        <Stack>
          <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }}>{Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={96} radius="md" />)}</SimpleGrid>
          <Skeleton height={300} radius="md" />
        </Stack>
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }} spacing="md">
            <Kpi icon={<IconTicket size={20} />} color="blue" label={t('admin.dashboard.created')} value={d.totals.created} hint={t('admin.dashboard.inPeriod')} />
            <Kpi icon={<IconMessageCircle size={20} />} color="teal" label={t('admin.dashboard.openNow')} value={d.totals.open} hint={t('admin.dashboard.pendingNow', { n: d.totals.pending })} />
            <Kpi icon={<IconCircleCheck size={20} />} color="gray" label={t('admin.dashboard.closed')} value={d.totals.closed} hint={d.totals.created ? t('admin.dashboard.rate', { n: Math.round((d.totals.closed / d.totals.created) * 100) }) : undefined} />
            <Kpi icon={<IconClockHour4 size={20} />} color="orange" label={t('admin.dashboard.firstResponse')} value={duration(d.firstResponseSeconds, t, i18n.language)} hint={t('admin.dashboard.average')} />
            <Kpi icon={<IconClockHour4 size={20} />} color="violet" label={t('admin.dashboard.resolution')} value={duration(d.resolutionSeconds, t, i18n.language)} hint={t('admin.dashboard.average')} />
            <Kpi
              icon={<IconStar size={20} />}
              color="yellow"
              label={t('admin.dashboard.rating')}
              value={d.rating.average !== null ? formatNumber(d.rating.average, i18n.language, 1) : '—'}
              hint={<Group gap={6}><Rating value={d.rating.average ?? 0} fractions={2} readOnly size="xs" count={5} /><span>{t('admin.dashboard.ratings', { count: d.rating.count })}</span></Group>}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
            <div style={{ gridColumn: 'span 2' }}>
              <ChartCard title={t('admin.dashboard.perDay')} right={<Group gap={6}><Badge variant="dot" color="blue">{t('admin.dashboard.created')}</Badge><Badge variant="dot" color="teal">{t('admin.dashboard.closed')}</Badge></Group>}>
                <AreaChart
                  h={260}
                  data={d.perDay.map((p) => ({ ...p, label: dayLabel(p.day) }))}
                  dataKey="label"
                  series={[{ name: 'created', label: t('admin.dashboard.created'), color: 'blue.6' }, { name: 'closed', label: t('admin.dashboard.closed'), color: 'teal.6' }]}
                  curveType="monotone"
                  gridAxis="y"
                  withDots={d.perDay.length <= 31}
                  tickLine="none"
                  fillOpacity={0.18}
                  yAxisProps={{ allowDecimals: false, width: 36 }}
                />
              </ChartCard>
            </div>
            <ChartCard title={t('admin.dashboard.byStatus')}>
              {d.byStatus.length === 0 ? <EmptyState title={t('admin.dashboard.noData')} /> : (
                <Stack align="center" gap="sm">
                  <DonutChart
                    size={180}
                    thickness={26}
                    withLabelsLine={false}
                    chartLabel={String(d.totals.created)}
                    data={d.byStatus.map((s) => ({ name: statusLabel(s.status), value: s.count, color: STATUS_COLOR[s.status] ?? 'gray.5' }))}
                  />
                  <Group gap="xs" justify="center">
                    {d.byStatus.map((s) => <Badge key={s.status} variant="dot" color={(STATUS_COLOR[s.status] ?? 'gray.5').split('.')[0]}>{statusLabel(s.status)}: {s.count}</Badge>)}
                  </Group>
                  <Group gap="lg" mt="xs">
                    <Text size="xs" c="dimmed">{t('admin.dashboard.unanswered', { n: d.totals.unanswered })}</Text>
                    <Group gap={4}><IconArrowsExchange size={14} /><Text size="xs" c="dimmed">{t('admin.dashboard.transfers', { n: d.totals.transfers })}</Text></Group>
                  </Group>
                </Stack>
              )}
            </ChartCard>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            <ChartCard title={t('admin.dashboard.perQueue')}>
              {d.perQueue.length === 0 ? <EmptyState title={t('admin.dashboard.noData')} /> : (
                <BarChart
                  h={Math.max(160, d.perQueue.length * 34)}
                  orientation="vertical"
                  data={d.perQueue.map((x) => ({ queue: x.name ?? t('admin.panel.noQueue'), count: x.count, color: x.color ?? 'gray' }))}
                  dataKey="queue"
                  series={[{ name: 'count', label: t('admin.dashboard.tickets'), color: 'blue.6' }]}
                  gridAxis="x"
                  tickLine="none"
                  yAxisProps={{ width: 120 }}
                  xAxisProps={{ allowDecimals: false }}
                  getBarColor={(_v, row) => (typeof row?.color === 'string' && row.color.startsWith('#') ? row.color : 'var(--mantine-color-gray-5)')}
                />
              )}
            </ChartCard>
            <ChartCard title={t('admin.dashboard.perAgent')}>
              {d.perAgent.length === 0 ? <EmptyState title={t('admin.dashboard.noData')} /> : (
                <Table verticalSpacing={6} fz="sm" highlightOnHover>
                  <Table.Thead><Table.Tr><Table.Th>{t('admin.panel.user')}</Table.Th><Table.Th ta="right">{t('admin.dashboard.tickets')}</Table.Th><Table.Th ta="right">{t('admin.dashboard.closed')}</Table.Th><Table.Th ta="right">{t('admin.dashboard.rating')}</Table.Th></Table.Tr></Table.Thead>
                  <Table.Tbody>
                    {d.perAgent.map((a) => (
                      <Table.Tr key={a.userId ?? 'none'}>
                        <Table.Td><Text size="sm" fw={500} c={a.userId ? undefined : 'dimmed'}>{a.name ?? t('admin.panel.unassigned')}</Text></Table.Td>
                        <Table.Td ta="right">{a.count}</Table.Td>
                        <Table.Td ta="right">{a.closed}</Table.Td>
                        <Table.Td ta="right">{a.rating !== null ? <Group gap={4} justify="flex-end"><IconStar size={12} color="var(--mantine-color-yellow-6)" />{formatNumber(a.rating, i18n.language, 1)}</Group> : '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </ChartCard>
          </SimpleGrid>
        </Stack>
      )}
    </>
  );
}
