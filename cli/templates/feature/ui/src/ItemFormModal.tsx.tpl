import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage, notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { itemInputFor, type ItemInput } from '@atende/plugin-__ID__/contract';
import { createItem, itemsKey, type Settings } from './api.ts';

interface Props {
  opened: boolean;
  /** The tenant's settings: they decide whether the note is required. */
  settings: Settings;
  onClose: () => void;
}

/**
 * A new item, validated by the same rules the server applies (`itemInputFor`
 * in the contract). What only the server can know — a title already taken —
 * comes back as the plugin's error code and shows under the field.
 */
export function ItemFormModal({ opened, settings, onClose }: Props) {
  const { t } = usePluginTranslation('__ID__');
  const queryClient = useQueryClient();
  const schema = itemInputFor(settings);
  const form = useForm<ItemInput>({
    initialValues: { title: '', note: '' },
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnBlur: true,
  });

  const save = useMutation({
    mutationFn: (value: ItemInput) => createItem(schema.parse(value)),
    onSuccess: () => {
      notify.success(t('created'));
      void queryClient.invalidateQueries({ queryKey: itemsKey });
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'ERR___CODE___ITEM_EXISTS') form.setFieldError('title', errorMessage(err));
      else notify.error(errorMessage(err));
    },
  });

  // The schema's messages are Portuguese; fields show the screen's own (translated) text for the rules users meet.
  const fieldError = (field: 'title' | 'note', required: string) => {
    const error = form.errors[field];
    if (!error) return undefined;
    return String(form.values[field] ?? '').trim() ? String(error) : required;
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('new')} centered>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate aria-label={t('formLabel')}>
        <Stack>
          <TextInput
            label={t('itemTitle')}
            placeholder={t('titlePlaceholder')}
            withAsterisk
            maxLength={120}
            {...form.getInputProps('title')}
            error={fieldError('title', t('titleRequired'))}
            data-autofocus
          />
          <Textarea
            label={t('note')}
            description={settings.requireNote ? t('noteRequiredHint') : undefined}
            withAsterisk={settings.requireNote}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={500}
            {...form.getInputProps('note')}
            error={fieldError('note', t('noteRequired'))}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>{t('common.cancel')}</Button>
            <Button type="submit" loading={save.isPending}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
