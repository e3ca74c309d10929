import { Avatar, Badge, Button, Card, Code, Group, Select, SimpleGrid, Skeleton, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { IconCake, IconDeviceFloppy, IconPaperclip, IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { schemaResolver, useForm } from '@mantine/form';
import { ConfirmDialog, EmptyState, ErrorBox, PageHeader, formatDate, notify, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import { channelBirthdayInput, type ChannelBirthdayInput } from '@atende/plugin-birthdays/contract';
import { birthdaysKey, getBirthdays, saveChannel, sendToday, type BirthdayChannel, type BirthdayContact } from './api.ts';

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00` }));
const initials = (name: string) => name.split(/\s+/).filter(Boolean).slice(0, 2).map((p) => p[0]!.toUpperCase()).join('');

/** One channel's birthday message and whole hour, checked by the contract's rule (a message needs its hour). */
function ChannelMessage({ channel, variables }: { channel: BirthdayChannel; variables: string[] }) {
  const { t } = usePluginTranslation('birthdays');
  const queryClient = useQueryClient();
  const form = useForm<ChannelBirthdayInput>({
    initialValues: { birthdayMessage: channel.message ?? '', birthdayHour: channel.hour },
    validate: schemaResolver(channelBirthdayInput, { sync: true }),
  });
  const message = form.values.birthdayMessage ?? '';
  const area = useRef<HTMLTextAreaElement>(null);
  const save = useMutation({
    mutationFn: (v: ChannelBirthdayInput) => saveChannel(channel.id, { birthdayMessage: v.birthdayMessage?.trim() || null, birthdayHour: v.birthdayHour }),
    onSuccess: () => {
      notify.success(t('savedChannel', { name: channel.name }));
      void queryClient.invalidateQueries({ queryKey: birthdaysKey });
    },
  });
  const insert = (v: string) => {
    const el = area.current;
    const at = el?.selectionStart ?? message.length;
    form.setFieldValue('birthdayMessage', message.slice(0, at) + `{{${v}}}` + message.slice(el?.selectionEnd ?? at));
    requestAnimationFrame(() => el?.focus());
  };
  // The schema's message is Portuguese; the field shows the screen's translated text.
  const submit = form.onSubmit((v) => save.mutate(v));
  return (
    <Card withBorder padding="md" data-testid={`birthday-channel-${channel.id}`}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Text fw={600}>{channel.name}</Text>
          {channel.isDefault && <Badge size="xs" variant="light">{t('default')}</Badge>}
        </Group>
        {channel.media && <Badge size="sm" variant="outline" color="gray" leftSection={<IconPaperclip size={12} />}>{channel.media.name}</Badge>}
      </Group>
      <Group align="flex-start" gap="md" wrap="nowrap">
        <Textarea
          ref={area}
          style={{ flex: 1 }}
          autosize
          minRows={3}
          maxRows={8}
          maxLength={4096}
          placeholder={t('messagePlaceholder', { firstName: '{{firstName}}' })}
          aria-label={t('message')}
          value={message}
          onChange={(e) => form.setFieldValue('birthdayMessage', e.currentTarget.value)}
        />
        <Stack gap="xs" w={150}>
          <Select
            label={t('hour')}
            description={t('hourHint')}
            data={HOURS}
            value={form.values.birthdayHour === null ? null : String(form.values.birthdayHour)}
            onChange={(v) => form.setFieldValue('birthdayHour', v === null ? null : Number(v))}
            clearable
            error={form.errors.birthdayHour ? t('hourRequired') : undefined}
            comboboxProps={{ withinPortal: true }}
          />
          <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => submit()} loading={save.isPending} variant="light">{t('common.save')}</Button>
        </Stack>
      </Group>
      <Group gap={6} mt="xs">
        <Text size="xs" c="dimmed">{t('variables')}</Text>
        {variables.map((v) => <Code key={v} style={{ cursor: 'pointer' }} onClick={() => insert(v)}>{`{{${v}}}`}</Code>)}
      </Group>
    </Card>
  );
}

/** `/aniversarios`: who has a birthday today and soon, and the greeting each channel sends at its hour. */
export default function BirthdaysPage() {
  const { t, i18n } = usePluginTranslation('birthdays');
  const queryClient = useQueryClient();
  const [days, setDays] = useState('30');
  const [confirm, setConfirm] = useState(false);
  const data = useQuery({ queryKey: [...birthdaysKey, days], queryFn: () => getBirthdays(Number(days)) });
  useRealtime('birthday.sent', () => void queryClient.invalidateQueries({ queryKey: birthdaysKey }));
  const send = useMutation({
    mutationFn: sendToday,
    onSuccess: (r) => {
      notify.success(t('sentCount', { count: r.sent }));
      void queryClient.invalidateQueries({ queryKey: birthdaysKey });
    },
  });
  if (data.error) return <ErrorBox title={t('loadFailed')} onRetry={() => void data.refetch()} />;
  const b = data.data;
  const pending = b?.today.filter((c) => c.sentStatus !== 'sent').length ?? 0;
  const statusBadge = (c: BirthdayContact) =>
    c.sentStatus === 'sent' ? <Badge color="teal" variant="light">{t('sent')}</Badge>
      : c.sentStatus === 'failed' ? <Badge color="red" variant="light">{t('failed')}</Badge>
        : <Badge color="gray" variant="light">{t('waiting')}</Badge>;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={b ? t('description', { tz: b.timeZone }) : undefined}
        actions={<Button leftSection={<IconSend size={16} />} disabled={!pending} onClick={() => setConfirm(true)} data-testid="birthday-send">{t('sendToday')}</Button>}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" mb="md">
        <Card withBorder padding="md">
          <Group justify="space-between" mb="sm">
            <Group gap="xs"><IconCake size={18} /><Title order={4}>{t('today')}</Title></Group>
            {b && <Badge variant="light" size="lg">{b.today.length}</Badge>}
          </Group>
          {!b ? <Skeleton h={120} /> : b.today.length === 0 ? <EmptyState title={t('noneToday')} /> : (
            <Stack gap="xs" data-testid="birthday-today">
              {b.today.map((c) => (
                <Group key={c.id} justify="space-between" wrap="nowrap">
                  <Group gap="sm" wrap="nowrap">
                    <Avatar color="pink" radius="xl">{initials(c.name)}</Avatar>
                    <Stack gap={0}>
                      <Text size="sm" fw={500}>{c.name}</Text>
                      <Text size="xs" c="dimmed">{[c.number, t('turns', { n: c.age })].filter(Boolean).join(' · ')}</Text>
                    </Stack>
                  </Group>
                  {statusBadge(c)}
                </Group>
              ))}
            </Stack>
          )}
        </Card>
        <Card withBorder padding="md">
          <Group justify="space-between" mb="sm">
            <Title order={4}>{t('upcoming')}</Title>
            <Select size="xs" w={150} value={days} onChange={(v) => setDays(v ?? '30')} allowDeselect={false} data={['7', '30', '90'].map((d) => ({ value: d, label: t('nextDays', { n: d }) }))} comboboxProps={{ withinPortal: true }} />
          </Group>
          {!b ? <Skeleton h={120} /> : b.upcoming.length === 0 ? <EmptyState title={t('noneUpcoming')} /> : (
            <Table.ScrollContainer minWidth={360} mah={260}>
              <Table verticalSpacing={4} fz="sm" data-testid="birthday-upcoming">
                <Table.Thead><Table.Tr><Table.Th>{t('contact')}</Table.Th><Table.Th>{t('date')}</Table.Th><Table.Th ta="right">{t('inDays')}</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {b.upcoming.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td><Text size="sm" fw={500}>{c.name}</Text><Text size="xs" c="dimmed">{t('turns', { n: c.age })}</Text></Table.Td>
                      {/* A calendar date, not an instant: read it as local midnight so no zone shifts the day. */}
                      <Table.Td>{formatDate(new Date(`${c.nextBirthday}T00:00:00`), i18n.language)}</Table.Td>
                      <Table.Td ta="right">{t('days', { count: c.daysUntil })}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      </SimpleGrid>
      <Title order={4} mb={4}>{t('channelsTitle')}</Title>
      <Text size="sm" c="dimmed" mb="sm">{t('channelsText')}</Text>
      {!b ? <Skeleton h={160} /> : b.channels.length === 0 ? <EmptyState title={t('noChannels')} /> : (
        <Stack gap="sm">{b.channels.map((c) => <ChannelMessage key={c.id} channel={c} variables={b.variables} />)}</Stack>
      )}
      <ConfirmDialog
        opened={confirm}
        title={t('sendToday')}
        message={t('sendConfirm', { count: pending })}
        confirmLabel={t('send')}
        onConfirm={() => send.mutateAsync()}
        onClose={() => setConfirm(false)}
      />
    </>
  );
}
