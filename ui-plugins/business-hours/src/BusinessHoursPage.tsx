import { Alert, Badge, Button, Card, Code, Group, SegmentedControl, Skeleton, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconDeviceFloppy, IconWorld } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { schemaResolver, useForm } from '@mantine/form';
import { ErrorBox, PageHeader, errorMessage, notify, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { absenceInput, businessHoursInput, dayHours, type AbsenceInput, type BusinessHoursInput } from '@atende/plugin-business-hours/contract';
import { getHours, hoursKey, saveAbsence, saveHours, type BusinessHours, type DayHours } from './api.ts';

const VARIABLES = ['name', 'firstName', 'greeting', 'protocol', 'email', 'phoneNumber'];
type Range = 'start' | 'end' | 'start2' | 'end2';

/** The weekday's name in the user's language (1 January 2023 was a Sunday). */
const dayName = (day: number, lang: string) => new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2023, 0, 1 + day)));

/**
 * Checks one day with the contract's rule, as the server will, so the row shows
 * its message before saving (in the user's language: the schema's is Portuguese).
 */
function dayError(d: DayHours, t: (k: string) => string): string | null {
  const r = dayHours.safeParse(d);
  if (r.success) return null;
  return r.error.issues.some((i) => i.path[0] === 'start2') ? t('errSecond') : t('errFirst');
}

/** What is saved: a day's ranges only when it has them. */
const toSave = (d: DayHours): DayHours => (d.type === 'H' ? { day: d.day, type: d.type, start: d.start, end: d.end, ...(d.start2 && d.end2 ? { start2: d.start2, end2: d.end2 } : {}) } : { day: d.day, type: d.type });

