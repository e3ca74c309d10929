import { ActionIcon, Avatar, Badge, Button, Group, Menu, MultiSelect, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconAddressBook, IconBan, IconChevronDown, IconCopy, IconDots, IconDownload, IconFileSpreadsheet, IconFileTypeCsv, IconListCheck,
  IconNumber9, IconPencil, IconPlus, IconRobotOff, IconTrash, IconUpload,
} from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ConfirmDialog, DataTable, EmptyState, PageHeader, errorMessage, formatDate, getSession, notify, useDataTableState, usePhoneFormat, useRealtime,
  type DataTableColumn,
} from '@atende/ui-shell/sdk';
import { TagBadge, downloadFile, useTags } from '../shared.tsx';
import { contactsKey, deleteContact, listContacts, setBlocked, setChatbotBlocked, type Contact } from './api.ts';
import { ContactDrawer } from './ContactDrawer.tsx';
import { ImportModal } from './ImportModal.tsx';
import { DuplicatesModal, NinthDigitModal, ValidateModal } from './Maintenance.tsx';

const initials = (name: string) => name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('');

/** `/contatos`: contacts with search, tag filter, server paging, the contact drawer and the maintenance tools. */
export default function ContactsPage() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const profile = getSession()?.profile;
  const canManage = profile === 'admin' || profile === 'super' || profile === 'superadmin';
  const [query, setQuery] = useDataTableState({ pageSize: 25 });
  const [tagFilter, setTagFilter] = useState<string[]>([]);
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [dialog, setDialog] = useState<'import' | 'duplicates' | 'ninth' | 'validate' | null>(null);
  const tags = useTags();

  const list = useQuery({
    queryKey: [...contactsKey, query.search, tagFilter.join(','), query.page, query.pageSize],
    queryFn: ({ signal }) => listContacts({ searchParam: query.search || undefined, tags: tagFilter.join(',') || undefined, pageNumber: query.page, limit: query.pageSize }, signal),
    placeholderData: keepPreviousData,
  });
  useRealtime('contacts.imported', () => void qc.invalidateQueries({ queryKey: contactsKey }));

  const refresh = () => void qc.invalidateQueries({ queryKey: contactsKey });
  const block = useMutation({
    mutationFn: (c: Contact) => setBlocked(c.id, !c.blocked),
    onSuccess: (c) => { notify.success(c.blocked ? t('admin.contacts.blockedOk') : t('admin.contacts.unblockedOk')); refresh(); },
  });
  const botBlock = useMutation({
    mutationFn: (c: Contact) => setChatbotBlocked(c.id, !c.chatbotBlocked),
    onSuccess: (c) => { notify.success(c.chatbotBlocked ? t('admin.contacts.botBlockedOk') : t('admin.contacts.botUnblockedOk')); refresh(); },
  });
  const remove = useMutation({ mutationFn: (c: Contact) => deleteContact(c.id), onSuccess: () => { notify.success(t('admin.contacts.deleted')); refresh(); } });

  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      await downloadFile(`/contacts/export?format=${format}`, `contatos.${format}`);
    } catch (e) {
      notify.error(errorMessage(e));
    }
  };

  const phone = usePhoneFormat();
  const columns: DataTableColumn<Contact>[] = [
    {
      key: 'name', title: t('admin.contacts.fields.name'),
      render: (c) => (
        <Group gap="sm" wrap="nowrap">
          <Avatar src={c.profilePicUrl} radius="xl" size={32} color="initials" name={c.name}>{initials(c.name)}</Avatar>
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={600} truncate>{c.name}</Text>
            {(c.businessName || c.email) && <Text size="xs" c="dimmed" truncate>{c.businessName ?? c.email}</Text>}
          </Stack>
        </Group>
      ),
    },
    { key: 'number', title: t('admin.contacts.fields.number'), width: 190, render: (c) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{c.number ? phone(c.number) : '—'}</Text> },
    { key: 'email', title: t('admin.contacts.fields.email'), render: (c) => <Text size="sm" c={c.email ? undefined : 'dimmed'} truncate maw={220}>{c.email ?? '—'}</Text> },
    {
      key: 'tags', title: t('admin.contacts.fields.tags'),
      render: (c) => c.tags.length ? <Group gap={4}>{c.tags.slice(0, 3).map((x) => <TagBadge key={x.id} tag={x} />)}{c.tags.length > 3 && <Badge size="sm" variant="default">+{c.tags.length - 3}</Badge>}</Group> : <Text size="sm" c="dimmed">—</Text>,
    },
    { key: 'wallets', title: t('admin.contacts.fields.wallets'), render: (c) => <Text size="sm" c={c.wallets.length ? undefined : 'dimmed'} truncate maw={160}>{c.wallets.map((w) => w.name).join(', ') || '—'}</Text> },
    {
      key: 'status', title: t('admin.contacts.status'), width: 150,
      render: (c) => (
        <Group gap={4}>
          {c.blocked && <Badge size="sm" color="red" variant="light" radius="sm">{t('admin.contacts.badges.blocked')}</Badge>}
          {c.chatbotBlocked && <Badge size="sm" color="orange" variant="light" radius="sm">{t('admin.contacts.badges.botOff')}</Badge>}
          {!c.blocked && !c.chatbotBlocked && <Badge size="sm" color="teal" variant="dot">{t('admin.contacts.badges.active')}</Badge>}
        </Group>
      ),
    },
    { key: 'birthday', title: t('admin.contacts.fields.birthday'), width: 120, render: (c) => <Text size="sm" c="dimmed">{c.birthday ? formatDate(`${c.birthday}T12:00:00`, i18n.language) : '—'}</Text> },
    {
      key: 'actions', title: t('common.actions'), width: 120, align: 'right',
      render: (c) => (
        <Group gap={2} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Tooltip label={t('common.edit')}>
            <ActionIcon variant="subtle" color="gray" aria-label={t('common.edit')} onClick={() => setEditing(c)}><IconPencil size={16} /></ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={t('admin.contacts.more', { name: c.name })}><IconDots size={16} /></ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconBan size={16} />} onClick={() => block.mutate(c)}>{c.blocked ? t('admin.contacts.unblock') : t('admin.contacts.block')}</Menu.Item>
              <Menu.Item leftSection={<IconRobotOff size={16} />} onClick={() => botBlock.mutate(c)}>{c.chatbotBlocked ? t('admin.contacts.botUnblock') : t('admin.contacts.botBlock')}</Menu.Item>
              {canManage && <Menu.Divider />}
              {canManage && <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(c)}>{t('common.delete')}</Menu.Item>}
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];

  const newButton = <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>{t('admin.contacts.new')}</Button>;
  const filtered = Boolean(query.search || tagFilter.length);

  return (
    <>
      <PageHeader
        title={t('admin.contacts.title')}
        description={t('admin.contacts.description')}
        actions={
          <>
            <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setDialog('import')}>{t('admin.contacts.import.action')}</Button>
            <Menu position="bottom-end" shadow="md">
              <Menu.Target>
                <Button variant="default" leftSection={<IconDownload size={16} />} rightSection={<IconChevronDown size={14} />}>{t('admin.contacts.export')}</Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconFileTypeCsv size={16} />} onClick={() => void exportAs('csv')}>CSV</Menu.Item>
                <Menu.Item leftSection={<IconFileSpreadsheet size={16} />} onClick={() => void exportAs('xlsx')}>Excel (XLSX)</Menu.Item>
              </Menu.Dropdown>
            </Menu>
            <Menu position="bottom-end" shadow="md">
              <Menu.Target>
                <Button variant="default" rightSection={<IconChevronDown size={14} />}>{t('admin.contacts.tools')}</Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => setDialog('duplicates')}>{t('admin.contacts.duplicates.title')}</Menu.Item>
                <Menu.Item leftSection={<IconNumber9 size={16} />} onClick={() => setDialog('ninth')}>{t('admin.contacts.ninth.title')}</Menu.Item>
                <Menu.Item leftSection={<IconListCheck size={16} />} onClick={() => setDialog('validate')}>{t('admin.contacts.validate.title')}</Menu.Item>
              </Menu.Dropdown>
            </Menu>
            {newButton}
          </>
        }
      />
      <DataTable
        columns={columns}
        rowKey={(c) => c.id}
        rows={list.data?.contacts}
        total={list.data?.count ?? 0}
        query={query}
        onQueryChange={setQuery}
        loading={list.isFetching}
        error={list.error ?? undefined}
        onRetry={() => void list.refetch()}
        searchPlaceholder={t('admin.contacts.search')}
        pageSizes={[25, 50, 100, 200]}
        onRowClick={(c) => setEditing(c)}
        toolbar={
          <MultiSelect
            aria-label={t('admin.contacts.filterTags')}
            placeholder={tagFilter.length ? undefined : t('admin.contacts.filterTags')}
            data={(tags.data ?? []).map((x) => ({ value: String(x.id), label: x.name }))}
            value={tagFilter}
            onChange={(v) => { setTagFilter(v); setQuery({ ...query, page: 1 }); }}
            clearable
            searchable
            w={260}
            maxDropdownHeight={260}
          />
        }
        empty={filtered
          ? <EmptyState title={t('admin.contacts.noResults')} description={t('admin.contacts.noResultsText')} />
          : <EmptyState icon={<IconAddressBook size={28} />} title={t('admin.contacts.emptyTitle')} description={t('admin.contacts.emptyText')} action={newButton} />}
      />
      {editing !== null && <ContactDrawer opened contact={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ImportModal opened={dialog === 'import'} onClose={() => setDialog(null)} />
      <DuplicatesModal opened={dialog === 'duplicates'} onClose={() => setDialog(null)} />
      <NinthDigitModal opened={dialog === 'ninth'} onClose={() => setDialog(null)} canApply={canManage} />
      <ValidateModal opened={dialog === 'validate'} onClose={() => setDialog(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('admin.contacts.deleteTitle')}
        message={t('admin.contacts.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
