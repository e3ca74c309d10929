import { Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { usePluginTranslation, type ChannelDialogSectionProps } from '@atende/ui-shell/sdk';

/**
 * The channel's farewell message in the channel dialog (`/sessoes`): a kernel
 * channel field (`farewellMessage` of `PUT /api/channels/:id`), sent when an
 * agent resolves a ticket with a farewell. The dialog saves it with the rest
 * of the channel.
 */
export default function ChannelFarewell({ channel, register, disabled }: ChannelDialogSectionProps) {
  const { t } = usePluginTranslation('farewells');
  const saved = typeof channel?.farewellMessage === 'string' ? channel.farewellMessage : '';
  const [text, setText] = useState(saved);
  // After every render, so the dialog's save reads what is typed now.
  useEffect(() => register({ values: () => ({ farewellMessage: text.trim() || null }) }));
  return (
    <Stack gap={6}>
      <Text size="xs" c="dimmed">{t('channelHint')}</Text>
      <Textarea
        aria-label={t('channelSection')}
        autosize
        minRows={2}
        maxRows={6}
        maxLength={4096}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        disabled={disabled}
        data-testid="channel-farewell"
      />
    </Stack>
  );
}
