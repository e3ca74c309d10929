import { Avatar, Badge, Button, Drawer, Group, NumberInput, Paper, ScrollArea, Select, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTimeInputBR, EmptyState, formatDateTime, getSession, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { taskForm, type TaskFormValues } from '@atende/plugin-tasks/contract';
import { addComment, createTask, listComments, PRIORITIES, RECURRENCES, tasksKey, toLocalInput, updateTask, type Priority, type Task, type TaskInput } from './api.ts';

interface Props {
  /** The task being edited, or null to create one. */
  task: Task | null;
  initialTab: 'details' | 'comments';
  owners: { id: number; name: string }[];
  onClose: () => void;
  onSaved: () => void;
}

/** Create or edit a task; an existing task also shows its comments thread. */
export function TaskDrawer({ task, initialTab, owners, onClose, onSaved }: Props) {
  const { t } = usePluginTranslation('tasks');
  const session = getSession();
  // Validated by the same rules the server applies (the plugin's contract).
  const form = useForm<TaskFormValues>({
    initialValues: {
      name: task?.name ?? '',
      description: task?.description ?? '',
      limitDate: task ? toLocalInput(task.limitDate) : '',
      ownerId: String(task?.ownerId ?? session?.userId ?? ''),
      priority: task?.priority ?? 'none',
      recurrence: String(task?.recurrence ?? 0),
      repetitions: task?.repetitions || 1,
    },
    validate: schemaResolver(taskForm, { sync: true }),
  });
  // The schema's messages are Portuguese; the spec's own message for each missing required field (core.md §5) is shown translated.
  const required = (field: 'name' | 'limitDate', label: string) =>
    form.errors[field] ? (String(form.values[field] ?? '').trim() ? String(form.errors[field]) : t('required', { field: label })) : undefined;

  const save = useMutation({
    mutationFn: (body: TaskInput) => (task ? updateTask(task.id, body) : createTask(body)),
    onSuccess: () => {
      notify.success(task ? t('updated') : t('created'));
      onSaved();
      onClose();
    },
  });

  const submit = (values: TaskFormValues) => {
    const v = taskForm.parse(values);
    const recurrence = Number(v.recurrence);
    save.mutate({
      name: v.name,
      description: v.description.trim() || null,
      limitDate: new Date(v.limitDate).toISOString(),
      ownerId: v.ownerId ? Number(v.ownerId) : undefined,
      priority: v.priority,
      recurrence: recurrence as NonNullable<TaskInput['recurrence']>,
      ...(recurrence ? { repetitions: v.repetitions } : {}),
    });
  };

  const details = (
    <form aria-label={t('formLabel')} onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm">
        <TextInput label={t('name')} withAsterisk maxLength={200} {...form.getInputProps('name')} error={required('name', t('fieldName'))} data-autofocus />
        <Textarea label={t('descriptionField')} autosize minRows={2} maxRows={6} maxLength={5000} {...form.getInputProps('description')} />
        <Group grow align="flex-start">
          <DateTimeInputBR
            label={t('limitDate')}
            withAsterisk
            value={form.values.limitDate || null}
            onChange={(v) => form.setFieldValue('limitDate', v ?? '')}
            error={required('limitDate', t('fieldLimitDate'))}
          />
          <Select label={t('owner')} searchable data={owners.map((o) => ({ value: String(o.id), label: o.name }))} {...form.getInputProps('ownerId')} allowDeselect={false} />
        </Group>
        <Select
          label={t('priority')}
          data={PRIORITIES.map((p) => ({ value: p, label: t(`priority_${p}`) }))}
          value={form.values.priority}
          onChange={(v) => v && form.setFieldValue('priority', v as Priority)}
          allowDeselect={false}
        />
        <Group grow align="flex-start">
          <Select
            label={t('recurrence')}
            data={RECURRENCES.map((d) => ({ value: String(d), label: d ? t('everyDays', { days: d }) : t('noRecurrence') }))}
            value={form.values.recurrence}
            onChange={(v) => v && form.setFieldValue('recurrence', v)}
            allowDeselect={false}
          />
          <NumberInput
            label={t('repetitions')}
            description={t('repetitionsHint')}
            min={1}
            max={100}
            disabled={form.values.recurrence === '0'}
            value={form.values.repetitions}
            onChange={(v) => form.setFieldValue('repetitions', typeof v === 'number' ? v : 1)}
          />
        </Group>
        <Group justify="flex-end" gap="xs" mt="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>{t('common.cancel')}</Button>
          <Button type="submit" loading={save.isPending}>{t('common.save')}</Button>
        </Group>
      </Stack>
    </form>
  );

  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={<Text fw={600}>{task ? t('edit') : t('new')}</Text>}>
      {task ? (
        <Tabs defaultValue={initialTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="details">{t('details')}</Tabs.Tab>
            <Tabs.Tab value="comments" rightSection={task.commentCount ? <Badge size="xs" variant="light">{task.commentCount}</Badge> : undefined}>{t('comments')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="details">{details}</Tabs.Panel>
          <Tabs.Panel value="comments"><Comments task={task} onChanged={onSaved} /></Tabs.Panel>
        </Tabs>
      ) : details}
    </Drawer>
  );
}

/** The comments thread of one task, newest at the bottom, with a box to add one. */
function Comments({ task, onChanged }: { task: Task; onChanged: () => void }) {
  const { t, i18n } = usePluginTranslation('tasks');
  const queryClient = useQueryClient();
  const key = [...tasksKey, 'comments', task.id];
  const comments = useQuery({ queryKey: key, queryFn: ({ signal }) => listComments(task.id, signal) });
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (body: string) => addComment(task.id, body),
    onSuccess: () => {
      setText('');
      void queryClient.invalidateQueries({ queryKey: key });
      onChanged();
    },
  });
  const send = () => {
    if (!text.trim()) return setError(t('required', { field: t('fieldComment') }));
    add.mutate(text.trim());
  };

  return (
    <Stack gap="sm">
      <ScrollArea.Autosize mah={420} type="auto">
        <Stack gap="xs" pr="xs">
          {comments.data?.length === 0 && <EmptyState title={t('noComments')} description={t('noCommentsText')} />}
          {comments.data?.map((c) => (
            <Paper key={c.id} withBorder p="xs" radius="md">
              <Group gap="xs" mb={4} wrap="nowrap">
                <Avatar size={22} radius="xl" color="initials" name={c.userName ?? '?'} />
                <Text size="xs" fw={600}>{c.userName ?? '—'}</Text>
                <Text size="xs" c="dimmed">{formatDateTime(c.createdAt, i18n.language)}</Text>
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{c.body}</Text>
            </Paper>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      <Textarea
        aria-label={t('newComment')}
        placeholder={t('newCommentPlaceholder')}
        autosize
        minRows={2}
        maxLength={5000}
        value={text}
        error={error}
        onChange={(e) => { setText(e.currentTarget.value); setError(null); }}
        onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send(); }}
      />
      <Group justify="flex-end">
        <Button leftSection={<IconSend size={14} />} onClick={send} loading={add.isPending}>{t('addComment')}</Button>
      </Group>
    </Stack>
  );
}
