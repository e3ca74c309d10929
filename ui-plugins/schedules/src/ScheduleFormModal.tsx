import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconClockPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTimeInputBR, errorMessage, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { createSchedule, listChannels, schedulesKey, searchContacts, updateSchedule, type ContactOption, type Schedule } from './api.ts';
import { fromZonedWall, preset, toZonedWall } from './zoned.ts';

/** Recurrence choices of core.md §9 (0 = none). */
export const RECURRENCES = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 60];
const VARIABLES = ['name', 'firstName', 'greeting', 'protocol', 'email', 'phoneNumber', 'user'];

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
  const [channelId, setChannelId] = useState<string | null>(schedule?.channelId ? String(schedule.channelId) : null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [body, setBody] = useState(schedule?.body ?? '');
  const [when, setWhen] = useState<string | null>(schedule ? toZonedWall(schedule.scheduleDate, timeZone) : null);
  const [recurrence, setRecurrence] = useState(String(schedule?.recurrence ?? 0));
  const [repetitions, setRepetitions] = useState<number | string>(schedule?.repetitions ?? 1);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const contacts = useQuery({ queryKey: ['plugins', 'schedules', 'contacts', debounced], queryFn: () => searchContacts(debounced), enabled: !schedule && debounced.trim().length >= 2, staleTime: 30_000 });
  const channels = useQuery({ queryKey: ['plugins', 'schedules', 'channels'], queryFn: listChannels, enabled: !schedule, staleTime: 300_000 });
  const options = [...(contact ? [contact] : []), ...(contacts.data ?? []).filter((c) => c.id !== contact?.id)];

  const save = useMutation({
    mutationFn: async () => {
      const scheduleDate = fromZonedWall(when!, timeZone).toISOString();
      const rec = Number(recurrence);
      const common = { body: body.trim(), scheduleDate, recurrence: rec || null, repetitions: rec ? Number(repetitions) || 1 : 1 };
      return schedule ? updateSchedule(schedule.id, common) : createSchedule({ ...common, contactId: contact!.id, channelId: channelId ? Number(channelId) : null });
    },
    onSuccess: () => {
      notify.success(schedule ? t('updated') : t('created'));
      void queryClient.invalidateQueries({ queryKey: schedulesKey });
      onClose();
    },
    onError: (e) => setFailure(errorMessage(e)),
  });

  const submit = () => {
    const next: Record<string, string> = {};
    if (!schedule && !contact) next.contact = t('contactRequired');
    if (!body.trim()) next.body = t('bodyRequired');
    if (!when) next.when = t('dateRequired');
    else if (fromZonedWall(when, timeZone).getTime() <= Date.now()) next.when = t('datePast');
    setErrors(next);
    setFailure(null);
    if (!Object.keys(next).length) save.mutate();
  };

  return (
    <Modal opened onClose={onClose} title={schedule ? t('edit') : t('new')} size="lg" centered>
      <form onSubmit={(e) => { e.preventDefault(); submit(); }} noValidate>
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
              onChange={(v) => setContact(options.find((c) => String(c.id) === v) ?? null)}
              searchValue={search}
              onSearchChange={setSearch}
              filter={({ options: o }) => o}
              nothingFoundMessage={debounced.trim().length < 2 ? t('contactTypeMore') : contacts.isFetching ? t('searching') : t('contactNone')}
              error={errors.contact}
              data-testid="schedule-contact"
              comboboxProps={{ withinPortal: true }}
            />
            {!schedule && (
              <Select
                label={t('channel')}
                placeholder={t('channelAuto')}
                clearable
                data={(channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
                value={channelId}
                onChange={setChannelId}
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
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
            error={errors.body}
            description={t('variables', { list: VARIABLES.map((v) => `{{${v}}}`).join(' ') })}
            data-testid="schedule-body"
          />
          <DateTimeInputBR label={t('when')} description={t('timeZone', { tz: timeZone })} withAsterisk value={when} onChange={setWhen} error={errors.when} data-testid="schedule-when" />
          <Group gap="xs">
            <Text size="xs" c="dimmed">{t('presets')}</Text>
            {(['in30', 'tomorrow', 'nextWeek'] as const).map((k) => (
              <Button key={k} size="compact-xs" variant="light" onClick={() => setWhen(preset(k, timeZone))} data-testid={`preset-${k}`}>{t(`preset_${k}`)}</Button>
            ))}
          </Group>
          <Group grow>
            <Select
              label={t('recurrence')}
              data={RECURRENCES.map((d) => ({ value: String(d), label: d ? t('everyDays', { n: d }) : t('noRecurrence') }))}
              value={recurrence}
              onChange={(v) => setRecurrence(v ?? '0')}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            <NumberInput label={t('repetitions')} min={1} max={100} value={repetitions} onChange={setRepetitions} disabled={recurrence === '0'} />
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
