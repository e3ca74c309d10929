import { ActionIcon, Badge, Box, CloseButton, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconFileDescription, IconPlus, IconSend, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@atende/ui-shell/sdk';
import classes from './tickets.module.css';

/** The server's limit for one file (core storage MAX_MEDIA_BYTES). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Files in one preview, as WhatsApp Web allows a batch at a time. */
export const MAX_FILES = 30;
/** What the server stores (core storage ALLOWED): images, videos, audio, PDF, office files, text, zip. */
const ACCEPTED = [/^image\/(jpeg|png|gif|webp)$/, /^video\/(mp4|3gpp|quicktime|webm)$/, /^audio\//, /^application\/(pdf|zip|x-zip-compressed|msword|vnd\.openxmlformats-officedocument\.|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.oasis\.opendocument\.)/, /^text\/(plain|csv)$/];

export interface TrayItem {
  file: File;
  caption: string;
}

function problemOf(file: File): 'tooLarge' | 'type' | null {
  if (file.size > MAX_FILE_BYTES) return 'tooLarge';
  if (file.type && !ACCEPTED.some((re) => re.test(file.type))) return 'type';
  return null;
}

function sizeText(bytes: number, language: string): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, language, 0)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), language, 1)} MB`;
}

const kindOf = (f: File) => (f.type.startsWith('image/') ? 'image' : f.type.startsWith('video/') ? 'video' : f.type.startsWith('audio/') ? 'audio' : 'file');

/**
 * WhatsApp Web's preview before sending: the chosen, dropped or pasted files
 * over the conversation, each with its caption, thumbnails to move between
 * them, remove one or add more, and one send for all. Files the server would
 * refuse (size, type) say so here and are left out.
 */
export default function AttachmentTray({ files, onAdd, onRemove, onClose, onSend }: {
  files: File[];
  onAdd: (files: File[]) => void;
  onRemove: (file: File) => void;
  onClose: () => void;
  onSend: (items: TrayItem[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const [current, setCurrent] = useState(0);
  const [captions, setCaptions] = useState(() => new Map<File, string>());
  const captionRef = useRef<HTMLInputElement>(null);
  const addRef = useRef<HTMLInputElement>(null);
  const urls = useMemo(() => new Map(files.filter((f) => kindOf(f) !== 'file').map((f) => [f, URL.createObjectURL(f)])), [files]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  const index = Math.min(current, files.length - 1);
  const file = files[index];
  useEffect(() => {
    captionRef.current?.focus();
  }, [index]);
  if (!file) return null;

  const problem = problemOf(file);
  const sendable = files.filter((f) => !problemOf(f));
  const send = () => {
    if (sendable.length) onSend(sendable.map((f) => ({ file: f, caption: (captions.get(f) ?? '').trim() })));
  };
  const url = urls.get(file);
  const kind = kindOf(file);

  return (
    <div className={classes.tray} role="dialog" aria-modal="true" aria-label={t('media.trayTitle')} data-testid="attachment-tray"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}>
      <Group justify="space-between" px="md" py={10} wrap="nowrap" className={classes.trayTop}>
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <CloseButton size="lg" onClick={onClose} aria-label={t('media.close')} data-testid="tray-close" />
          <Text fw={600} truncate="end" data-testid="tray-file-name">{file.name}</Text>
        </Group>
        <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>{sizeText(file.size, i18n.language)}</Text>
      </Group>
      <div className={classes.trayStage}>
        {problem ? (
          <Stack align="center" gap={6} data-testid="tray-problem">
            <IconFileDescription size={72} stroke={1.1} />
            <Text fw={600}>{file.name}</Text>
            <Text c="red.8" size="sm" fw={500}>{problem === 'tooLarge' ? t('media.tooLarge', { max: MAX_FILE_BYTES / (1024 * 1024) }) : t('media.typeRejected')}</Text>
          </Stack>
        ) : kind === 'image' ? (
          <img src={url} alt={file.name} className={classes.trayPreview} data-testid="tray-image" />
        ) : kind === 'video' ? (
          <video src={url} controls className={classes.trayPreview} />
        ) : kind === 'audio' ? (
          <audio src={url} controls />
        ) : (
          <Stack align="center" gap={6}>
            <IconFileDescription size={84} stroke={1.1} />
            <Text fw={600}>{file.name}</Text>
            <Text size="sm" c="dimmed">{[file.type || t('media.file'), sizeText(file.size, i18n.language)].join(' · ')}</Text>
          </Stack>
        )}
      </div>
      <Box px="xl" pb="sm" maw={760} mx="auto" w="100%">
        <TextInput
          ref={captionRef}
          size="md"
          radius="md"
          placeholder={t('media.captionPlaceholder')}
          aria-label={t('media.caption')}
          value={captions.get(file) ?? ''}
          disabled={!!problem}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setCaptions((m) => new Map(m).set(file, v));
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          data-testid="tray-caption"
        />
      </Box>
      <Group className={classes.trayBottom} px="md" py="sm" wrap="nowrap" justify="space-between">
        <Group gap={8} wrap="nowrap" className={classes.trayThumbs} role="listbox" aria-label={t('media.files')}>
          {files.map((f, i) => {
            const u = urls.get(f);
            const bad = problemOf(f);
            return (
              <div key={`${f.name}-${i}`} className={classes.trayThumbWrap}>
                <UnstyledButton className={classes.trayThumb} role="option" aria-selected={i === index} aria-label={f.name} data-active={i === index || undefined} data-bad={bad ? '' : undefined} onClick={() => setCurrent(i)} data-testid="tray-thumb">
                  {u && kindOf(f) === 'image' ? <img src={u} alt="" /> : <IconFileDescription size={24} stroke={1.3} />}
                </UnstyledButton>
                <ActionIcon className={classes.trayThumbRemove} size={18} radius="xl" color="dark" variant="filled" aria-label={t('media.remove', { name: f.name })} onClick={() => {
                  onRemove(f);
                  if (files.length === 1) onClose();
                }}><IconX size={11} /></ActionIcon>
              </div>
            );
          })}
          {files.length < MAX_FILES && (
            <UnstyledButton className={classes.trayThumb} data-add aria-label={t('media.addMore')} onClick={() => addRef.current?.click()} data-testid="tray-add">
              <IconPlus size={22} />
            </UnstyledButton>
          )}
          <input ref={addRef} type="file" multiple hidden onChange={(e) => {
            const more = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = '';
            if (more.length) onAdd(more);
          }} />
        </Group>
        <Box pos="relative" style={{ flexShrink: 0 }}>
          <ActionIcon size={54} radius="xl" onClick={send} disabled={!sendable.length} aria-label={t('media.send', { n: sendable.length })} data-testid="tray-send">
            <IconSend size={24} />
          </ActionIcon>
          {sendable.length > 1 && <Badge size="sm" circle color="dark" pos="absolute" top={-4} right={-4}>{sendable.length}</Badge>}
        </Box>
      </Group>
    </div>
  );
}
