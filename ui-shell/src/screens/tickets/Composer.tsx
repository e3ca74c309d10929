import { ActionIcon, Box, Center, CloseButton, Group, Loader, Paper, ScrollArea, Switch, Text, Textarea, UnstyledButton } from '@mantine/core';
import { IconArrowBackUp, IconCalendarTime, IconLock, IconMicrophone, IconMoodSmile, IconPaperclip, IconPencil, IconPlayerStopFilled, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, notify } from '@atende/ui-shell/sdk';
import { Popover, Tooltip } from '../../ui/overlays.tsx';
import { listQuickMessages, resolveQuickMessage, type Message, type QuickMessage } from './api.ts';
import { splitSignature } from './util.tsx';
import classes from './tickets.module.css';

// The full picker (every emoji, search in the user's language) is fetched when first opened (U1).
const EmojiPicker = lazy(() => import('./EmojiPicker.tsx'));

/** A pasted screenshot arrives as "image.png": it is named after the moment instead, so the customer's copy says what it is. */
function pastedName(file: File, prefix: string): File {
  if (!/^image\.\w+$/i.test(file.name) && file.name) return file;
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  return new File([file], `${prefix}-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}.${ext}`, { type: file.type });
}

/** Only where there is a mouse: on a phone, focusing the field would open the keyboard over the conversation. */
const finePointer = () => typeof window !== 'undefined' && window.matchMedia?.('(pointer: fine)').matches;

export interface ComposerProps {
  ticketId: number;
  disabled?: boolean;
  replyTo: Message | null;
  onCancelReply: () => void;
  editing: Message | null;
  onCancelEdit: () => void;
  /** `sign`: the agent wants their name on top of the text (never for notes). */
  onSend: (body: string, opts: { isNote: boolean; file?: File; sign: boolean }) => void;
  onSaveEdit: (m: Message, body: string) => void;
  onSchedule: (body: string) => void;
  /** Changes when the draft was used elsewhere (scheduled): the composer empties. */
  draftReset?: number;
  /** The ticket channel's composer extensions (ChannelComposer.tsx): a tool-row button and a strip above. */
  channelAction?: ReactNode;
  channelNotice?: ReactNode;
  /** The "Assinar" switch: `forced` when the tenant requires signed messages (ForceSignature), then it stays on. */
  sign: { on: boolean; forced: boolean; onChange: (on: boolean) => void };
  /** Why only internal notes may be written here (e.g. a pending ticket only an admin may assign); unset for normal tickets. */
  notesOnly?: string;
  /** Files chosen, pasted or dropped: they go to the preview before sending (AttachmentTray.tsx). */
  onAttach?: (files: File[]) => void;
}

/** Template variables a quick message may carry (core.md §3), in the spec's `{{variable}}` syntax; the server fills them in when it sends. */
const QUICK_MESSAGE_VARIABLES = ['name', 'greeting', 'protocol', 'firstName', 'user'].map((v) => `{{${v}}}`).join(', ');

/** Enter sends, Shift+Enter breaks the line, '/' opens quick messages (docs/ui.md). */
/** A message's text without its signature line, as the agent edits it. */
const editingText = (m: Message) => (m.isNote ? m.body : (splitSignature(m.body)?.text ?? m.body));

