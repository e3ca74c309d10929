import { ActionIcon, Alert, Button, Divider, Drawer, Group, MultiSelect, ScrollArea, Select, SimpleGrid, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, DateInputBR, errorMessage, isCpfOrCnpj, isEmail, maskCpfCnpj, notify } from '@atende/ui-shell/sdk';
import { isPhoneWithCountry, useTags, useUsersLite } from '../shared.tsx';
import { StateField } from '../../../ui/StateField.tsx';
import { contactsKey, createContact, updateContact, type Contact, type ContactInput } from './api.ts';

interface FormState {
  name: string; number: string; email: string; identity: string; birthday: string | null;
  firstName: string; lastName: string; businessName: string; messengerId: string; instagramId: string; hubId: string;
  state: string; kanban: number | null; tags: string[]; wallets: string[]; extraInfo: { name: string; value: string }[];
  blocked: boolean; chatbotBlocked: boolean;
}

const fromContact = (c: Contact | null): FormState => ({
  name: c?.name ?? '', number: c?.number ?? '', email: c?.email ?? '', identity: c?.identity ?? '', birthday: c?.birthday ?? null,
  firstName: c?.firstName ?? '', lastName: c?.lastName ?? '', businessName: c?.businessName ?? '', messengerId: c?.messengerId ?? '',
  instagramId: c?.instagramId ?? '', hubId: c?.hubId ?? '', state: c?.state ?? '', kanban: c?.kanban ?? null,
  tags: (c?.tags ?? []).map((t) => String(t.id)), wallets: (c?.wallets ?? []).map((w) => String(w.id)),
  extraInfo: c?.extraInfo ?? [], blocked: c?.blocked ?? false, chatbotBlocked: c?.chatbotBlocked ?? false,
});

type Errors = Partial<Record<keyof FormState | 'form', string>>;

const NO_LANE = 'none';

/**
 * The tenant's kanban lanes, from the kanban plugin's API. A tenant with the plugin disabled gets no answer (its
 * routes do not exist for them): then there is no lane to choose and the form neither shows nor sends the field.
 */
function useKanbanLanes() {
  const q = useQuery({
    queryKey: ['kanban', 'lanes'],
    queryFn: () => api.get<{ id: number; name: string }[]>('/plugins/kanban/lanes', { silent: true, background: true }),
    staleTime: 60_000,
    retry: false,
  });
  return Array.isArray(q.data) ? q.data : undefined;
}

