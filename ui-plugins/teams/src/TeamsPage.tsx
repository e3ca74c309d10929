import { ActionIcon, Avatar, Badge, Button, Drawer, Group, MultiSelect, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  ConfirmDialog, DataTable, EmptyState, PageHeader, notify, paginateLocally, useDataTableState, usePluginTranslation, useRealtime, type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { teamForm, type TeamFormValues } from '@atende/plugin-teams/contract';
import { createTeam, deleteTeam, listTeams, listUsers, teamsKey, updateTeam, type Team, type TeamInput } from './api.ts';

/** `/equipes`: teams of the tenant, their members and whether they are active. */
export default function TeamsPage() {
  const { t } = usePluginTranslation('teams');
  const queryClient = useQueryClient();
  const [query, setQuery] = useDataTableState({ sort: { key: 'name', direction: 'asc' } });
  const [editing, setEditing] = useState<Team | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const list = useQuery({ queryKey: [...teamsKey, 'list'], queryFn: ({ signal }) => listTeams(signal) });
  const page = useMemo(() => (list.data ? paginateLocally(list.data, query, (x) => `${x.name} ${x.users.map((u) => u.name).join(' ')}`) : undefined), [list.data, query]);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: teamsKey });
  useRealtime('*', (_d, f) => {
    if (f.event.startsWith('team.')) refresh();
  });
  const remove = useMutation({ mutationFn: (x: Team) => deleteTeam(x.id), onSuccess: () => { notify.success(t('deleted')); refresh(); } });

  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>{t('new')}</Button>;
  const columns: DataTableColumn<Team>[] = [
    { key: 'name', title: t('name'), sortable: true, render: (x) => <Text fw={500} size="sm">{x.name}</Text> },
    {
      key: 'users',
      title: t('members'),
      render: (x) => x.users.length ? (
        <Group gap="xs" wrap="nowrap">
          <Avatar.Group spacing="xs">
            {x.users.slice(0, 5).map((u) => <Tooltip key={u.id} label={u.name}><Avatar size={26} radius="xl" color="initials" name={u.name} /></Tooltip>)}
            {x.users.length > 5 && <Avatar size={26} radius="xl">+{x.users.length - 5}</Avatar>}
          </Avatar.Group>
          <Text size="xs" c="dimmed">{t('memberCount', { n: x.users.length })}</Text>
        </Group>
      ) : <Text size="sm" c="dimmed">{t('noMembers')}</Text>,
    },
    { key: 'active', title: t('status'), width: 110, render: (x) => <Badge variant="light" color={x.active ? 'green' : 'gray'}>{x.active ? t('active') : t('inactive')}</Badge> },
    {
      key: 'actions', title: t('actions'), width: 100, align: 'right',
      render: (x) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('edit')}><ActionIcon variant="subtle" color="gray" aria-label={t('edit')} onClick={() => setEditing(x)}><IconPencil size={16} /></ActionIcon></Tooltip>
          <Tooltip label={t('common.delete')}><ActionIcon variant="subtle" color="red" aria-label={t('common.delete')} onClick={() => setDeleting(x)}><IconTrash size={16} /></ActionIcon></Tooltip>
        </Group>
      ),
    },
  ];
  const empty = list.data?.length ? <EmptyState title={t('noResults')} /> : <EmptyState title={t('emptyTitle')} description={t('emptyText')} action={newButton} />;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={newButton} />
      <DataTable columns={columns} rowKey={(x) => x.id} rows={page?.rows} total={page?.total ?? 0} query={query} onQueryChange={setQuery}
        loading={list.isLoading} error={list.error ?? undefined} onRetry={() => void list.refetch()} searchPlaceholder={t('search')} empty={empty} />
      {editing !== null && <TeamDrawer team={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={refresh} />}
      <ConfirmDialog opened={deleting !== null} title={t('deleteTitle')} message={t('deleteText', { name: deleting?.name ?? '' })} confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)} onClose={() => setDeleting(null)} />
    </>
  );
}

function TeamDrawer({ team, onClose, onSaved }: { team: Team | null; onClose: () => void; onSaved: () => void }) {
  const { t } = usePluginTranslation('teams');
  const users = useQuery({ queryKey: [...teamsKey, 'users'], queryFn: ({ signal }) => listUsers(signal), staleTime: 60_000 });
  // Validated by the same rules the server applies (the plugin's contract).
  const form = useForm<TeamFormValues>({
    initialValues: { name: team?.name ?? '', active: team?.active ?? true, userIds: team?.users.map((u) => String(u.id)) ?? [] },
    validate: schemaResolver(teamForm, { sync: true }),
  });
  const save = useMutation({
    mutationFn: (body: TeamInput) => (team ? updateTeam(team.id, body) : createTeam(body)),
    onSuccess: () => { notify.success(team ? t('updated') : t('created')); onSaved(); onClose(); },
  });
  const submit = (values: TeamFormValues) => {
    const v = teamForm.parse(values);
    save.mutate({ name: v.name, active: v.active, userIds: v.userIds.map(Number) });
  };
  // The schema's messages are Portuguese; the rule users meet (a name) shows the screen's own translated text.
  const nameError = form.errors.name ? (form.values.name.trim() ? String(form.errors.name) : t('nameRequired')) : undefined;
  const members = form.values.userIds;
  return (
    <Drawer opened onClose={onClose} position="right" size="md" title={<Text fw={600}>{team ? t('edit') : t('new')}</Text>}>
      <form aria-label={t('formLabel')} onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label={t('name')} withAsterisk maxLength={120} {...form.getInputProps('name')} error={nameError} data-autofocus />
          <MultiSelect label={t('members')} placeholder={t('pickMembers')} searchable clearable hidePickedOptions nothingFoundMessage={t('noUsers')}
            data={(users.data ?? []).filter((u) => u.active || members.includes(String(u.id))).map((u) => ({ value: String(u.id), label: u.name }))}
            {...form.getInputProps('userIds')} />
          <Switch label={t('active')} {...form.getInputProps('active', { type: 'checkbox' })} />
          <Group justify="flex-end" gap="xs" mt="sm">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>{t('common.cancel')}</Button>
            <Button type="submit" loading={save.isPending}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
