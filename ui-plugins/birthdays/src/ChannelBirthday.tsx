import { ActionIcon, Button, FileButton, Group, Select, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconPaperclip, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { usePluginTranslation, type ChannelDialogSectionProps } from '@atende/ui-shell/sdk';
import { channelBirthdayInput } from '@atende/plugin-birthdays/contract';
import { birthdaysKey, removeChannelMedia, uploadChannelMedia } from './api.ts';

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00` }));

/** The saved birthday file of a channel, as the kernel's channel answer carries it. */
function savedMedia(value: unknown): { name: string } | null {
  return value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string' ? (value as { name: string }) : null;
}

/**
 * The channel's birthday message, hour and file in the channel dialog
 * (`/sessoes`). Message and hour are kernel channel fields saved with the
 * channel (`birthdayMessage`, `birthdayHour`); the file goes through the
 * kernel's `POST|DELETE /api/channels/:id/birthday-media` once the channel
 * exists. Checked by the contract's rule: a message needs its hour.
 */
export default function ChannelBirthday({ channel, register, disabled }: ChannelDialogSectionProps) {
  const { t } = usePluginTranslation('birthdays');
  const queryClient = useQueryClient();
  const [message, setMessage] = useState(typeof channel?.birthdayMessage === 'string' ? channel.birthdayMessage : '');
  const [hour, setHour] = useState<string | null>(typeof channel?.birthdayHour === 'number' ? String(channel.birthdayHour) : null);
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const media = savedMedia(channel?.birthdayMedia);

  // After every render, so the dialog's save reads the fields as they are now.
  useEffect(() => register({
    values: () => {
      const input = { birthdayMessage: message.trim() || null, birthdayHour: hour === null ? null : Number(hour) };
      if (!channelBirthdayInput.safeParse(input).success) throw new Error(t('hourRequired'));
      return input;
    },
    afterSave: async (saved) => {
      if (file) await uploadChannelMedia(saved.id, file);
      else if (dropMedia && media) await removeChannelMedia(saved.id);
      else return;
      void queryClient.invalidateQueries({ queryKey: birthdaysKey });
    },
  }));

  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed">{t('channelHint')}</Text>
      <Textarea
        aria-label={t('message')}
        autosize
        minRows={2}
        maxRows={6}
        maxLength={4096}
        value={message}
        onChange={(e) => setMessage(e.currentTarget.value)}
        placeholder={t('messagePlaceholder', { firstName: '{{firstName}}' })}
        disabled={disabled}
        data-testid="channel-birthday-message"
      />
      <Group align="flex-end" gap="sm">
        <Select
          label={t('hour')}
          description={t('hourHint')}
          data={HOURS}
          value={hour}
          onChange={setHour}
          clearable
          w={200}
          disabled={disabled}
          data-testid="channel-birthday-hour"
        />
        <Stack gap={4} style={{ flex: 1 }}>
          <Text size="sm" fw={500}>{t('media')}</Text>
          <Group gap="xs">
            <FileButton onChange={(f) => { setFile(f); setDropMedia(false); }} accept="image/*,video/*,audio/*,application/pdf" disabled={disabled}>
              {(props) => <Button {...props} variant="default" leftSection={<IconPaperclip size={16} />} data-testid="channel-birthday-file">{t('chooseFile')}</Button>}
            </FileButton>
            {(file || (media && !dropMedia)) && (
              <Group gap={4} wrap="nowrap">
                <Text size="sm" truncate maw={220} data-testid="channel-birthday-file-name">{file?.name ?? media?.name}</Text>
                <Tooltip label={t('removeFile')}>
                  <ActionIcon variant="subtle" color="red" onClick={() => { setFile(null); setDropMedia(true); }} aria-label={t('removeFile')} disabled={disabled}>
                    <IconTrash size={15} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
          </Group>
        </Stack>
      </Group>
    </Stack>
  );
}
