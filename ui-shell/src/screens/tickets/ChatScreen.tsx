import { ActionIcon, Alert, Badge, Box, Button, Center, Group, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconArrowBackUp, IconArrowLeft, IconArrowsExchange, IconCalendarTime, IconCheck, IconCircleX, IconDotsVertical, IconEye, IconHistory, IconLayoutSidebarRight,
  IconLock, IconPlayerPlay, IconRefresh, IconSearch, IconShare3, IconUpload, IconX,
} from '@tabler/icons-react';
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ErrorBox, errorMessage, notify, sessionAtom, usePhoneFormat, useRealtime, useRealtimeRoom, type ComposerSendPayload } from '@atende/ui-shell/sdk';
import { OnFirstOpen } from '../../ui/deferred.tsx';
import { Menu, Tooltip } from '../../ui/overlays.tsx';
import {
  deleteMessage, editMessage, forceCloseTicket, getMessages, reactMessage, retryMessage, sendMessage, updateTicket, type Message, type MessagesPage, type SendPayload, type Ticket,
} from './api.ts';
import { Composer } from './Composer.tsx';
import { ChannelComposerPart } from './ChannelComposer.tsx';
import { ContactPanel } from './ContactPanel.tsx';
import { applyMessage, applyTicket, messagesKey } from './live.ts';
import { ticketQuery } from './queries.ts';
import { useReadWhileOpen } from './useReadWhileOpen.ts';
import { ScheduledBar } from './ScheduledBar.tsx';
import { tenantSettingsQuery } from '../../shell/tenant-settings.ts';
import { MessageList } from './MessageList.tsx';
import { contactPanelAtom, signMessageAtom, statusTabAtom } from './state.ts';
import { ChannelIcon, ContactAvatar, intlLang, signBody, splitSignature, ticketName } from './util.tsx';
import classes from './tickets.module.css';

