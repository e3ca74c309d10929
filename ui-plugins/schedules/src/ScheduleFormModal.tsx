import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconClockPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from '@mantine/form';
import { DateTimeInputBR, errorMessage, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { createScheduleInput, RECURRENCE_DAYS, updateScheduleInput } from '@atende/plugin-schedules/contract';
import { createSchedule, listChannels, schedulesKey, searchContacts, updateSchedule, type ContactOption, type Schedule } from './api.ts';
import { fromZonedWall, preset, toZonedWall } from './zoned.ts';

/** Recurrence choices of core.md §9 (0 = none). */
export const RECURRENCES = RECURRENCE_DAYS;
const VARIABLES = ['name', 'firstName', 'greeting', 'protocol', 'email', 'phoneNumber', 'user'];

interface FormValues {
  contactId: number | null;
  channelId: string | null;
  body: string;
  /** Wall-clock date and time on the tenant's clock. */
  when: string | null;
  recurrence: string;
  /** '' while the number field is being typed over. */
  repetitions: number | string;
}

interface Props {
  schedule: Schedule | null;
  timeZone: string;
  onClose: () => void;
}

/** Create or edit a scheduled message: contact, channel, text, date and time on the tenant's clock, presets, recurrence. */
export function ScheduleFormModal({ schedule, timeZone, onClose }: Props) {
  const { t } = usePluginTranslation('schedules');
  const queryClient = useQueryClient();
  const [contact, setContact] = useState<ContactOption | null>(schedule ? { id: schedule.contactId, name: schedule.contactName, number: schedule.contactNumber } : null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [failure, setFailure] = useState<string | null>(null);

  /** The form's values as the contract's schemas take them (the date entered on the tenant's clock). */
  const toInput = (v: FormValues) => {
    const rec = Number(v.recurrence);
    return {
      body: v.body,
      scheduleDate: v.when ? fromZonedWall(v.when, timeZone).toISOString() : undefined,
      recurrence: rec || null,
      repetitions: rec ? (v.repetitions === '' ? Number.NaN : Number(v.repetitions)) : 1,
    };
  };
  const form = useForm<FormValues>({
    initialValues: {
      contactId: schedule?.contactId ?? null,
      channelId: schedule?.channelId ? String(schedule.channelId) : null,
      body: schedule?.body ?? '',
      when: schedule ? toZonedWall(schedule.scheduleDate, timeZone) : null,
      recurrence: String(schedule?.recurrence ?? 0),
      repetitions: schedule?.repetitions ?? 1,
    },
    // The server's rules (the contract's schema), with the screen's own translated texts for the ones users meet.
    validate: (v) => {
      const input = toInput(v);
      const r = schedule ? updateScheduleInput.safeParse(input) : createScheduleInput.safeParse({ ...input, contactId: v.contactId ?? undefined, channelId: v.channelId ? Number(v.channelId) : null });
      const errors: Record<string, string> = {};
      for (const i of r.success ? [] : r.error.issues) {
        const field = String(i.path[0]);
        if (field === 'contactId') errors.contact = t('contactRequired');
        else if (field === 'body') errors.body = t('bodyRequired');
        else if (field === 'scheduleDate') errors.when = t('dateRequired');
        else errors[field] = i.message;
      }
      if (!v.when) errors.when = t('dateRequired');
      else if (fromZonedWall(v.when, timeZone).getTime() <= Date.now()) errors.when = t('datePast');
      return errors;
    },
  });
  const { values } = form;

  const contacts = useQuery({ queryKey: ['plugins', 'schedules', 'contacts', debounced], queryFn: () => searchContacts(debounced), enabled: !schedule && debounced.trim().length >= 2, staleTime: 30_000 });
  const channels = useQuery({ queryKey: ['plugins', 'schedules', 'channels'], queryFn: listChannels, enabled: !schedule, staleTime: 300_000 });
  const options = [...(contact ? [contact] : []), ...(contacts.data ?? []).filter((c) => c.id !== contact?.id)];

  const save = useMutation({
    mutationFn: async (v: FormValues) => {
      const common = toInput(v);
      const scheduleDate = common.scheduleDate!;
      return schedule
        ? updateSchedule(schedule.id, { ...common, scheduleDate })
        : createSchedule({ ...common, scheduleDate, contactId: v.contactId!, channelId: v.channelId ? Number(v.channelId) : null });
    },
    onSuccess: () => {
      notify.success(schedule ? t('updated') : t('created'));
      void queryClient.invalidateQueries({ queryKey: schedulesKey });
      onClose();
    },
    onError: (e) => setFailure(errorMessage(e)),
  });

  const submit = form.onSubmit((v) => {
    setFailure(null);
    save.mutate({ ...v, body: v.body.trim() });
  });

  return (
    <Modal opened onClose={onClose} title={schedule ? t('edit') : t('new')} size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <Select
              label={t('contact')}
              placeholder={t('contactPlaceholder')}
              withAsterisk
              searchable
              disabled={!!schedule}
              data={options.map((c) => ({ value: String(c.id), label: c.number ? `${c.name} · ${c.number}` : c.name }))}
              value={contact ? String(contact.id) : null}
              onChange={(v) => {
                const picked = options.find((c) => String(c.id) === v) ?? null;
                setContact(picked);
                form.setFieldValue('contactId', picked?.id ?? null);
              }}
              searchValue={search}
              onSearchChange={setSearch}
              filter={({ options: o }) => o}
              nothingFoundMessage={debounced.trim().length < 2 ? t('contactTypeMore') : contacts.isFetching ? t('searching') : t('contactNone')}
              error={form.errors.contact}
              data-testid="schedule-contact"
              comboboxProps={{ withinPortal: true }}
            />
            {!schedule && (
              <Select
                label={t('channel')}
                placeholder={t('channelAuto')}
                clearable
                data={(channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
                {...form.getInputProps('channelId')}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          </Group>
          <Textarea
            label={t('message')}
            withAsterisk
            autosize
            minRows={3}
            maxRows={8}
            {...form.getInputProps('body')}
            description={t('variables', { list: VARIABLES.map((v) => `{{${v}}}`).join(' ') })}
            data-testid="schedule-body"
          />
          <DateTimeInputBR label={t('when')} description={t('timeZone', { tz: timeZone })} withAsterisk value={values.when} onChange={(v) => form.setFieldValue('when', v)} error={form.errors.when} data-testid="schedule-when" />
          <Group gap="xs">
            <Text size="xs" c="dimmed">{t('presets')}</Text>
            {(['in30', 'tomorrow', 'nextWeek'] as const).map((k) => (
              <Button key={k} size="compact-xs" variant="light" onClick={() => form.setFieldValue('when', preset(k, timeZone))} data-testid={`preset-${k}`}>{t(`preset_${k}`)}</Button>
            ))}
          </Group>
          <Group grow>
            <Select
              label={t('recurrence')}
              data={RECURRENCES.map((d) => ({ value: String(d), label: d ? t('everyDays', { n: d }) : t('noRecurrence') }))}
              value={values.recurrence}
              onChange={(v) => form.setFieldValue('recurrence', v ?? '0')}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            <NumberInput label={t('repetitions')} min={1} max={100} {...form.getInputProps('repetitions')} disabled={values.recurrence === '0'} />
          </Group>
          {failure && <Alert color="red" data-testid="schedule-error">{failure}</Alert>}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>{t('common.cancel')}</Button>
            <Button type="submit" leftSection={<IconClockPlay size={16} />} loading={save.isPending} data-testid="schedule-save">{t('save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
