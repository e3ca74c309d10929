import { ActionIcon, Anchor, Box, Button, Checkbox, Group, Text } from '@mantine/core';
import { IconAlertCircle, IconArrowBackUp, IconCheck, IconChecks, IconChevronDown, IconClock, IconCopy, IconFileDescription, IconMoodSmile, IconNote, IconPencil, IconRefresh, IconShare3, IconTemplate, IconTrash } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { memo } from 'react';
import { sessionAtom } from '@atende/ui-shell/sdk';
import { useTranslation } from 'react-i18next';
import { Menu, Tooltip } from '../../ui/overlays.tsx';
import type { Message } from './api.ts';
import { RichText } from './RichText.tsx';
import { splitSignature, timeOf } from './util.tsx';
import { VoicePlayer } from './VoicePlayer.tsx';
import classes from './tickets.module.css';

export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'];

/** Ack ticks: pending clock, sent ✓, delivered ✓✓, read blue ✓✓, failed red ! with the reason on hover. */
export function AckIcon({ m }: { m: Message }) {
  const { t } = useTranslation();
  if (m.local?.state === 'sending' || m.status === 'pending') return <IconClock size={13} aria-label={t('tickets.ack.pending')} data-ack="pending" />;
  if (m.local?.state === 'failed' || m.status === 'failed') {
    const reason = m.local?.error ?? m.failureReason ?? t('tickets.ack.failed');
    return (
      <Tooltip label={reason} withArrow multiline maw={260}>
        <IconAlertCircle size={14} color="var(--mantine-color-red-6)" aria-label={reason} data-ack="failed" />
      </Tooltip>
    );
  }
  if (m.status === 'read' || m.status === 'received') return <IconChecks size={15} color="#53bdeb" aria-label={t('tickets.ack.read')} data-ack="read" />;
  if (m.status === 'delivered') return <IconChecks size={15} aria-label={t('tickets.ack.delivered')} data-ack="delivered" />;
  return <IconCheck size={14} aria-label={t('tickets.ack.sent')} data-ack="sent" />;
}

function MediaPreview({ m, onZoom }: { m: Message; onZoom: (url: string) => void }) {
  const { t } = useTranslation();
  if (!m.mediaUrl) return null;
  const mime = (m.mediaType ?? '').toLowerCase();
  const kind = m.type === 'image' || mime.startsWith('image/') ? 'image' : m.type === 'audio' || m.type === 'ptt' || mime.startsWith('audio/') ? 'audio' : m.type === 'video' || mime.startsWith('video/') ? 'video' : 'file';
  if (kind === 'image') return <img src={m.mediaUrl} alt={m.mediaName ?? ''} className={classes.media} loading="lazy" onClick={() => onZoom(m.mediaUrl!)} />;
  if (kind === 'audio') return <VoicePlayer src={m.mediaUrl} mine={m.fromMe} />;
  if (kind === 'video') return <video controls preload="metadata" src={m.mediaUrl} className={classes.media} style={{ cursor: 'default' }} />;
  return (
    <Anchor href={m.mediaUrl} target="_blank" rel="noreferrer" download={m.mediaName ?? true} underline="never">
      <Group gap={8} wrap="nowrap" p={8} mb={4} style={{ borderRadius: 8, background: 'var(--mantine-color-default-hover)' }}>
        <IconFileDescription size={28} stroke={1.4} />
        <Box style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} truncate="end">{m.mediaName ?? t('tickets.msg.document')}</Text>
          <Text size="xs" c="dimmed">{t('tickets.msg.download')}</Text>
        </Box>
      </Group>
    </Anchor>
  );
}

interface Props {
  m: Message;
  first: boolean;
  lng: string;
  quoted?: Message;
  readOnly: boolean;
  selecting: boolean;
  selected: boolean;
  onToggleSelect: (m: Message) => void;
  onReply: (m: Message) => void;
  onEdit: (m: Message) => void;
  onDelete: (m: Message) => void;
  onReact: (m: Message, emoji: string) => void;
  onForward: (m: Message) => void;
  onRetry: (m: Message) => void;
  onZoom: (url: string) => void;
  onJump: (id: string) => void;
}