/** Create or edit a contact: every field of the spec with its inline validation (core.md §3, §5). */
export function ContactDrawer({ contact, opened, onClose }: { contact: Contact | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const tags = useTags();
  const users = useUsersLite();
  const lanes = useKanbanLanes();
  const [f, setF] = useState<FormState>(() => fromContact(contact));
  const [errors, setErrors] = useState<Errors>({});
  const [birthdayInvalid, setBirthdayInvalid] = useState(false);
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => {
    setF((s) => ({ ...s, [k]: v }));
    if (errors[k]) setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const validate = (): Errors => {
    const e: Errors = {};
    if (!f.name.trim()) e.name = t('validation.requiredField', { field: t('admin.contacts.fields.name').toLowerCase() });
    if (f.number.trim() && !isPhoneWithCountry(f.number)) e.number = t('admin.contacts.errors.number');
    if (f.email.trim() && !isEmail(f.email.trim())) e.email = t('validation.email');
    if (f.identity.trim() && (!/[.\-/]/.test(f.identity) || !isCpfOrCnpj(f.identity))) e.identity = t('admin.contacts.errors.identity');
    if (birthdayInvalid) e.birthday = t('validation.invalidDate');
    if (f.extraInfo.some((x) => !x.name.trim())) e.extraInfo = t('admin.contacts.errors.extraName');
    return e;
  };

  const save = useMutation({
    mutationFn: () => {
      const body: ContactInput = {
        name: f.name.trim(), number: f.number.trim() || null, email: f.email.trim() || null, identity: f.identity.trim() || null,
        birthday: f.birthday, firstName: f.firstName.trim() || null, lastName: f.lastName.trim() || null,
        businessName: f.businessName.trim() || null, messengerId: f.messengerId.trim() || null, instagramId: f.instagramId.trim() || null,
        hubId: f.hubId.trim() || null, state: f.state.trim() || null, ...(lanes ? { kanban: f.kanban } : {}),
        tags: f.tags.map(Number), wallets: f.wallets.map(Number),
        extraInfo: f.extraInfo.map((x) => ({ name: x.name.trim(), value: x.value.trim() })),
        blocked: f.blocked, chatbotBlocked: f.chatbotBlocked,
      };
      return contact ? updateContact(contact.id, body) : createContact(body);
    },
    onSuccess: () => {
      notify.success(contact ? t('admin.contacts.updated') : t('admin.contacts.created'));
      void qc.invalidateQueries({ queryKey: contactsKey });
      onClose();
    },
    onError: (err) => {
      // Server rules with their own message go under the field they concern.
      const code = err instanceof ApiError ? err.code : undefined;
      const msg = errorMessage(err);
      if (code === 'ERR_INVALID_NUMBER' || code === 'ERR_DUPLICATED_CONTACT') setErrors({ number: msg });
      else if (code === 'ERR_INVALID_EMAIL') setErrors({ email: msg });
      else if (code === 'ERR_INVALID_CPF_CNPJ') setErrors({ identity: msg });
      else if (code === 'ERR_INVALID_DATE') setErrors({ birthday: msg });
      else setErrors({ form: msg });
    },
  });

  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.values(e).some(Boolean)) return;
    save.mutate();
  };

  const tagOptions = (tags.data ?? []).map((x) => ({ value: String(x.id), label: x.name, disabled: !x.active && !f.tags.includes(String(x.id)) }));
  const userOptions = (users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }));

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={560}
      title={<Text fw={700} size="lg">{contact ? t('admin.contacts.editTitle') : t('admin.contacts.newTitle')}</Text>}
      scrollAreaComponent={ScrollArea.Autosize}
    >
      <form onSubmit={submit} noValidate aria-label={t('admin.contacts.formLabel')}>
        <Stack gap="sm">
          {errors.form && <Alert color="red" icon={<IconAlertCircle size={16} />} variant="light">{errors.form}</Alert>}
          <TextInput label={t('admin.contacts.fields.name')} withAsterisk value={f.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} data-autofocus />
          <SimpleGrid cols={2} spacing="sm">
            <TextInput
              label={t('admin.contacts.fields.number')}
              description={t('admin.contacts.hints.number')}
              placeholder="5511988887777"
              value={f.number}
              onChange={(e) => set('number', e.currentTarget.value)}
              error={errors.number}
              inputMode="tel"
            />
            <TextInput label={t('admin.contacts.fields.email')} description=" " value={f.email} onChange={(e) => set('email', e.currentTarget.value)} error={errors.email} type="email" />
          </SimpleGrid>
          <SimpleGrid cols={2} spacing="sm">
            <TextInput
              label={t('admin.contacts.fields.identity')}
              description={t('admin.contacts.hints.identity')}
              placeholder="000.000.000-00"
              value={f.identity}
              onChange={(e) => set('identity', maskCpfCnpj(e.currentTarget.value))}
              error={errors.identity}
            />
            <DateInputBR
              label={t('admin.contacts.fields.birthday')}
              description={t('admin.contacts.hints.birthday')}
              value={f.birthday}
              onChange={(v) => set('birthday', v)}
              onBlur={(e) => setBirthdayInvalid(e.currentTarget.value !== '' && !f.birthday)}
              error={errors.birthday}
            />
          </SimpleGrid>
          <SimpleGrid cols={3} spacing="sm">
            <TextInput label={t('admin.contacts.fields.firstName')} value={f.firstName} onChange={(e) => set('firstName', e.currentTarget.value)} />
            <TextInput label={t('admin.contacts.fields.lastName')} value={f.lastName} onChange={(e) => set('lastName', e.currentTarget.value)} />
            <StateField label={t('admin.contacts.fields.state')} value={f.state} onChange={(v) => set('state', v)} />
          </SimpleGrid>
          <TextInput label={t('admin.contacts.fields.businessName')} value={f.businessName} onChange={(e) => set('businessName', e.currentTarget.value)} />
          <MultiSelect label={t('admin.contacts.fields.tags')} data={tagOptions} value={f.tags} onChange={(v) => set('tags', v)} searchable clearable placeholder={f.tags.length ? undefined : t('admin.contacts.pickTags')} />
          <MultiSelect label={t('admin.contacts.fields.wallets')} description={t('admin.contacts.hints.wallets')} data={userOptions} value={f.wallets} onChange={(v) => set('wallets', v)} searchable clearable />
          <Divider label={t('admin.contacts.channelIds')} labelPosition="left" mt="xs" />
          <SimpleGrid cols={3} spacing="sm">
            <TextInput label={t('admin.contacts.fields.messengerId')} value={f.messengerId} onChange={(e) => set('messengerId', e.currentTarget.value)} />
            <TextInput label={t('admin.contacts.fields.instagramId')} value={f.instagramId} onChange={(e) => set('instagramId', e.currentTarget.value)} />
            <TextInput label={t('admin.contacts.fields.hubId')} value={f.hubId} onChange={(e) => set('hubId', e.currentTarget.value)} />
          </SimpleGrid>
          {lanes && (
            <Select
              label={t('admin.contacts.fields.kanban')}
              data={[
                { value: NO_LANE, label: t('admin.contacts.noLane') },
                ...lanes.map((l) => ({ value: String(l.id), label: l.name })),
                // A lane deleted meanwhile still shows as the contact's until another is chosen.
                ...(f.kanban != null && !lanes.some((l) => l.id === f.kanban) ? [{ value: String(f.kanban), label: `#${f.kanban}` }] : []),
              ]}
              value={f.kanban == null ? NO_LANE : String(f.kanban)}
              onChange={(v) => set('kanban', !v || v === NO_LANE ? null : Number(v))}
              allowDeselect={false}
              searchable
              w={260}
              comboboxProps={{ withinPortal: true }}
              data-testid="contact-lane"
            />
          )}
          <Divider label={t('admin.contacts.fields.extraInfo')} labelPosition="left" mt="xs" />
          {f.extraInfo.map((x, i) => (
            <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
              <TextInput
                aria-label={t('admin.contacts.extraName')}
                placeholder={t('admin.contacts.extraName')}
                value={x.name}
                onChange={(e) => set('extraInfo', f.extraInfo.map((y, j) => (j === i ? { ...y, name: e.currentTarget.value } : y)))}
                error={errors.extraInfo && !x.name.trim() ? errors.extraInfo : undefined}
                w="40%"
              />
              <TextInput
                aria-label={t('admin.contacts.extraValue')}
                placeholder={t('admin.contacts.extraValue')}
                value={x.value}
                onChange={(e) => set('extraInfo', f.extraInfo.map((y, j) => (j === i ? { ...y, value: e.currentTarget.value } : y)))}
                style={{ flex: 1 }}
              />
              <Tooltip label={t('common.delete')}>
                <ActionIcon variant="subtle" color="red" mt={4} aria-label={t('common.delete')} onClick={() => set('extraInfo', f.extraInfo.filter((_, j) => j !== i))}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
          <Group>
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => set('extraInfo', [...f.extraInfo, { name: '', value: '' }])}>
              {t('admin.contacts.addExtra')}
            </Button>
          </Group>
          <Divider mt="xs" />
          <Switch label={t('admin.contacts.fields.blocked')} description={t('admin.contacts.hints.blocked')} checked={f.blocked} onChange={(e) => set('blocked', e.currentTarget.checked)} />
          <Switch label={t('admin.contacts.fields.chatbotBlocked')} description={t('admin.contacts.hints.chatbotBlocked')} checked={f.chatbotBlocked} onChange={(e) => set('chatbotBlocked', e.currentTarget.checked)} />
          <Group justify="flex-end" mt="md" gap="xs">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={save.isPending}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
