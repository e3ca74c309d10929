import { ActionIcon, Alert, Avatar, Badge, Button, Checkbox, Divider, Drawer, Group, Indicator, MultiSelect, PasswordInput, ScrollArea, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconPencil, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError, ConfirmDialog, DataTable, EmptyState, PageHeader, api, errorMessage, formatDateTime, getSession, isEmail, isStrongPassword, notify, useDataTableState,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { ColorName, useQueues, usersLiteKey } from '../shared.tsx';

interface User {
  id: number; name: string; email: string; profile: 'user' | 'super' | 'admin' | 'superadmin'; queues: number[]; whatsappAllowed: number[];
  isOnline: boolean; blockWavoip: boolean; menus: Record<string, boolean>; active: boolean; lastSeenAt: string | null; createdAt: string;
}

/** The per-user menu toggles of the spec (core.md §3 "User"), keyed as the server's `userMenu` names. */
const MENU_TOGGLES = ['massSend', 'groups', 'chat', 'kanban', 'tasks', 'sessions', 'reports', 'queues', 'teams', 'quickMessages', 'chatflow', 'schedules', 'birthdays', 'closing', 'tags', 'notes', 'protocols', 'evaluations', 'businessHours', 'campaigns'] as const;
const PROFILE_COLOR: Record<string, string> = { user: 'gray', super: 'blue', admin: 'violet', superadmin: 'red' };
const usersKey = ['admin', 'users'] as const;

function UserDrawer({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const queues = useQueues();
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  // The server asks for the current password when users change their own (X1-10).
  const self = !!user && user.id === getSession()?.userId;
  const [profile, setProfile] = useState<string>(user?.profile === 'superadmin' ? 'admin' : user?.profile ?? 'user');
  const [queueIds, setQueueIds] = useState<string[]>((user?.queues ?? []).map(String));
  const [menus, setMenus] = useState<Record<string, boolean>>(() => Object.fromEntries(MENU_TOGGLES.map((k) => [k, user?.menus?.[k] !== false])));
  const [blockWavoip, setBlockWavoip] = useState(user?.blockWavoip ?? false);
  const [active, setActive] = useState(user?.active ?? true);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = { name: name.trim(), email: email.trim(), profile, queues: queueIds.map(Number), menus, blockWavoip, active };
      if (password) body.password = password;
      if (password && self) body.currentPassword = currentPassword;
      return user ? api.put<User>(`/users/${user.id}`, body, { silent: true }) : api.post<User>('/users', body, { silent: true });
    },
    onSuccess: () => {
      notify.success(user ? t('admin.users.updated') : t('admin.users.created'));
      void qc.invalidateQueries({ queryKey: usersKey });
      void qc.invalidateQueries({ queryKey: usersLiteKey });
      onClose();
    },
    onError: (err) => {
      const code = err instanceof ApiError ? err.code : undefined;
      const msg = errorMessage(err);
      if (code === 'ERR_INVALID_EMAIL' || code === 'ERR_EMAIL_IN_USE') setErrors({ email: msg });
      else if (code === 'ERR_WEAK_PASSWORD') setErrors({ password: msg });
      else if (code === 'ERR_CURRENT_PASSWORD') setErrors({ currentPassword: msg });
      else setErrors({ form: msg });
    },
  });

  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    const e: Record<string, string | undefined> = {};
    if (!name.trim()) e.name = t('validation.requiredField', { field: t('admin.users.name').toLowerCase() });
    if (!email.trim()) e.email = t('validation.requiredField', { field: t('admin.users.email').toLowerCase() });
    else if (!isEmail(email.trim())) e.email = t('validation.email');
    if (!user && !password) e.password = t('validation.requiredField', { field: t('admin.users.password').toLowerCase() });
    else if (password && !isStrongPassword(password)) e.password = t('admin.users.weakPassword');
    if (password && self && !currentPassword) e.currentPassword = t('validation.requiredField', { field: t('admin.users.currentPassword').toLowerCase() });
    setErrors(e);
    if (Object.values(e).some(Boolean)) return;
    save.mutate();
  };
  const restricted = profile === 'user' || profile === 'super';

  return (
    <Drawer opened onClose={onClose} position="right" size={560} title={<Text fw={700} size="lg">{user ? t('admin.users.editTitle') : t('admin.users.newTitle')}</Text>} scrollAreaComponent={ScrollArea.Autosize}>
      <form onSubmit={submit} noValidate aria-label={t('admin.users.formLabel')}>
        <Stack gap="sm">
          {errors.form && <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} data-testid="user-form-error">{errors.form}</Alert>}
          <TextInput label={t('admin.users.name')} withAsterisk value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} data-autofocus />
          <TextInput label={t('admin.users.email')} withAsterisk type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={errors.email} />
          <PasswordInput
            label={t('admin.users.password')}
            withAsterisk={!user}
            description={user ? t('admin.users.passwordKeep') : t('admin.users.passwordRule')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            autoComplete="new-password"
          />
          {self && password && (
            <PasswordInput
              label={t('admin.users.currentPassword')}
              withAsterisk
              description={t('admin.users.currentPasswordHint')}
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={errors.currentPassword}
              autoComplete="current-password"
            />
          )}
          <Stack gap={4}>
            <Text size="sm" fw={500}>{t('admin.users.profile')}</Text>
            <SegmentedControl
              value={profile}
              onChange={setProfile}
              data={['user', 'super', 'admin'].map((p) => ({ value: p, label: t(`profiles.${p}`) }))}
              aria-label={t('admin.users.profile')}
            />
            <Text size="xs" c="dimmed">{t(`admin.users.profileHint.${profile}`)}</Text>
          </Stack>
          <MultiSelect
            label={t('admin.users.queues')}
            description={t('admin.users.queuesHint')}
            data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
            value={queueIds}
            onChange={setQueueIds}
            searchable
            clearable
          />
          <Divider label={t('admin.users.menus')} labelPosition="left" mt="xs" />
          {restricted ? (
            <>
              <Group justify="space-between">
                <Text size="xs" c="dimmed">{t('admin.users.menusHint')}</Text>
                <Group gap={4}>
                  <Button size="compact-xs" variant="subtle" onClick={() => setMenus(Object.fromEntries(MENU_TOGGLES.map((k) => [k, true])))}>{t('admin.users.all')}</Button>
                  <Button size="compact-xs" variant="subtle" color="gray" onClick={() => setMenus(Object.fromEntries(MENU_TOGGLES.map((k) => [k, false])))}>{t('admin.users.none')}</Button>
                </Group>
              </Group>
              <SimpleGrid cols={2} spacing={8} verticalSpacing={8}>
                {MENU_TOGGLES.map((k) => (
                  <Checkbox key={k} size="sm" label={t(`admin.users.menu.${k}`)} checked={menus[k] !== false} onChange={(e) => setMenus((m) => ({ ...m, [k]: e.currentTarget.checked }))} />
                ))}
              </SimpleGrid>
            </>
          ) : (
            <Text size="xs" c="dimmed">{t('admin.users.menusAdmin')}</Text>
          )}
          <Divider mt="xs" />
          <Switch label={t('admin.users.blockWavoip')} checked={blockWavoip} onChange={(e) => setBlockWavoip(e.currentTarget.checked)} />
          {user && <Switch label={t('admin.users.active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />}
          <Group justify="flex-end" mt="md" gap="xs">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={save.isPending}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}

/** `/usuarios`: the tenant's users with profile, queues and per-menu toggles. */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const me = getSession()?.userId;
  const [query, setQuery] = useDataTableState({ pageSize: 40 });
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const queues = useQueues();
  const queueById = new Map((queues.data ?? []).map((q) => [q.id, q]));

  const list = useQuery({
    queryKey: [...usersKey, query.search, query.page],
    queryFn: ({ signal }) => api.get<{ users: User[]; count: number }>('/users', { signal, query: { searchParam: query.search || undefined, pageNumber: query.page } }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (u: User) => api.delete(`/users/${u.id}`),
    onSuccess: () => { notify.success(t('admin.users.deleted')); void qc.invalidateQueries({ queryKey: usersKey }); },
  });

  const columns: DataTableColumn<User>[] = [
    {
      key: 'name', title: t('admin.users.name'),
      render: (u) => (
        <Group gap="sm" wrap="nowrap">
          <Indicator color={u.isOnline ? 'teal' : 'gray'} size={9} offset={4} position="bottom-end" withBorder>
            <Avatar size={32} radius="xl" color="initials" name={u.name} />
          </Indicator>
          <Stack gap={0}>
            <Text size="sm" fw={600}>{u.name}{u.id === me ? <Text span size="xs" c="dimmed"> · {t('admin.users.you')}</Text> : null}</Text>
            <Text size="xs" c="dimmed">{u.email}</Text>
          </Stack>
        </Group>
      ),
    },
    { key: 'profile', title: t('admin.users.profile'), width: 170, render: (u) => <Badge variant="light" radius="sm" color={PROFILE_COLOR[u.profile]}>{t(`profiles.${u.profile}`)}</Badge> },
    {
      key: 'queues', title: t('admin.users.queues'),
      render: (u) => u.queues.length ? <Group gap={10}>{u.queues.slice(0, 3).map((id) => <ColorName key={id} color={queueById.get(id)?.color} name={queueById.get(id)?.name ?? `#${id}`} />)}{u.queues.length > 3 && <Text size="xs" c="dimmed">+{u.queues.length - 3}</Text>}</Group> : <Text size="sm" c="dimmed">{t('admin.users.allQueues')}</Text>,
    },
    {
      key: 'menus', title: t('admin.users.menus'), width: 150,
      render: (u) => {
        const off = MENU_TOGGLES.filter((k) => u.menus?.[k] === false).length;
        return off ? <Tooltip label={MENU_TOGGLES.filter((k) => u.menus?.[k] === false).map((k) => t(`admin.users.menu.${k}`)).join(', ')} multiline maw={280}><Badge variant="outline" color="orange" radius="sm">{t('admin.users.hiddenMenus', { count: off })}</Badge></Tooltip> : <Text size="sm" c="dimmed">{t('admin.users.allMenus')}</Text>;
      },
    },
    { key: 'active', title: t('admin.users.status'), width: 110, render: (u) => <Badge variant="dot" color={u.active ? 'teal' : 'gray'}>{u.active ? t('admin.users.activeShort') : t('admin.users.inactive')}</Badge> },
    { key: 'lastSeenAt', title: t('admin.users.lastSeen'), width: 150, render: (u) => <Text size="sm" c="dimmed">{u.isOnline ? t('admin.users.online') : u.lastSeenAt ? formatDateTime(u.lastSeenAt, i18n.language) : '—'}</Text> },
    {
      key: 'actions', title: t('common.actions'), width: 100, align: 'right',
      render: (u) => (
        <Group gap={2} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('common.edit')}><ActionIcon variant="subtle" color="gray" aria-label={t('common.edit')} onClick={() => setEditing(u)}><IconPencil size={16} /></ActionIcon></Tooltip>
          <Tooltip label={t('common.delete')}><ActionIcon variant="subtle" color="red" aria-label={t('common.delete')} disabled={u.id === me} onClick={() => setDeleting(u)}><IconTrash size={16} /></ActionIcon></Tooltip>
        </Group>
      ),
    },
  ];

  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>{t('admin.users.new')}</Button>;
  return (
    <>
      <PageHeader title={t('admin.users.title')} description={t('admin.users.description')} actions={newButton} />
      <DataTable
        columns={columns}
        rowKey={(u) => u.id}
        rows={list.data?.users}
        total={list.data?.count ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isFetching}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('admin.users.search')}
        pageSizes={[40]}
        empty={<EmptyState icon={<IconUsers size={28} />} title={t('admin.users.empty')} action={newButton} />}
      />
      {editing !== null && <UserDrawer user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('admin.users.deleteTitle')}
        message={t('admin.users.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