export const MessageBubble = memo(function MessageBubble(p: Props) {
  const { t } = useTranslation();
  const { m } = p;
  const mine = m.fromMe;
  const failed = m.local?.state === 'failed' || m.status === 'failed';
  // Only the author edits or deletes a reply or a note (the server refuses anyone else).
  const session = useAtomValue(sessionAtom);
  const canChange = mine && m.userId !== null && m.userId === session?.userId && !m.isDeleted && !m.local && !p.readOnly;
  const groupedReactions = Object.entries(
    (m.reactions ?? []).reduce<Record<string, number>>((acc, r) => ((acc[r.emoji] = (acc[r.emoji] ?? 0) + 1), acc), {}),
  );
  return (
    <div
      className={classes.msgRow}
      data-mine={mine || undefined}
      data-selected={p.selected || undefined}
      style={{ paddingTop: p.first ? 6 : 1, paddingBottom: groupedReactions.length ? 16 : 1 }}
      onClick={p.selecting && !m.local ? () => p.onToggleSelect(m) : undefined}
    >
      {p.selecting && !m.local && <Checkbox checked={p.selected} readOnly mr="sm" mt={8} aria-label={t('tickets.forward.select')} style={{ order: mine ? -1 : 0 }} />}
      <div
        className={classes.bubble}
        data-mine={mine || undefined}
        data-note={m.isNote || undefined}
        data-failed={failed || undefined}
        data-first={p.first || undefined}
        data-testid="message"
        data-message-id={m.id}
      >
        {m.isNote && (
          <Group gap={4} mb={2}>
            <IconNote size={12} color="var(--mantine-color-yellow-8)" />
            <Text size="10px" fw={700} tt="uppercase" c="var(--tk-29)">{t('tickets.msg.note')}</Text>
          </Group>
        )}
        {m.forwarded && !m.isDeleted && (
          <div className={classes.forwarded} data-testid="message-forwarded"><IconShare3 size={13} aria-hidden />{t('media.forwarded')}</div>
        )}
        {m.template && (
          <Group gap={4} mb={2} wrap="nowrap" data-testid="message-template">
            <IconTemplate size={12} color="var(--mantine-color-teal-8)" />
            <Text size="10px" fw={700} tt="uppercase" c="var(--tk-30)">{t('tickets.msg.template')}</Text>
            <Text size="10px" c="dimmed" truncate="end">{m.template.name}</Text>
          </Group>
        )}
        {p.quoted && (
          <div className={classes.quote} onClick={() => p.onJump(p.quoted!.id)}>
            <Text size="xs" fw={600} c="var(--tk-30)">{p.quoted.fromMe ? t('tickets.msg.you') : t('tickets.msg.contact')}</Text>
            <Text size="xs" lineClamp={2}>{p.quoted.body || p.quoted.mediaName || t('tickets.msg.media')}</Text>
          </div>
        )}
        {m.isDeleted ? (
          <Text size="sm" fs="italic" c="dimmed" span>{t('tickets.msg.deleted')}</Text>
        ) : (
          <>
            <MediaPreview m={m} onZoom={p.onZoom} />
            {m.body && !(m.mediaUrl && m.body === m.mediaName) && <span className={classes.bubbleBody}><SignedBody body={m.body} /></span>}
          </>
        )}
        <span className={classes.meta}>
          {m.edited && !m.isDeleted && <span>{t('tickets.msg.edited')}</span>}
          <span>{timeOf(m.timestamp ?? m.createdAt, p.lng)}</span>
          {mine && !m.isNote && <AckIcon m={m} />}
        </span>
        {failed && (m.local || (mine && !m.isNote && !m.isDeleted)) && (
          // Why it did not go, in the bubble (not only on hover), and a way to send it again.
          <div className={classes.failedLine} data-testid="message-failed">
            <Text size="xs" c="red.8" fw={500}>{failureText(m, t)}</Text>
            {!p.readOnly && <Button size="compact-xs" variant="filled" color="red.9" leftSection={<IconRefresh size={12} />} onClick={() => p.onRetry(m)} data-testid="message-retry">{t('tickets.msg.retry')}</Button>}
          </div>
        )}
        {groupedReactions.length > 0 && (
          <div className={classes.reactions} data-testid="reactions">
            {groupedReactions.map(([emoji, n]) => <span key={emoji}>{emoji}{n > 1 ? <small> {n}</small> : null}</span>)}
          </div>
        )}
        {!m.local && !m.isDeleted && !p.selecting && !p.readOnly && (
          <Menu position={mine ? 'bottom-end' : 'bottom-start'} shadow="md" width={200} withinPortal>
            <Menu.Target>
              <ActionIcon className={classes.bubbleMenu} size="sm" variant="subtle" color="gray" radius="xl" aria-label={t('tickets.msg.actions')} style={{ background: 'inherit' }}>
                <IconChevronDown size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Group gap={2} px={6} py={4} wrap="nowrap">
                {QUICK_REACTIONS.map((e) => (
                  <Menu.Item key={e} p={4} w={30} style={{ fontSize: 18, textAlign: 'center' }} onClick={() => p.onReact(m, e)} aria-label={`${t('tickets.msg.react')} ${e}`}>{e}</Menu.Item>
                ))}
              </Group>
              <Menu.Divider />
              <Menu.Item leftSection={<IconArrowBackUp size={15} />} onClick={() => p.onReply(m)}>{t('tickets.msg.reply')}</Menu.Item>
              <Menu.Item leftSection={<IconShare3 size={15} />} onClick={() => p.onForward(m)}>{t('tickets.msg.forward')}</Menu.Item>
              <Menu.Item leftSection={<IconCopy size={15} />} onClick={() => void navigator.clipboard?.writeText(m.body)}>{t('tickets.msg.copy')}</Menu.Item>
              <Menu.Item leftSection={<IconMoodSmile size={15} />} onClick={() => p.onReact(m, '')}>{t('tickets.msg.removeReaction')}</Menu.Item>
              {canChange && !m.mediaUrl && <Menu.Item leftSection={<IconPencil size={15} />} onClick={() => p.onEdit(m)}>{t('tickets.msg.edit')}</Menu.Item>}
              {canChange && <Menu.Item color="red" leftSection={<IconTrash size={15} />} onClick={() => p.onDelete(m)}>{t('tickets.msg.delete')}</Menu.Item>}
            </Menu.Dropdown>
          </Menu>
        )}
      </div>
    </div>
  );
});

/** A signed reply arrives as `*Name*:` on its first line (WhatsApp bold); it reads as the customer sees it, in bold without the asterisks. */
function SignedBody({ body }: { body: string }) {
  const sig = splitSignature(body);
  if (!sig) return <RichText text={body} />;
  return <><strong data-testid="message-signature">{sig.name}:</strong>{'\n'}<RichText text={sig.text} /></>;
}

/** The reason a reply did not go: the provider's words when it gave some, else the catalogue's. */
function failureText(m: Message, t: (key: string) => string): string {
  if (m.local) return m.local.error ?? t('tickets.msg.sendFailed');
  const reason = m.failureReason ?? (m.errorCode ? t(`errors.${m.errorCode}`) : t('tickets.ack.failed'));
  return `${t('media.notSent')}: ${reason}`;
}