/** `/horario-atendimento`: each weekday's type and hours, and the absence message, in the tenant's time zone. */
export default function BusinessHoursPage() {
  const { t, i18n } = usePluginTranslation('business-hours');
  const queryClient = useQueryClient();
  const hours = useQuery({ queryKey: hoursKey, queryFn: getHours });
  const hoursForm = useForm<BusinessHoursInput>({ initialValues: { businessHours: [] }, validate: schemaResolver(businessHoursInput, { sync: true }) });
  const absenceForm = useForm<AbsenceInput>({ initialValues: { messageBusinessHours: '' }, validate: schemaResolver(absenceInput, { sync: true }) });
  const days = hoursForm.values.businessHours;
  const absence = absenceForm.values.messageBusinessHours;
  const [failure, setFailure] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (hours.data) {
      hoursForm.setValues({ businessHours: hours.data.businessHours.map((d) => ({ ...d })) });
      absenceForm.setValues({ messageBusinessHours: hours.data.messageBusinessHours });
    }
    // Only a new answer resets the forms (they are stable across renders).
  }, [hours.data]);
  useRealtime<BusinessHours>('tenant.business_hours_updated', (d) => queryClient.setQueryData(hoursKey, d));

  const errors = days.map((d) => dayError(d, t));
  const saveDays = useMutation({
    mutationFn: (v: BusinessHoursInput) => saveHours({ businessHours: v.businessHours.map(toSave) }),
    onSuccess: (d) => {
      queryClient.setQueryData(hoursKey, d);
      setFailure(null);
      notify.success(t('savedHours'));
    },
    onError: (e) => setFailure(errorMessage(e)),
  });
  const saveMessage = useMutation({
    mutationFn: (v: AbsenceInput) => saveAbsence(v),
    onSuccess: (d) => {
      queryClient.setQueryData(hoursKey, d);
      notify.success(t('savedMessage'));
    },
  });

  const set = (day: number, patch: Partial<DayHours>) => hoursForm.setFieldValue('businessHours', days.map((d) => (d.day === day ? { ...d, ...patch } : d)));
  const insert = (v: string) => {
    const el = area.current;
    const at = el?.selectionStart ?? absence.length;
    absenceForm.setFieldValue('messageBusinessHours', absence.slice(0, at) + `{{${v}}}` + absence.slice(el?.selectionEnd ?? at));
    requestAnimationFrame(() => el?.focus());
  };

  if (hours.error) return <ErrorBox title={t('loadFailed')} onRetry={() => void hours.refetch()} />;
  const data = hours.data;
  const timeInput = (d: DayHours, key: Range) => (
    <TextInput
      type="time"
      size="xs"
      w={124}
      aria-label={`${dayName(d.day, i18n.language)} ${t(key)}`}
      value={d[key] ?? ''}
      disabled={d.type !== 'H'}
      onChange={(e) => set(d.day, { [key]: e.currentTarget.value || null })}
      data-testid={`hours-${d.day}-${key}`}
    />
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={data && (
          <Group gap="xs">
            <Badge variant="light" color="gray" leftSection={<IconWorld size={12} />} size="lg" tt="none">{data.timezone}</Badge>
            <Badge variant="light" color={data.openNow ? 'teal' : 'red'} size="lg" data-testid="hours-open-now">{data.openNow ? t('openNow') : t('closedNow')}</Badge>
          </Group>
        )}
      />
      <Stack gap="lg">
        <Card withBorder padding={0}>
          {hours.isLoading ? <Skeleton h={320} /> : (
            <Table verticalSpacing="xs" horizontalSpacing="md" striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={150}>{t('day')}</Table.Th>
                  <Table.Th w={330}>{t('type')}</Table.Th>
                  <Table.Th>{t('first')}</Table.Th>
                  <Table.Th>{t('second')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {days.map((d, i) => (
                  <Table.Tr key={d.day} data-testid={`hours-row-${d.day}`}>
                    <Table.Td><Text size="sm" fw={500} tt="capitalize">{dayName(d.day, i18n.language)}</Text></Table.Td>
                    <Table.Td>
                      <SegmentedControl
                        size="xs"
                        value={d.type}
                        onChange={(v) => set(d.day, v === 'H' ? { type: 'H', start: d.start ?? '08:00', end: d.end ?? '18:00' } : { type: v as DayHours['type'] })}
                        data={[{ value: 'O', label: t('typeO') }, { value: 'C', label: t('typeC') }, { value: 'H', label: t('typeH') }]}
                        data-testid={`hours-type-${d.day}`}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">{timeInput(d, 'start')}<Text size="xs" c="dimmed">–</Text>{timeInput(d, 'end')}</Group>
                      {errors[i] && <Text size="xs" c="red" mt={2}>{errors[i]}</Text>}
                    </Table.Td>
                    <Table.Td><Group gap={6} wrap="nowrap">{timeInput(d, 'start2')}<Text size="xs" c="dimmed">–</Text>{timeInput(d, 'end2')}</Group></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="space-between" p="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <Text size="xs" c="dimmed" maw={560}>{t('legend')}</Text>
            <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => hoursForm.onSubmit((v) => saveDays.mutate(v))()} loading={saveDays.isPending} disabled={!data || errors.some(Boolean)} data-testid="hours-save">{t('saveHours')}</Button>
          </Group>
          {failure && <Alert color="red" m="md" mt={0} data-testid="hours-error">{failure}</Alert>}
        </Card>

        <Card withBorder padding="md">
          <Title order={4} mb={4}>{t('absenceTitle')}</Title>
          <Text size="sm" c="dimmed" mb="sm">{t('absenceText')}</Text>
          <Textarea ref={area} autosize minRows={3} maxRows={8} maxLength={4096} value={absence} onChange={(e) => absenceForm.setFieldValue('messageBusinessHours', e.currentTarget.value)} placeholder={t('absencePlaceholder', { firstName: '{{firstName}}' })} aria-label={t('absenceTitle')} data-testid="hours-absence" />
          <Group justify="space-between" mt="sm">
            <Group gap={6}>
              <Text size="xs" c="dimmed">{t('variables')}</Text>
              {VARIABLES.map((v) => <Code key={v} style={{ cursor: 'pointer' }} onClick={() => insert(v)}>{`{{${v}}}`}</Code>)}
            </Group>
            <Button variant="light" leftSection={<IconDeviceFloppy size={16} />} onClick={() => absenceForm.onSubmit((v) => saveMessage.mutate(v))()} loading={saveMessage.isPending} disabled={!data} data-testid="hours-absence-save">{t('saveMessage')}</Button>
          </Group>
        </Card>
      </Stack>
    </>
  );
}
