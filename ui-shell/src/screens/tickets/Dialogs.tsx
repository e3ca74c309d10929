import { Alert, Badge, Button, Drawer, Group, Loader, Modal, NumberInput, ScrollArea, Select, Stack, Switch, Text, Textarea, TextInput, Timeline, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconCircleDot, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeInputBR, errorMessage, formatDateTime, notify } from '@atende/ui-shell/sdk';
import { fromZonedWall, useTenantTimeZone, zonedPreset } from './zoned.ts';
import type { TFunction } from 'i18next';
import { forwardMessages, getLogs, getRatingConfig, listDemands, listFarewells, searchMessages, unwrap, type Contact, type Message, type LogSide, type TicketLog } from './api.ts';
import { ContactPicker } from './ContactPicker.tsx';
import { intlLang, previewText, timeOf } from './util.tsx';

// The transfer dialog lives in its own file (queue-filtered people with presence and load, the note).
export { TransferDialog } from './TransferDialog.tsx';

/** Resolve: farewell yes/no with editable text, ask for a rating, motivo (demands plugin, hidden when disabled). */
export function ResolveDialog({ opened, onClose, onSubmit }: { opened: boolean; onClose: () => void; onSubmit: (body: Record<string, unknown>) => Promise<void> }) {
  const { t } = useTranslation();
  const [farewell, setFarewell] = useState(true);
  const [farewellText, setFarewellText] = useState('');
  const [rating, setRating] = useState(false);
  const [demand, setDemand] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const demands = useQuery({ queryKey: ['tickets', 'demands'], queryFn: listDemands, staleTime: 300_000, enabled: opened, retry: false });
  const demandList = demands.isError ? [] : unwrap<{ id: number; name: string }>(demands.data as never, 'demands');
  // Saved farewell texts (farewells plugin); none or switched off: the picker is not shown.
  const farewells = useQuery({ queryKey: ['tickets', 'farewells'], queryFn: listFarewells, staleTime: 60_000, enabled: opened, retry: false });
  const farewellList = farewells.isError ? [] : (farewells.data ?? []);
  // Ratings switched off for the tenant (/avaliacoes/configurar): the server refuses the request, so it is not offered.
  const ratingCfg = useQuery({ queryKey: ['tickets', 'rating-config'], queryFn: getRatingConfig, staleTime: 60_000, enabled: opened, retry: false });
  const ratingOffered = ratingCfg.data?.enabled !== false;
  useEffect(() => {
    if (opened) {
      setError(null);
      setRating(false);
      setFarewellText(t('tickets.resolve.defaultFarewell'));
    }
  }, [opened, t]);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSubmit({
        status: 'closed',
        sendFarewell: farewell,
        ...(farewell && farewellText.trim() ? { farewellMessage: farewellText.trim() } : {}),
        sendRating: ratingOffered && rating,
        ...(demand ? { demand } : {}),
      });
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.resolve.title')} centered>
      <Stack>
        <Switch label={t('tickets.resolve.sendFarewell')} checked={farewell} onChange={(e) => setFarewell(e.currentTarget.checked)} data-testid="resolve-farewell" />
        {farewell && farewellList.length > 0 && (
          <Select
            label={t('farewellPicker.label')}
            placeholder={t('farewellPicker.placeholder')}
            data={farewellList.map((f) => ({ value: String(f.id), label: f.message.length > 80 ? `${f.message.slice(0, 80)}…` : f.message }))}
            onChange={(v) => { const f = farewellList.find((x) => String(x.id) === v); if (f) setFarewellText(f.message); }}
            searchable
            comboboxProps={{ withinPortal: true }}
            data-testid="resolve-farewell-pick"
          />
        )}
        {farewell && <Textarea label={t('tickets.resolve.farewellText')} value={farewellText} onChange={(e) => setFarewellText(e.currentTarget.value)} autosize minRows={2} maxRows={6} data-testid="resolve-farewell-text" />}
        {ratingOffered && <Switch label={t('tickets.resolve.askRating')} description={t('tickets.resolve.askRatingHint')} checked={rating} onChange={(e) => setRating(e.currentTarget.checked)} data-testid="resolve-rating" />}
        {demandList.length > 0 && (
          <Select label={t('tickets.resolve.demand')} placeholder={t('tickets.resolve.demandPlaceholder')} data={demandList.map((d) => d.name)} value={demand} onChange={setDemand} clearable searchable comboboxProps={{ withinPortal: true }} />
        )}
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
          <Button color="teal" leftSection={<IconCheck size={16} />} onClick={() => void submit()} loading={busy} data-testid="resolve-submit">{t('tickets.resolve.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const RECURRENCES = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 60];

/** Schedule a message: dd/MM/yyyy HH:mm, presets, recurrence, repetitions (core.md §5, §9). */
export function ScheduleDialog({ opened, initialBody, onClose, onSubmit }: { opened: boolean; initialBody: string; onClose: () => void; onSubmit: (p: { body: string; scheduleDate: string; recurrence?: number; repetitions?: number }) => Promise<void> }) {
  const { t } = useTranslation();
  const [body, setBody] = useState('');
  const [when, setWhen] = useState<string | null>(null);
  const [recurrence, setRecurrence] = useState('0');
  const [repetitions, setRepetitions] = useState<number | string>(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Dates are typed and shown on the company's clock, as /agendamentos shows them.
  const timeZone = useTenantTimeZone(opened);
  useEffect(() => {
    if (opened) {
      setBody(initialBody);
      setWhen(null);
      setRecurrence('0');
      setRepetitions(1);
      setError(null);
    }
  }, [opened, initialBody]);
  const preset = (kind: '30m' | 'tomorrow' | 'week') => setWhen(zonedPreset(kind, timeZone));
  const submit = async () => {
    if (!when) return setError(t('tickets.schedule.dateRequired'));
    if (!body.trim()) return setError(t('tickets.schedule.bodyRequired'));
    const date = fromZonedWall(when, timeZone);
    if (date.getTime() <= Date.now()) return setError(t('tickets.schedule.past'));
    setBusy(true);
    setError(null);
    try {
      const rec = Number(recurrence);
      await onSubmit({ body: body.trim(), scheduleDate: date.toISOString(), ...(rec ? { recurrence: rec, repetitions: Number(repetitions) || 1 } : {}) });
      notify.success(t('tickets.schedule.done'));
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.schedule.title')} centered>
      <Stack>
        <Textarea label={t('tickets.schedule.message')} value={body} onChange={(e) => setBody(e.currentTarget.value)} autosize minRows={3} maxRows={8} required />
        <DateTimeInputBR label={t('tickets.schedule.when')} description={t('tickets.schedule.timeZone', { tz: timeZone })} value={when} onChange={setWhen} required data-testid="schedule-when" />
        <Group gap="xs">
          <Button size="compact-sm" variant="light" onClick={() => preset('30m')}>{t('tickets.schedule.in30')}</Button>
          <Button size="compact-sm" variant="light" onClick={() => preset('tomorrow')} data-testid="schedule-tomorrow">{t('tickets.schedule.tomorrow')}</Button>
          <Button size="compact-sm" variant="light" onClick={() => preset('week')}>{t('tickets.schedule.nextWeek')}</Button>
        </Group>
        <Group grow>
          <Select label={t('tickets.schedule.recurrence')} data={RECURRENCES.map((d) => ({ value: String(d), label: d ? t('tickets.schedule.everyDays', { n: d }) : t('tickets.schedule.none') }))} value={recurrence} onChange={(v) => setRecurrence(v ?? '0')} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
          <NumberInput label={t('tickets.schedule.repetitions')} min={1} max={100} value={repetitions} onChange={setRepetitions} disabled={recurrence === '0'} />
        </Group>
        {error && <Alert color="red">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
          <Button onClick={() => void submit()} loading={busy} data-testid="schedule-submit">{t('tickets.schedule.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Forward ≤ 10 selected messages to one contact (core.md §5). */
export function ForwardDialog({ opened, messageIds, onClose, onDone }: { opened: boolean; messageIds: string[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [contact, setContact] = useState<Contact | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) setContact(null);
  }, [opened]);
  const tooMany = messageIds.length > 10;
  const submit = async () => {
    if (!contact || tooMany || !messageIds.length) return;
    setBusy(true);
    try {
      await forwardMessages(messageIds, contact.id);
      notify.success(t('tickets.forward.done'));
      onDone();
    } catch {
      // the client toasted it
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.forward.title', { n: messageIds.length })} centered>
      <Stack>
        {tooMany && <Alert color="red">{t('tickets.forward.max')}</Alert>}
        <ContactPicker selected={contact} onSelect={setContact} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!contact || tooMany || !messageIds.length}>{t('tickets.forward.submit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The ticket's history (`GET /tickets/:id/logs`). */
/** "Ana · Atendimento": who and which queue a transfer side names. */
const sideText = (x: LogSide | undefined, t: TFunction) => (x ? [x.userName, x.queueName].filter(Boolean).join(' · ') || t('tickets.logs.nobody') : t('tickets.logs.nobody'));

/** The line under a history entry that says what it did: a transfer from/to, a score. */
function logDetail(l: TicketLog, t: TFunction): string | null {
  if (l.type === 'transferred' && (l.from || l.to)) return t('tickets.logs.fromTo', { from: sideText(l.from, t), to: sideText(l.to, t) });
  if (l.type === 'rated' && typeof l.data?.rating === 'number') return t('tickets.logs.score', { n: l.data.rating });
  return null;
}

export function LogsDrawer({ ticketId, opened, onClose }: { ticketId: number; opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const logs = useQuery({ queryKey: ['tickets', 'logs', ticketId], queryFn: () => getLogs(ticketId), enabled: opened });
  return (
    <Drawer opened={opened} onClose={onClose} title={t('tickets.logs.title')} position="right" size="md">
      {logs.isPending ? <Loader /> : !logs.data?.length ? <Text c="dimmed" size="sm">{t('tickets.logs.empty')}</Text> : (
        <Timeline bulletSize={18} lineWidth={2} active={logs.data.length}>
          {logs.data.map((l) => (
            <Timeline.Item key={l.id} bullet={<IconCircleDot size={12} />} title={i18n.exists(`tickets.logs.types.${l.type}`) ? t(`tickets.logs.types.${l.type}`) : t('tickets.logs.types.other')} data-testid="log-entry">
              {logDetail(l, t) && <Text size="sm">{logDetail(l, t)}</Text>}
              <Text size="xs" c="dimmed">{formatDateTime(l.createdAt, i18n.language)}{l.userName ? ` · ${l.userName}` : ''}</Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Drawer>
  );
}

/** Search inside the conversation (`GET /searchMessage`, ≥ 2 characters). */
export function SearchDrawer({ ticketId, opened, onClose, onPick }: { ticketId: number; opened: boolean; onClose: () => void; onPick: (m: Message) => void }) {
  const { t, i18n } = useTranslation();
  const [term, setTerm] = useState('');
  const [debounced] = useDebouncedValue(term.trim(), 300);
  const q = useQuery({ queryKey: ['tickets', 'search', ticketId, debounced], queryFn: () => searchMessages(ticketId, debounced), enabled: opened && debounced.length >= 2 });
  const list = Array.isArray(q.data) ? q.data : (q.data?.messages ?? []);
  const lng = intlLang(i18n.language);
  return (
    <Drawer opened={opened} onClose={onClose} title={t('tickets.search.title')} position="right" size="md">
      <Stack>
        <TextInput data-autofocus leftSection={<IconSearch size={16} />} placeholder={t('tickets.search.placeholder')} value={term} onChange={(e) => setTerm(e.currentTarget.value)} rightSection={q.isFetching ? <Loader size={14} /> : null} />
        {debounced.length >= 2 && !q.isFetching && !list.length && <Text size="sm" c="dimmed">{t('tickets.search.none')}</Text>}
        <ScrollArea.Autosize mah="70vh">
          {list.map((m) => (
            <UnstyledButton key={m.id} w="100%" p="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} onClick={() => onPick(m)}>
              <Group justify="space-between" wrap="nowrap">
                <Badge size="xs" variant="light" color={m.fromMe ? 'teal' : 'gray'}>{m.fromMe ? t('tickets.msg.you') : t('tickets.msg.contact')}</Badge>
                <Text size="xs" c="dimmed">{new Date(m.timestamp ?? m.createdAt).toLocaleDateString(lng)} {timeOf(m.timestamp ?? m.createdAt, lng)}</Text>
              </Group>
              <Text size="sm" lineClamp={3} mt={4}>{previewText(m.body)}</Text>
            </UnstyledButton>
          ))}
        </ScrollArea.Autosize>
      </Stack>
    </Drawer>
  );
}