// The dialogs (schedule's date and number inputs, transfer's selects, drawers) are
// fetched the first time one opens: none is open when the ticket first paints (U1).
const dialogs = () => import('./Dialogs.tsx');
const TransferDialog = lazy(() => dialogs().then((m) => ({ default: m.TransferDialog })));
const ResolveDialog = lazy(() => dialogs().then((m) => ({ default: m.ResolveDialog })));
const ScheduleDialog = lazy(() => dialogs().then((m) => ({ default: m.ScheduleDialog })));
const ForwardDialog = lazy(() => dialogs().then((m) => ({ default: m.ForwardDialog })));
const LogsDrawer = lazy(() => dialogs().then((m) => ({ default: m.LogsDrawer })));
const SearchDrawer = lazy(() => dialogs().then((m) => ({ default: m.SearchDrawer })));
// So are the delete confirmation and the image lightbox.
const ConfirmDialog = lazy(() => import('../../sdk/components/ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));
const ImageZoom = lazy(() => import('./ImageZoom.tsx'));
// The preview of files to send, when files are first chosen, dropped or pasted.
const AttachmentTray = lazy(() => import('./AttachmentTray.tsx'));
/** As many files as the preview takes at once (AttachmentTray.tsx MAX_FILES). */
const TRAY_MAX = 30;
const hasFiles = (e: React.DragEvent) => [...e.dataTransfer.types].includes('Files');

let localSeq = 0;

/** The server's signature line (`*Name*:`), ignored when matching a sent copy to the saved one: the name it uses may differ from the login's. */
const unsigned = (body: string) => splitSignature(body)?.text ?? body;

/** `/atendimento/:ticketId`: the conversation with its header actions, composer and contact panel. */
export default function ChatScreen() {
  const { ticketId } = useParams();
  const id = Number(ticketId);
  if (!Number.isInteger(id) || id <= 0) return <ErrorBox title="404" />;
  return <Conversation key={id} id={id} />;
}

function Conversation({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const setTab = useSetAtom(statusTabAtom);
  const [panel, setPanel] = useAtom(contactPanelAtom);
  const wide = useMediaQuery('(min-width: 64em)', true, { getInitialValueInEffect: false });
  const lng = intlLang(i18n.language);
  const phone = usePhoneFormat();
  useRealtimeRoom(`ticket:${id}`);

  const ticketQ = useQuery(ticketQuery(id));
  const ticket = ticketQ.data;
  const privileged = session?.profile === 'admin' || session?.profile === 'super' || session?.profile === 'superadmin';
  // Force close is the server's admin-only action (supervisors get ERR_NO_PERMISSION), so it is offered to those alone.
  const mayForceClose = session?.profile === 'admin' || session?.profile === 'superadmin';
  const settings = useQuery(tenantSettingsQuery).data;
  const setting = (key: string) => settings?.[key] === 'enabled';
  const forceSignature = setting('ForceSignature');
  const [signChoice, setSignChoice] = useAtom(signMessageAtom);
  const signs = forceSignature || signChoice;
  // The server's rule (tickets.ts assertMayAssignPending): with ForceAdminPendingAssignment on, only a ticket
  // admin (admin, superadmin, or a supervisor unless supervisorAdmin demotes them) gives a pending ticket an agent.
  const ticketAdmin = session?.profile === 'admin' || session?.profile === 'superadmin' || (session?.profile === 'super' && !setting('supervisorAdmin'));
  // Spy: an admin/supervisor watching someone else's open ticket reads without assigning (core.md §4).
  const [spyOverride, setSpyOverride] = useState(false);
  const othersTicket = !!ticket && ticket.status === 'open' && ticket.userId !== null && ticket.userId !== session?.userId;
  const spy = privileged && othersTicket && !spyOverride;
  const pendingLocked = !!ticket && ticket.status === 'pending' && setting('ForceAdminPendingAssignment') && !ticketAdmin && ticket.userId !== session?.userId;

  const msgs = useInfiniteQuery<MessagesPage, Error, InfiniteData<MessagesPage>, readonly unknown[], string | undefined>({
    queryKey: messagesKey(id, spy),
    queryFn: ({ pageParam, signal }) => getMessages(id, pageParam, spy, signal),
    initialPageParam: undefined,
    getNextPageParam: (last) => (last.hasMore && last.messages[0] ? last.messages[0].id : undefined),
    enabled: !!ticket,
    staleTime: 10_000,
  });
  const [locals, setLocals] = useState<Message[]>([]);
  const serverMessages = useMemo(() => (msgs.data ? [...msgs.data.pages].reverse().flatMap((p) => p.messages) : []), [msgs.data]);
  const scheduled = msgs.data?.pages[0]?.messagesOffLine ?? [];
  const messages = useMemo(() => {
    // The socket may deliver the saved message before the POST answers: a sending local copy
    // is then hidden behind the server's own (same author, kind and text, not older), never shown twice.
    const unmatched = serverMessages.filter((m) => m.fromMe && m.userId === session?.userId);
    const shown = locals.filter((l) => {
      if (l.local?.state !== 'sending') return true;
      const i = unmatched.findIndex((m) => unsigned(m.body) === unsigned(l.body) && m.isNote === l.isNote && Number(m.id) > (l.local?.after ?? 0));
      if (i < 0) return true;
      unmatched.splice(i, 1);
      return false;
    });
    return [...serverMessages, ...shown];
  }, [serverMessages, locals, session?.userId]);

  // Screen readers hear each new customer message of the open conversation (the newest one, in the live region).
  const [announced, setAnnounced] = useState('');
  const newestSeen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!msgs.isSuccess) return;
    const newest = serverMessages.reduce((max, m) => Math.max(max, Number(m.id) || 0), 0);
    const before = newestSeen.current;
    newestSeen.current = Math.max(before ?? 0, newest);
    // The first page is what the agent opened, not news; older pages loaded by scrolling are not news either.
    if (before === undefined) return;
    const incoming = serverMessages.filter((m) => Number(m.id) > before && !m.fromMe && !m.isNote && !m.isDeleted);
    const last = incoming[incoming.length - 1];
    if (last) setAnnounced(t('a11y.newMessage', { name: ticketName(ticket), text: last.body || last.mediaName || t('tickets.msg.media') }));
  }, [serverMessages, msgs.isSuccess]);

  // Opening a ticket with unread messages: the list badge goes away (the server marks them read when not spying).
  useEffect(() => {
    if (ticket && ticket.unreadMessages > 0 && msgs.isSuccess && !spy) applyTicket(qc, { ...ticket, unreadMessages: 0 });
  }, [msgs.isSuccess]);

  useReadWhileOpen(ticket, { spy, userId: session?.userId, ready: msgs.isSuccess });
  // The open ticket left the user's sight (transferred to someone in another queue, here or in another tab):
  // say so and go back to the list, rather than ask the server again and show "not found".
  useRealtime<{ id?: number }>('ticket.removed', (d) => {
    if (d?.id !== id) return;
    notify.info(t('tickets.chat.movedAway'));
    navigate('/atendimento');
  });

  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [zoom, setZoom] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'transfer' | 'resolve' | 'schedule' | 'logs' | 'search' | 'forward' | 'reopen' | null>(null);
  const [forceClosing, setForceClosing] = useState(false);
  const [scheduleBody, setScheduleBody] = useState('');
  const [draftReset, setDraftReset] = useState(0);
  // Once a dialog has been asked for, they stay mounted (their close transitions and state behave as before).
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if (dialog && dialog !== 'reopen' && !dialogsWanted) setDialogsWanted(true);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [focusId, setFocusId] = useState<string | undefined>();
  const [acting, setActing] = useState(false);
  // Files waiting in the preview before they are sent (chosen, dropped or pasted), and a drag over the conversation.
  const [tray, setTray] = useState<File[] | null>(null);
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  const attach = useCallback((files: File[]) => {
    if (!files.length) return;
    setTray((cur) => {
      const all = [...(cur ?? []), ...files];
      if (all.length > TRAY_MAX) notify.warning(t('media.tooMany', { max: TRAY_MAX }));
      return all.slice(0, TRAY_MAX);
    });
  }, [t]);

  const doSend = useCallback(async (local: Message) => {
    setLocals((ls) => ls.map((l) => (l.id === local.id ? { ...l, local: { ...l.local!, state: 'sending', error: undefined } } : l)));
    try {
      const saved = await sendMessage(id, local.local!.payload, local.local!.file);
      setLocals((ls) => ls.filter((l) => l.id !== local.id));
      applyMessage(qc, saved);
    } catch (e) {
      setLocals((ls) => ls.map((l) => (l.id === local.id ? { ...l, local: { ...l.local!, state: 'failed', error: errorMessage(e) } } : l)));
    }
  }, [id, qc]);

  const send = (body: string, opts: { isNote: boolean; file?: File; sign: boolean; quote?: boolean }) => {
    const sign = opts.sign && !opts.isNote;
    const quoted = opts.quote === false ? null : replyTo;
    const payload: SendPayload = { body, ...(quoted ? { quotedMsgId: quoted.id } : {}), ...(opts.isNote ? { isNote: true } : {}), ...(sign ? { signMessage: true } : {}) };
    // The sending copy already reads as the customer will get it, so the bubble does not change when the server's arrives.
    const shown = sign && body ? signBody(session?.username ?? '', body) : body;
    const now = new Date().toISOString();
    const file = opts.file;
    const local: Message = {
      id: `local-${++localSeq}`, ticketId: id, contactId: null, userId: session?.userId ?? null, fromMe: true, isNote: opts.isNote, body: shown,
      type: file ? (file.type.split('/')[0] ?? 'document') : 'chat', mediaUrl: file && /^(image|audio|video)\//.test(file.type) ? URL.createObjectURL(file) : null, mediaName: file?.name ?? null,
      mediaType: file?.type ?? null, status: 'pending', failureReason: null, quotedMsgId: quoted?.id ?? null, scheduleDate: null, edited: false, isDeleted: false,
      reactions: [], timestamp: now, createdAt: now,
      local: { state: 'sending', payload, file, after: serverMessages.reduce((max, m) => Math.max(max, Number(m.id) || 0), 0) },
    };
    setLocals((ls) => [...ls, local]);
    setReplyTo(null);
    void doSend(local);
  };

  // A channel extension's send (e.g. a WhatsApp template): the server builds the text, so no optimistic copy.
  const sendFromChannel = useCallback(async (payload: ComposerSendPayload) => {
    try {
      applyMessage(qc, await sendMessage(id, { body: payload.body ?? '', ...(payload.template ? { template: payload.template } : {}) }));
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  }, [id, qc]);

  const act = async (body: Record<string, unknown>, after?: (t: Ticket) => void) => {
    setActing(true);
    try {
      const updated = await updateTicket(id, body);
      applyTicket(qc, updated);
      after?.(updated);
    } catch (e) {
      notify.error(errorMessage(e));
      throw e;
    } finally {
      setActing(false);
    }
  };
  const start = () => void act({ status: 'open', userId: session?.userId }, () => { setTab('open'); setSpyOverride(true); }).catch(() => undefined);
  const returnToQueue = () => void act({ status: 'pending', userId: null }, () => setTab('pending')).catch(() => undefined);
  const forceClose = async () => {
    try {
      const updated = await forceCloseTicket(id);
      applyTicket(qc, updated);
      notify.success(t('tickets.forceClose.done'));
      setTab('closed');
    } catch (e) {
      notify.error(errorMessage(e));
      throw e;
    }
  };
  // A reopen is a status change only: the server gives the ticket to whoever reopens it (not a transfer).
  const reopen = () => void act({ status: 'open' }, () => setTab('open')).catch(() => undefined);
  // What every composer of this conversation shares (the normal one and the notes-only one of a locked pending ticket).
  const composerBase = {
    ticketId: id,
    onCancelReply: () => setReplyTo(null),
    editing,
    onCancelEdit: () => setEditing(null),
    onSend: send,
    onSaveEdit: (m: Message, body: string) => {
      setEditing(null);
      void editMessage(m.id, body).then((saved) => applyMessage(qc, saved)).catch(() => undefined);
    },
  };

  const handlers = useMemo(() => ({
    onToggleSelect: (m: Message) => setSelected((s) => {
      const n = new Set(s);
      if (n.has(m.id)) n.delete(m.id);
      else if (n.size < 10) n.add(m.id);
      else notify.warning(t('tickets.forward.max'));
      return n;
    }),
    onReply: (m: Message) => { setEditing(null); setReplyTo(m); },
    onEdit: (m: Message) => { setReplyTo(null); setEditing(m); },
    onDelete: (m: Message) => setDeleting(m),
    onReact: (m: Message, emoji: string) => void reactMessage(m.id, emoji).catch(() => undefined),
    onForward: (m: Message) => { setSelecting(true); setSelected(new Set([m.id])); },
    // A copy that never reached the server is posted again; a reply the provider refused is sent again by the server.
    onRetry: (m: Message) => void (m.local ? doSend(m) : retryMessage(m.id).then((saved) => applyMessage(qc, saved, { retried: true })).catch((e: unknown) => notify.error(errorMessage(e)))),
    onZoom: (url: string) => setZoom(url),
  }), [doSend, qc, t]);

  if (ticketQ.isError) {
    return (
      <Center className={classes.chat}>
        <ErrorBox title={t('tickets.chat.notFound')} message={errorMessage(ticketQ.error)} onRetry={() => void ticketQ.refetch()} />
      </Center>
    );
  }

  const name = ticketName(ticket);
  const status = ticket?.status;
  const readOnly = spy || status === 'closed';
  // Files go where the composer sends them: an open ticket the user is answering.
  const canAttach = !!ticket && status === 'open' && !spy;
  const dropHandlers = canAttach ? {
    onDragEnter: (e: React.DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current += 1;
      setDragging(true);
    },
    onDragOver: (e: React.DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    },
    onDragLeave: () => {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (!dragDepth.current) setDragging(false);
    },
    onDrop: (e: React.DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      attach([...e.dataTransfer.files]);
    },
  } : {};
  const statusLabel = status ? t(`tickets.status.${status === 'schedule' ? 'pending' : status}`) : '';
  const statusColor = status === 'open' ? 'teal' : status === 'pending' ? 'yellow' : 'gray';

  return (
    <Box className={classes.chat} style={{ display: 'flex', flexDirection: 'row' }}>
      <Box component="section" aria-label={t('a11y.conversation', { name })} className={classes.chat} style={{ position: 'relative' }} data-testid="conversation" {...dropHandlers}>
        <VisuallyHidden aria-live="polite" aria-atomic="true" data-testid="conversation-live">{announced}</VisuallyHidden>
        {dragging && (
          <div className={classes.dropZone} data-testid="drop-zone">
            <Stack align="center" gap={6}><IconUpload size={44} stroke={1.4} /><Text fw={600}>{t('media.dropHere')}</Text></Stack>
          </div>
        )}
        {tray && (
          <Suspense fallback={null}>
            <AttachmentTray
              files={tray}
              onAdd={attach}
              onRemove={(f) => setTray((cur) => cur?.filter((x) => x !== f) ?? null)}
              onClose={() => setTray(null)}
              onSend={(items) => {
                setTray(null);
                // One message per file, each with its caption; a reply being quoted goes with the first.
                items.forEach((it, i) => send(it.caption, { isNote: false, file: it.file, sign: signs, quote: i === 0 }));
              }}
            />
          </Suspense>
        )}
        <div className={classes.chatHeader}>
          {!wide && <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => navigate('/atendimento')} aria-label={t('common.back')}><IconArrowLeft size={20} /></ActionIcon>}
          {ticket ? (
            <UnstyledHeader onClick={() => setPanel((p) => !p)}>
              <ContactAvatar name={name} src={ticket.contact?.profilePicUrl} seed={ticket.contactId} size={42} />
              <Box style={{ minWidth: 0 }}>
                <Group gap={6} wrap="nowrap">
                  <Text component="h2" fw={600} m={0} fz="md" truncate="end" data-testid="chat-name">{name}</Text>
                  {/* Never shrinks: a long name is what gets cut, not the status ("ABER…"). */}
                  <Badge size="xs" color={statusColor} variant="light" data-testid="chat-status" style={{ flexShrink: 0, overflow: 'visible' }}>{statusLabel}</Badge>
                </Group>
                <Group gap={6} wrap="nowrap">
                  <ChannelIcon type={ticket.channel} size={12} />
                  <Text size="xs" c="dimmed" truncate="end">
                    {[phone(ticket.contact?.number), ticket.protocol ? `${t('tickets.panel.protocol')} ${ticket.protocol}` : null, ticket.username ? `${t('tickets.chat.agent')}: ${ticket.username}` : null, ticket.queue?.name].filter(Boolean).join(' · ')}
                  </Text>
                </Group>
              </Box>
            </UnstyledHeader>
          ) : (
            <Group style={{ flex: 1 }}><Skeleton circle height={42} /><Stack gap={6}><Skeleton height={12} width={160} /><Skeleton height={8} width={220} /></Stack></Group>
          )}
          {ticket && (
            <Group gap={6} wrap="nowrap">
              {status === 'pending' && !pendingLocked && <Button size="xs" color="teal" leftSection={<IconPlayerPlay size={14} />} onClick={start} loading={acting} data-testid="action-start">{t('tickets.actions.start')}</Button>}
              {pendingLocked && (
                <Tooltip label={t('tickets.pendingLocked.text')} multiline w={260}>
                  <Badge color="orange" variant="light" leftSection={<IconLock size={12} />} data-testid="pending-locked-badge">{t('tickets.pendingLocked.badge')}</Badge>
                </Tooltip>
              )}
              {status === 'closed' && <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={reopen} loading={acting} data-testid="action-reopen">{t('tickets.actions.reopen')}</Button>}
              {spy && <Badge color="grape" variant="light" leftSection={<IconEye size={12} />}>{t('tickets.actions.spying')}</Badge>}
              {status === 'open' && (wide ? (
                <>
                  <Button size="xs" variant="default" leftSection={<IconArrowsExchange size={14} />} onClick={() => setDialog('transfer')} data-testid="action-transfer">{t('tickets.actions.transfer')}</Button>
                  <Button size="xs" color="teal" leftSection={<IconCheck size={14} />} onClick={() => setDialog('resolve')} data-testid="action-resolve">{t('tickets.actions.resolve')}</Button>
                </>
              ) : (
                <Tooltip label={t('tickets.actions.resolve')}><ActionIcon size="lg" color="teal" onClick={() => setDialog('resolve')} aria-label={t('tickets.actions.resolve')} data-testid="action-resolve"><IconCheck size={18} /></ActionIcon></Tooltip>
              ))}
              {wide && <Tooltip label={t('tickets.search.title')}><ActionIcon variant="subtle" color="gray" size="lg" onClick={() => setDialog('search')} aria-label={t('tickets.search.title')}><IconSearch size={19} /></ActionIcon></Tooltip>}
              <Menu position="bottom-end" shadow="md" width={230}>
                <Menu.Target><ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('tickets.actions.more')} data-testid="action-more"><IconDotsVertical size={19} /></ActionIcon></Menu.Target>
                <Menu.Dropdown>
                  {/* A pending ticket has its own entry below, on every width. */}
                  {status === 'open' && !wide && <Menu.Item leftSection={<IconArrowsExchange size={15} />} onClick={() => setDialog('transfer')}>{t('tickets.actions.transfer')}</Menu.Item>}
                  {status === 'open' && <Menu.Item leftSection={<IconArrowBackUp size={15} />} onClick={returnToQueue} data-testid="action-return">{t('tickets.actions.returnToQueue')}</Menu.Item>}
                  {status === 'pending' && <Menu.Item leftSection={<IconArrowsExchange size={15} />} onClick={() => setDialog('transfer')} data-testid="action-transfer-menu">{t('tickets.actions.transfer')}</Menu.Item>}
                  {privileged && othersTicket && (
                    <Menu.Item leftSection={<IconEye size={15} />} onClick={() => setSpyOverride((s) => !s)}>{spy ? t('tickets.actions.stopSpy') : t('tickets.actions.spy')}</Menu.Item>
                  )}
                  {/* A scheduled message is a reply too: not while only an admin may assign the ticket. */}
                  {status !== 'closed' && !pendingLocked && <Menu.Item leftSection={<IconCalendarTime size={15} />} onClick={() => { setScheduleBody(''); setDialog('schedule'); }}>{t('tickets.schedule.title')}</Menu.Item>}
                  <Menu.Item leftSection={<IconShare3 size={15} />} onClick={() => { setSelecting(true); setSelected(new Set()); }}>{t('tickets.forward.selectMode')}</Menu.Item>
                  <Menu.Item leftSection={<IconSearch size={15} />} onClick={() => setDialog('search')}>{t('tickets.search.title')}</Menu.Item>
                  <Menu.Item leftSection={<IconHistory size={15} />} onClick={() => setDialog('logs')} data-testid="action-logs">{t('tickets.logs.title')}</Menu.Item>
                  <Menu.Item leftSection={<IconLayoutSidebarRight size={15} />} onClick={() => setPanel((p) => !p)}>{panel ? t('tickets.panel.hide') : t('tickets.panel.show')}</Menu.Item>
                  {mayForceClose && status !== 'closed' && (
                    <>
                      <Menu.Divider />
                      <Menu.Item color="red" leftSection={<IconCircleX size={15} />} onClick={() => setForceClosing(true)} data-testid="action-force-close">{t('tickets.forceClose.action')}</Menu.Item>
                    </>
                  )}
                </Menu.Dropdown>
              </Menu>
            </Group>
          )}
        </div>
        {selecting && (
          <Group justify="space-between" px="md" py={6} bg="var(--mantine-primary-color-light)">
            <Text size="sm" fw={500}>{t('tickets.forward.selected', { n: selected.size })}</Text>
            <Group gap="xs">
              <Button size="xs" variant="default" leftSection={<IconX size={14} />} onClick={() => { setSelecting(false); setSelected(new Set()); }}>{t('common.cancel')}</Button>
              <Button size="xs" leftSection={<IconShare3 size={14} />} disabled={!selected.size} onClick={() => setDialog('forward')}>{t('tickets.forward.submit')}</Button>
            </Group>
          </Group>
        )}
        <ScheduledBar messages={scheduled} />
        {msgs.isPending || !ticket ? (
          <Box className={classes.wall} p="lg">
            <Stack gap="md">{[40, 65, 30, 55, 45].map((w, i) => <Group key={i} justify={i % 2 ? 'flex-end' : 'flex-start'}><Skeleton height={38} width={`${w}%`} radius="md" /></Group>)}</Stack>
          </Box>
        ) : msgs.isError ? (
          <Center className={classes.wall}><ErrorBox title={t('tickets.chat.loadFailed')} onRetry={() => void msgs.refetch()} /></Center>
        ) : (
          <MessageList
            messages={messages}
            lng={lng}
            hasOlder={!!msgs.hasNextPage}
            loadingOlder={msgs.isFetchingNextPage}
            onLoadOlder={() => void msgs.fetchNextPage()}
            readOnly={readOnly}
            selecting={selecting}
            selectedIds={selected}
            handlers={handlers}
            focusId={focusId}
          />
        )}
        {ticket && pendingLocked && (
          <Alert radius={0} color="orange" icon={<IconLock size={16} />} py={8} data-testid="pending-locked">
            <Text size="sm">{t('tickets.pendingLocked.text')}</Text>
          </Alert>
        )}
        {ticket && pendingLocked && (
          // Notes stay possible: the server only refuses what would take the ticket.
          <Composer
            {...composerBase}
            replyTo={null}
            onSchedule={() => undefined}
            sign={{ on: false, forced: false, onChange: setSignChoice }}
            notesOnly={t('tickets.pendingLocked.notesOnly')}
          />
        )}
        {ticket && status === 'pending' && !pendingLocked && (
          <Group justify="center" gap="sm" p="sm" className={classes.composer}>
            <Text size="sm" c="dimmed">{t('tickets.chat.pendingHint')}</Text>
            <Button size="xs" color="teal" leftSection={<IconPlayerPlay size={14} />} onClick={start} loading={acting}>{t('tickets.actions.start')}</Button>
          </Group>
        )}
        {ticket && status === 'closed' && (
          <Group justify="center" gap="sm" p="sm" className={classes.composer}>
            <Text size="sm" c="dimmed">{t('tickets.chat.closedHint')}</Text>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={reopen} loading={acting}>{t('tickets.actions.reopen')}</Button>
          </Group>
        )}
        {ticket && status === 'open' && spy && (
          <Alert radius={0} color="grape" icon={<IconEye size={16} />} py={8}>
            <Group justify="space-between"><Text size="sm">{t('tickets.chat.spyHint', { name: ticket.username ?? '' })}</Text><Button size="xs" variant="light" color="grape" onClick={() => setSpyOverride(true)}>{t('tickets.actions.stopSpy')}</Button></Group>
          </Alert>
        )}
        {ticket && status === 'open' && !spy && (
          <Composer
            {...composerBase}
            replyTo={replyTo}
            onSchedule={(body) => { setScheduleBody(body); setDialog('schedule'); }}
            draftReset={draftReset}
            sign={{ on: signChoice, forced: forceSignature, onChange: setSignChoice }}
            onAttach={attach}
            channelAction={<ChannelComposerPart part="composerAction" ticket={ticket} messages={serverMessages} hasOlder={!!msgs.hasNextPage} send={sendFromChannel} />}
            channelNotice={<ChannelComposerPart part="composerNotice" ticket={ticket} messages={serverMessages} hasOlder={!!msgs.hasNextPage} send={sendFromChannel} />}
          />
        )}
      </Box>
      {ticket && panel && <ContactPanel ticket={ticket} onClose={() => setPanel(false)} />}

      {ticket && dialogsWanted && (
        <Suspense fallback={null}>
          <TransferDialog ticket={ticket} opened={dialog === 'transfer'} queueOnly={pendingLocked ? t('tickets.pendingLocked.transferQueueOnly') : undefined} onClose={() => setDialog(null)} onSubmit={async (b) => {
            // The transfer alone: the server opens it for a chosen person, logs it as a transfer and applies the
            // transfer refusals; adding `status: 'open'` made a pending ticket's transfer count as "start attending".
            const updated = await updateTicket(id, b);
            applyTicket(qc, updated);
            notify.success(t('tickets.transfer.done'));
            if (updated.userId !== session?.userId && !privileged) navigate('/atendimento');
          }} />
          <ResolveDialog opened={dialog === 'resolve'} onClose={() => setDialog(null)} onSubmit={async (b) => {
            const updated = await updateTicket(id, b);
            applyTicket(qc, updated);
            notify.success(t('tickets.resolve.done'));
            setTab(updated.status === 'closed' ? 'closed' : 'open');
          }} />
          <ScheduleDialog opened={dialog === 'schedule'} initialBody={scheduleBody} onClose={() => setDialog(null)} onSubmit={async (p) => {
            // A scheduled reply goes out under the agent's name like one sent now.
            const saved = await sendMessage(id, signs ? { ...p, signMessage: true } : p);
            applyMessage(qc, saved);
            // Scheduled, so no longer a draft: an Enter in the composer must not send it now too.
            setDraftReset((n) => n + 1);
          }} />
          <ForwardDialog opened={dialog === 'forward'} messageIds={[...selected]} onClose={() => setDialog(null)} onDone={() => { setDialog(null); setSelecting(false); setSelected(new Set()); }} />
          <LogsDrawer ticketId={id} opened={dialog === 'logs'} onClose={() => setDialog(null)} />
          <SearchDrawer ticketId={id} opened={dialog === 'search'} onClose={() => setDialog(null)} onPick={(m) => { setDialog(null); setFocusId(undefined); requestAnimationFrame(() => setFocusId(m.id)); }} />
        </Suspense>
      )}
      <OnFirstOpen opened={!!deleting}>
        {(opened) => (
          <ConfirmDialog
            opened={opened}
            title={t('tickets.msg.deleteTitle')}
            message={t('tickets.msg.deleteText')}
            onClose={() => setDeleting(null)}
            onConfirm={async () => {
              const m = deleting!;
              await deleteMessage(m.id).then(() => applyMessage(qc, { ...m, isDeleted: true, body: '' })).catch(() => undefined);
              setDeleting(null);
            }}
          />
        )}
      </OnFirstOpen>
      <OnFirstOpen opened={forceClosing}>
        {(opened) => (
          <ConfirmDialog
            opened={opened}
            title={t('tickets.forceClose.title')}
            message={t('tickets.forceClose.text')}
            confirmLabel={t('tickets.forceClose.confirm')}
            onClose={() => setForceClosing(false)}
            onConfirm={forceClose}
          />
        )}
      </OnFirstOpen>
      <OnFirstOpen opened={!!zoom}>
        {(opened) => <ImageZoom opened={opened} src={zoom} title={t('tickets.msg.image')} onClose={() => setZoom(null)} />}
      </OnFirstOpen>
    </Box>
  );
}

function UnstyledHeader({ children, onClick }: { children: React.ReactNode; onClick: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  return (
    <Group ref={ref} gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0, cursor: 'pointer' }} onClick={onClick}>
      {children}
    </Group>
  );
}
