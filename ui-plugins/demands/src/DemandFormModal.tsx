import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { demandInput, type DemandInput } from '@atende/plugin-demands/contract';
import { createDemand, demandsKey, updateDemand, type Demand } from './api.ts';

interface Props {
  opened: boolean;
  /** The demand being edited, or null to create one. */
  demand: Demand | null;
  onClose: () => void;
}

/** Create or rename a demand, validated by the same schema the server applies (the plugin's contract). */
export function DemandFormModal({ opened, demand, onClose }: Props) {
  const { t } = usePluginTranslation('demands');
  const queryClient = useQueryClient();
  const form = useForm<DemandInput>({
    initialValues: { name: demand?.name ?? '' },
    validate: schemaResolver(demandInput, { sync: true }),
    validateInputOnBlur: true,
  });

  const save = useMutation({
    mutationFn: (value: DemandInput) => (demand ? updateDemand(demand.id, value) : createDemand(value)),
    onSuccess: () => {
      notify.success(demand ? t('updated') : t('created'));
      void queryClient.invalidateQueries({ queryKey: demandsKey });
      onClose();
    },
    // Failures are toasted by the API client with the catalogue message; the form stays open.
  });

  // The schema's messages are Portuguese; the field shows the screen's own (translated) text for the one rule users meet.
  const nameError = form.errors.name ? (form.values.name.trim() ? String(form.errors.name) : t('nameRequired')) : undefined;

  return (
    <Modal opened={opened} onClose={onClose} title={demand ? t('edit') : t('new')} centered>
      <form onSubmit={form.onSubmit((values) => save.mutate(demandInput.parse(values)))} noValidate>
        <Stack>
          <TextInput
            label={t('name')}
            placeholder={t('namePlaceholder')}
            withAsterisk
            maxLength={120}
            {...form.getInputProps('name')}
            error={nameError}
            data-autofocus
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