export function Composer({ ticketId, disabled, replyTo, onCancelReply, editing, onCancelEdit, onSend, onSaveEdit, onSchedule, draftReset, channelAction, channelNotice, sign, notesOnly, onAttach }: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [noteChosen, setIsNote] = useState(false);
  const isNote = noteChosen || !!notesOnly;
  const signs = !isNote && (sign.on || sign.forced);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [qmIndex, setQmIndex] = useState(0);
  const [qmDismissed, setQmDismissed] = useState(false);
  const [quickError, setQuickError] = useState<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  // Per-ticket drafts survive switching tickets.
  const drafts = useRef(new Map<number, string>());
  useEffect(() => {
    setText(drafts.current.get(ticketId) ?? '');
    setQuickError(null);
    // A ticket opens ready to answer, as a chat opens in WhatsApp Web.
    if (finePointer()) inputRef.current?.focus();
    return () => undefined;
  }, [ticketId]);
  useEffect(() => {
    drafts.current.set(ticketId, text);
  }, [text, ticketId]);
  useEffect(() => {
    if (draftReset) setText('');
  }, [draftReset]);
  useEffect(() => {
    if (editing) {
      // The agent edits the text; the signature line above it stays as it was (the server keeps it).
      setText(editingText(editing));
      inputRef.current?.focus();
    }
  }, [editing]);
  useEffect(() => {
    if (replyTo) inputRef.current?.focus();
  }, [replyTo]);

  const quick = useQuery({ queryKey: ['tickets', 'quick-messages'], queryFn: listQuickMessages, staleTime: 60_000, enabled: text.startsWith('/') });
  const slash = /^\/(\S*)$/.exec(text);
  const matches = useMemo(() => {
    if (!slash) return [];
    const term = slash[1]!.toLowerCase();
    const list = quick.data ?? [];
    return list.filter((q) => q.key.toLowerCase().startsWith(term) || (term.length > 1 && q.message.toLowerCase().includes(term))).slice(0, 30);
  }, [slash?.[1], quick.data]);
  const qmOpen = !!slash && !qmDismissed && !editing;
  useEffect(() => {
    setQmIndex(0);
    if (!text.startsWith('/')) setQmDismissed(false);
    setQuickError(null);
  }, [text]);

  const pickQuick = (q: QuickMessage) => {
    setText(q.message);
    setQmDismissed(true);
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  const submit = async () => {
    const body = text.trim();
    if (editing) {
      if (body && body !== editingText(editing)) onSaveEdit(editing, body);
      else onCancelEdit();
      setText('');
      return;
    }
    if (!body) return;
    if (/^\/\S+$/.test(body)) {
      // A slash with no pick: the server decides (none found / several match).
      try {
        const q = await resolveQuickMessage(body);
        setText(q.message);
        setQmDismissed(true);
      } catch (e) {
        const msg = errorMessage(e);
        setQuickError(msg);
        notify.error(msg);
      }
      return;
    }
    onSend(body, { isNote, sign: signs });
    setText('');
    drafts.current.delete(ticketId);
  };

  const canAttach = !!onAttach && !editing && !isNote;
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...(e.clipboardData?.files ?? [])];
    if (!files.length || !canAttach) return;
    e.preventDefault();
    onAttach?.(files.map((f) => pastedName(f, t('media.pastedName'))));
  };
  const insertEmoji = (emoji: string) => {
    const el = inputRef.current;
    const pos = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? pos;
    setText(text.slice(0, pos) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(pos + emoji.length, pos + emoji.length);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (qmOpen && matches.length) {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        setQmIndex((i) => (i + 1) % matches.length);
        return;
      }
      if (e.key === 'ArrowUp') {
        e.preventDefault();
        setQmIndex((i) => (i - 1 + matches.length) % matches.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pickQuick(matches[qmIndex] ?? matches[0]!);
        return;
      }
    }
    if (e.key === 'Escape') {
      if (qmOpen) setQmDismissed(true);
      else if (editing) {
        onCancelEdit();
        setText('');
      } else if (replyTo) onCancelReply();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  // --- audio recording ---
  const [recording, setRecording] = useState<{ rec: MediaRecorder; started: number } | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const chunks = useRef<Blob[]>([]);
  const cancelRec = useRef(false);
  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - recording.started) / 1000)), 500);
    return () => clearInterval(timer);
  }, [recording]);
  const startRecording = async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      notify.error(t('tickets.composer.recordUnsupported'));
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (e) {
      const denied = e instanceof DOMException && (e.name === 'NotAllowedError' || e.name === 'SecurityError');
      notify.error(denied ? t('tickets.composer.micDenied') : t('tickets.composer.recordFailed'));
      return;
    }
    const mime = ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm'].find((m) => MediaRecorder.isTypeSupported(m));
    const rec = new MediaRecorder(stream, mime ? { mimeType: mime } : undefined);
    chunks.current = [];
    cancelRec.current = false;
    rec.ondataavailable = (ev) => ev.data.size && chunks.current.push(ev.data);
    rec.onerror = () => notify.error(t('tickets.composer.recordFailed'));
    rec.onstop = () => {
      stream.getTracks().forEach((tr) => tr.stop());
      setRecording(null);
      setElapsed(0);
      if (cancelRec.current || !chunks.current.length) return;
      const type = rec.mimeType || 'audio/webm';
      const ext = type.includes('ogg') ? 'ogg' : 'webm';
      onSend('', { isNote: false, sign: false, file: new File(chunks.current, `audio-${Date.now()}.${ext}`, { type }) });
    };
    rec.start();
    setRecording({ rec, started: Date.now() });
  };
  const stopRecording = (cancel: boolean) => {
    cancelRec.current = cancel;
    recording?.rec.stop();
  };

  if (disabled) return null;

  const bar = replyTo ?? editing;
  return (
    <Box className={classes.composer} data-note={isNote || undefined}>
      {channelNotice}
      {bar && (
        <Paper withBorder radius="md" p={6} mb={6} style={{ borderLeft: `4px solid var(--mantine-color-${editing ? 'blue' : 'teal'}-6)` }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              {editing ? <IconPencil size={16} /> : <IconArrowBackUp size={16} />}
              <Box style={{ minWidth: 0 }}>
                <Text size="xs" fw={600}>{editing ? t('tickets.composer.editing') : t('tickets.composer.replyingTo')}</Text>
                <Text size="xs" c="dimmed" truncate="end">{bar.body || bar.mediaName}</Text>
              </Box>
            </Group>
            <CloseButton size="sm" aria-label={t('common.cancel')} onClick={() => (editing ? (onCancelEdit(), setText('')) : onCancelReply())} />
          </Group>
        </Paper>
      )}
      {recording ? (
        <Group justify="flex-end" gap="sm" py={4}>
          <Tooltip label={t('tickets.composer.cancelRecording')}><ActionIcon variant="subtle" color="gray" size="lg" onClick={() => stopRecording(true)} aria-label={t('tickets.composer.cancelRecording')}><IconTrash size={20} /></ActionIcon></Tooltip>
          <Group gap={6}><span className={classes.recDot} /><Text size="sm" ff="monospace">{`${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, '0')}`}</Text></Group>
          <Tooltip label={t('tickets.composer.sendAudio')}><ActionIcon size="xl" radius="xl" color="teal" onClick={() => stopRecording(false)} aria-label={t('tickets.composer.sendAudio')}><IconPlayerStopFilled size={18} /></ActionIcon></Tooltip>
        </Group>
      ) : (
        <Group gap={4} align="flex-end" wrap="nowrap">
          <Popover opened={emojiOpen} onChange={setEmojiOpen} position="top-start" shadow="md" withinPortal>
            <Popover.Target>
              <Tooltip label={t('tickets.composer.emoji')}><ActionIcon variant="subtle" color="gray" size="lg" mb={4} onClick={() => setEmojiOpen((o) => !o)} aria-label={t('tickets.composer.emoji')}><IconMoodSmile size={22} /></ActionIcon></Tooltip>
            </Popover.Target>
            <Popover.Dropdown p={0} style={{ overflow: 'hidden' }}>
              {emojiOpen && (
                <Suspense fallback={<Center w={352} h={380}><Loader size="sm" aria-label={t('media.emojiLoading')} /></Center>}>
                  <EmojiPicker onPick={insertEmoji} />
                </Suspense>
              )}
            </Popover.Dropdown>
          </Popover>
          <Tooltip label={t('tickets.composer.attach')}><ActionIcon variant="subtle" color="gray" size="lg" mb={4} onClick={() => fileRef.current?.click()} aria-label={t('tickets.composer.attach')} disabled={!canAttach}><IconPaperclip size={21} /></ActionIcon></Tooltip>
          {!editing && !isNote && channelAction}
          <input ref={fileRef} type="file" multiple hidden data-testid="file-input" aria-label={t('tickets.composer.attach')} onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = '';
            if (files.length && canAttach) onAttach?.(files);
          }} />
          <Box className={classes.composerBox}>
            <Textarea
              ref={inputRef}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              placeholder={isNote ? t('tickets.composer.notePlaceholder') : t('tickets.composer.placeholder')}
              aria-label={t('tickets.composer.placeholder')}
              autosize
              minRows={1}
              maxRows={7}
              variant="unstyled"
              error={quickError ?? undefined}
              data-testid="composer"
              styles={{ input: { paddingTop: 9, paddingBottom: 9, fontSize: 14.5 } }}
            />
            {/* The list is anchored on an overlay of the box, not on the box: when the popover's code
                arrives (ui/overlays.tsx) its target is created anew, and the text being typed must not be. */}
            <Popover opened={qmOpen} position="top-start" width="target" shadow="md" trapFocus={false} withinPortal returnFocus={false}>
              <Popover.Target>
                <div className={classes.composerAnchor} aria-hidden />
              </Popover.Target>
              <Popover.Dropdown p={4} data-testid="quick-messages">
                {matches.length ? (
                  <ScrollArea.Autosize mah={260}>
                    {matches.map((q, i) => (
                      <UnstyledButton key={q.id} w="100%" p={8} style={{ borderRadius: 6, background: i === qmIndex ? 'var(--mantine-primary-color-light)' : undefined }} onMouseEnter={() => setQmIndex(i)} onMouseDown={(e) => e.preventDefault()} onClick={() => pickQuick(q)} data-testid="quick-message-option">
                        <Text size="sm" fw={600}>/{q.key}</Text>
                        <Text size="xs" c="dimmed" lineClamp={2}>{q.message}</Text>
                      </UnstyledButton>
                    ))}
                  </ScrollArea.Autosize>
                ) : (
                  <Text size="sm" c="dimmed" p={8}>{quick.isPending ? t('app.loading') : t('tickets.composer.noQuick')}</Text>
                )}
                {/* The variables go in as values: i18next must not treat the spec's {{name}} syntax as its own. */}
                <Text size="xs" c="dimmed" px={8} pt={6} pb={4} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-testid="quick-messages-hint">
                  {t('tickets.composer.quickHint', { variables: QUICK_MESSAGE_VARIABLES })}
                </Text>
              </Popover.Dropdown>
            </Popover>
          </Box>
          <Tooltip label={t('tickets.schedule.title')}><ActionIcon variant="subtle" color="gray" size="lg" mb={4} onClick={() => onSchedule(text.trim())} aria-label={t('tickets.schedule.title')} disabled={!!editing || !!notesOnly}><IconCalendarTime size={21} /></ActionIcon></Tooltip>
          {text.trim() || editing ? (
            <Tooltip label={editing ? t('common.save') : t('tickets.composer.send')}><ActionIcon size="xl" radius="xl" onClick={() => void submit()} aria-label={t('tickets.composer.send')} data-testid="send"><IconSend size={19} /></ActionIcon></Tooltip>
          ) : (
            <Tooltip label={t('tickets.composer.record')}><ActionIcon size="xl" radius="xl" variant="light" onClick={() => void startRecording()} aria-label={t('tickets.composer.record')} disabled={isNote}><IconMicrophone size={20} /></ActionIcon></Tooltip>
          )}
        </Group>
      )}
      <Group justify="space-between" mt={4} px={4}>
        <Group gap="md">
          {notesOnly ? (
            <Tooltip label={notesOnly} multiline w={260}>
              <div><Switch size="xs" color="yellow" checked disabled label={<Locked>{t('tickets.composer.noteToggle')}</Locked>} data-testid="note-switch" /></div>
            </Tooltip>
          ) : (
            <Switch size="xs" color="yellow" checked={isNote} onChange={(e) => setIsNote(e.currentTarget.checked)} label={t('tickets.composer.noteToggle')} data-testid="note-switch" />
          )}
          {/* Notes never reach the customer, so there is nothing to sign. */}
          {!isNote && (sign.forced ? (
            <Tooltip label={t('tickets.composer.signForced')} multiline w={260}>
              <div data-testid="sign-forced"><Switch size="xs" checked disabled label={<Locked>{t('tickets.composer.sign')}</Locked>} data-testid="sign-switch" /></div>
            </Tooltip>
          ) : (
            <Tooltip label={t('tickets.composer.signHint')} multiline w={260} openDelay={400}>
              <div><Switch size="xs" checked={sign.on} onChange={(e) => sign.onChange(e.currentTarget.checked)} label={t('tickets.composer.sign')} data-testid="sign-switch" /></div>
            </Tooltip>
          ))}
        </Group>
        <Text size="10px" c="dimmed" visibleFrom="sm">{t('tickets.composer.hint')}</Text>
      </Group>
    </Box>
  );
}

/** A switch the agent cannot change reads as locked, not merely greyed out. */
function Locked({ children }: { children: ReactNode }) {
  return <Group gap={3} wrap="nowrap" component="span">{children}<IconLock size={11} /></Group>;
}
