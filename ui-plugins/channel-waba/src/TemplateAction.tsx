import { ActionIcon, Tooltip } from '@mantine/core';
import { IconTemplate } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { usePluginTranslation, type ComposerExtensionProps } from '@atende/ui-shell/sdk';
import { pickerStore, usePickerOpen } from './window.ts';

// The picker (list, preview, inputs) loads the first time an agent opens it: most replies are plain text.
const TemplatePicker = lazy(() => import('./TemplatePicker.tsx'));

/** The composer's "Modelo" button on WABA tickets: opens the template picker. */
export default function TemplateAction(props: ComposerExtensionProps) {
  const { t } = usePluginTranslation('channel-waba');
  const opened = usePickerOpen(props.ticket.id);
  // Mounted once asked for, so the modal's closing transition plays.
  const [wanted, setWanted] = useState(false);
  if (opened && !wanted) setWanted(true);
  return (
    <>
      <Tooltip label={t('templateButtonHint')}>
        <ActionIcon variant="subtle" color="gray" size="lg" mb={4} onClick={() => pickerStore.open(props.ticket.id)} aria-label={t('templateButton')} data-testid="waba-template-button" disabled={!props.ticket.channelId}>
          <IconTemplate size={21} />
        </ActionIcon>
      </Tooltip>
      {wanted && props.ticket.channelId && (
        <Suspense fallback={null}>
          <TemplatePicker {...props} channelId={props.ticket.channelId} opened={opened} onClose={() => pickerStore.close()} />
        </Suspense>
      )}
    </>
  );
}
