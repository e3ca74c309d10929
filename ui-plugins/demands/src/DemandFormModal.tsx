import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notify, usePluginTranslation } from '@atende/ui-shell/sdk';
import { createDemand, demandsKey, updateDemand, type Demand } from './api.ts';

interface Props {
  opened: boolean;
  /** The demand being edited, or null to create one. */
  demand: Demand | null;
  onClose: () => void;
}

/** Create or rename a demand; the name is required (inline message, spec "Demand: name"). */
export function DemandFormModal({ opened, demand, onClose }: Props) {
  const { t } = usePluginTranslation('demands');
  const queryClient = useQueryClient();
  const [name, setName] = useState(demand?.name ?? '');
  const [error, setError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (value: string) => (demand ? updateDemand(demand.id, value) : createDemand(value)),
    onSuccess: () => {
      notify.success(demand ? t('updated') : t('created'));
      void queryClient.invalidateQueries({ queryKey: demandsKey });
      onClose();
    },
    // Failures are toasted by the API client with the catalogue message; the form stays open.
  });

  const submit = () => {
    const value = name.trim();
    if (!value) {
      setError(t('nameRequired'));
      return;
    }
    save.mutate(value);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={demand ? t('edit') : t('new')} centered>
      <form onSubmit={(e) => { e.preventDefault(); submit(); }} noValidate>
        <Stack>
          <TextInput
            label={t('name')}
            placeholder={t('namePlaceholder')}
            withAsterisk
            maxLength={255}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              if (error) setError(null);
            }}
            onBlur={() => !name.trim() && setError(t('nameRequired'))}
            error={error}
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
