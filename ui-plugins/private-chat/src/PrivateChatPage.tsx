import { ActionIcon, Avatar, Badge, Box, Group, Indicator, ScrollArea, Skeleton, Stack, Tabs, Text, TextInput, Textarea, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowLeft, IconMessages, IconSearch, IconSend, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { EmptyState, formatDate, formatDateTime, getSession, usePluginTranslation, useRealtime } from '@atende/ui-shell/sdk';
import {
  conversationsKey, getConversations, getMessages, markRead, messagesKey, sendMessage,
  chatKey, type ChatMessage, type ChatTeam, type ChatUser, type Target,
} from './api.ts';

/** WhatsApp Web's palette: a beige wallpaper, green bubbles for mine, white for theirs. */
const WALLPAPER = 'light-dark(#efeae2, #0b141a)';
const MINE = 'light-dark(#d9fdd3, #005c4b)';
const THEIRS = 'light-dark(#ffffff, #202c33)';

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
const sameDay = (a: string, b: string) => new Date(a).toDateString() === new Date(b).toDateString();

/** `/chat-privado`: people and teams on the left, the open conversation on the right, all live. */
export default function PrivateChatPage() {
  const { t, i18n } = usePluginTranslation('private-chat');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = getSession()?.userId;
  const [tab, setTab] = useState<'users' | 'teams'>('users');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<Target | null>(null);
  const openRef = useRef(open);
  openRef.current = open;

  // Fresh on every opening: the header's watcher (ChatWatcher.tsx) may hold a list from before a team was created.
  const conversations = useQuery({ queryKey: conversationsKey, queryFn: ({ signal }) => getConversations(signal), refetchOnMount: 'always' });
  const refreshList = () => void queryClient.invalidateQueries({ queryKey: conversationsKey });

  const read = useMutation({ mutationFn: (target: Target) => markRead(target), onSuccess: refreshList });

  useRealtime<ChatMessage & { teamName?: string }>('private_message.created', (m) => {
    const target: Target = m.teamId ? { kind: 'teams', id: m.teamId } : { kind: 'users', id: m.fromUserId === me ? m.toUserId! : m.fromUserId };
    queryClient.setQueryData<{ messages: ChatMessage[]; hasMore: boolean; limit: number }>(messagesKey(target), (old) =>
      old && !old.messages.some((x) => x.id === m.id) ? { ...old, messages: [...old.messages, m] } : old);
    const cur = openRef.current;
    // A message into the conversation on screen is read at once; any other one raises that conversation's badge.
    if (cur && cur.kind === target.kind && cur.id === target.id && m.fromUserId !== me) read.mutate(target);
    else refreshList();
  });
  useRealtime('private_message.read', () => {
    refreshList();
    // The other side read: my ticks in the open conversation turn double.
    void queryClient.invalidateQueries({ queryKey: [...chatKey, 'messages'] });
  });
  useRealtime('user.status_updated', refreshList);

  const select = (target: Target) => {
    setOpen(target);
    read.mutate(target);
  };

  const data = conversations.data;
  const needle = search.trim().toLocaleLowerCase();
  const users = (data?.users ?? []).filter((u) => !needle || u.name.toLocaleLowerCase().includes(needle));
  const teams = (data?.teams ?? []).filter((x) => !needle || x.name.toLocaleLowerCase().includes(needle));
  const unreadUsers = (data?.users ?? []).reduce((n, u) => n + u.unread, 0);
  const unreadTeams = (data?.teams ?? []).reduce((n, x) => n + x.unread, 0);
  const current = open?.kind === 'users' ? data?.users.find((u) => u.id === open.id) : open ? data?.teams.find((x) => x.id === open.id) : undefined;

  // The unread count reaches the tab title through the rail badge (ChatWatcher.tsx), from any screen.
  return (
    <Box h="100vh" p={{ base: 0, md: 'md' }} bg="light-dark(#d1d7db, #111b21)">
      <Group h="100%" gap={0} wrap="nowrap" align="stretch" maw={1600} mx="auto" style={{ boxShadow: '0 1px 3px rgba(0,0,0,.15)', overflow: 'hidden' }}>
        {/* Left pane: tabs, search and the conversation list. */}
        <Stack gap={0} w={{ base: open ? 0 : '100%', sm: 380 }} miw={{ sm: 320 }} bg="var(--mantine-color-body)" style={{ borderRight: '1px solid var(--mantine-color-default-border)', overflow: 'hidden' }}>
          <Group justify="space-between" px="md" h={60} bg="light-dark(#f0f2f5, #202c33)" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Tooltip label={t('back')}><ActionIcon variant="subtle" color="gray" aria-label={t('back')} onClick={() => navigate('/atendimento')}><IconArrowLeft size={18} /></ActionIcon></Tooltip>
              <Text fw={700}>{t('title')}</Text>
            </Group>
            {data && data.unreadCount > 0 && (
              <Tooltip label={t('unreadSummary', { messages: data.unreadCount, conversations: data.notificationCount })}>
                <Badge color="green" variant="filled" aria-label={t('unreadSummary', { messages: data.unreadCount, conversations: data.notificationCount })}>{data.unreadCount}</Badge>
              </Tooltip>
            )}
          </Group>
          <Box px="sm" py={8}>
            <TextInput size="sm" radius="md" leftSection={<IconSearch size={14} />} placeholder={t('search')} aria-label={t('search')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          </Box>
          <Tabs value={tab} onChange={(v) => setTab((v as 'users' | 'teams') ?? 'users')} color="green">
            <Tabs.List grow>
              <Tabs.Tab value="users" leftSection={<IconMessages size={14} />} rightSection={unreadUsers ? <Badge size="xs" color="green" circle>{unreadUsers}</Badge> : undefined}>{t('users')}</Tabs.Tab>
              <Tabs.Tab value="teams" leftSection={<IconUsers size={14} />} rightSection={unreadTeams ? <Badge size="xs" color="green" circle>{unreadTeams}</Badge> : undefined}>{t('teams')}</Tabs.Tab>
            </Tabs.List>
          </Tabs>
          <ScrollArea style={{ flex: 1 }} type="auto">
            {conversations.isLoading && Array.from({ length: 6 }, (_, i) => <Group key={i} p="sm"><Skeleton circle height={44} /><Stack gap={6} style={{ flex: 1 }}><Skeleton height={10} width="50%" /><Skeleton height={8} width="80%" /></Stack></Group>)}
            {tab === 'users' && users.map((u) => <UserRow key={u.id} user={u} active={open?.kind === 'users' && open.id === u.id} onClick={() => select({ kind: 'users', id: u.id })} />)}
            {tab === 'teams' && teams.map((x) => <TeamRow key={x.id} team={x} active={open?.kind === 'teams' && open.id === x.id} onClick={() => select({ kind: 'teams', id: x.id })} />)}
            {data && tab === 'users' && users.length === 0 && <EmptyState title={t('noUsers')} />}
            {data && tab === 'teams' && teams.length === 0 && <EmptyState title={t('noTeams')} description={t('noTeamsText')} />}
          </ScrollArea>
        </Stack>
        {/* Right pane: the open conversation. */}
        <Box style={{ flex: 1, display: open ? 'flex' : undefined, flexDirection: 'column', minWidth: 0 }} bg={WALLPAPER} display={{ base: open ? 'flex' : 'none', sm: 'flex' }}>
          {open && current ? (
            <Conversation key={`${open.kind}-${open.id}`} target={open} peer={current} me={me} onBack={() => setOpen(null)} lang={i18n.language} />
          ) : (
            <Stack align="center" justify="center" h="100%" gap="xs" p="xl" bg="light-dark(#f0f2f5, #222e35)" style={{ flex: 1 }}>
              <IconMessages size={64} stroke={1} color="var(--mantine-color-dimmed)" />
              <Text size="xl" fw={300}>{t('title')}</Text>
              <Text size="sm" c="dimmed" ta="center" maw={420}>{t('pick')}</Text>
            </Stack>
          )}
        </Box>
      </Group>
    </Box>
  );

  function UserRow({ user, active, onClick }: { user: ChatUser; active: boolean; onClick: () => void }) {
    return (
      <ConversationRow active={active} onClick={onClick} name={user.name} online={user.isOnline} unread={user.unread} at={user.lastMessageAt}
        preview={user.lastMessage ? `${user.lastMessageFromMe ? `${t('you')}: ` : ''}${user.lastMessage}` : user.isOnline ? t('online') : t('offline')} />
    );
  }
  function TeamRow({ team, active, onClick }: { team: ChatTeam; active: boolean; onClick: () => void }) {
    return (
      <ConversationRow active={active} onClick={onClick} name={team.name} team unread={team.unread} at={team.lastMessageAt}
        preview={team.lastMessage ? `${team.lastMessageFrom ?? ''}: ${team.lastMessage}` : t('members', { n: team.members })} />
    );
  }
  function ConversationRow(p: { active: boolean; onClick: () => void; name: string; online?: boolean; team?: boolean; unread: number; at: string | null; preview: string }) {
    const today = p.at && sameDay(p.at, new Date().toISOString());
    return (
      <UnstyledButton onClick={p.onClick} w="100%" px="sm" py={10} aria-label={p.name} aria-current={p.active || undefined}
        bg={p.active ? 'light-dark(#f0f2f5, #2a3942)' : undefined} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap="sm" wrap="nowrap">
          <Indicator disabled={p.team} color={p.online ? 'green' : 'gray'} position="bottom-end" offset={6} size={11} withBorder aria-label={p.online ? t('online') : t('offline')}>
            <Avatar radius="xl" size={44} color={p.team ? 'teal' : 'initials'} name={p.name}>{p.team ? <IconUsers size={20} /> : undefined}</Avatar>
          </Indicator>
          <Box style={{ flex: 1, minWidth: 0 }}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" fw={p.unread ? 700 : 500} truncate>{p.name}</Text>
              {p.at && <Text size="xs" c={p.unread ? 'green' : 'dimmed'}>{today ? time(p.at) : formatDate(p.at, i18n.language)}</Text>}
            </Group>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="xs" c="dimmed" truncate>{p.preview}</Text>
              {p.unread > 0 && <Badge size="sm" circle color="green" variant="filled" data-testid="unread-badge">{p.unread}</Badge>}
            </Group>
          </Box>
        </Group>
      </UnstyledButton>
    );
  }
}

function Conversation({ target, peer, me, onBack, lang }: { target: Target; peer: ChatUser | ChatTeam; me?: number; onBack: () => void; lang: string }) {
  const { t } = usePluginTranslation('private-chat');
  const queryClient = useQueryClient();
  const history = useQuery({ queryKey: messagesKey(target), queryFn: ({ signal }) => getMessages(target, signal) });
  const [text, setText] = useState('');
  const bottom = useRef<HTMLDivElement>(null);
  const send = useMutation({
    mutationFn: (body: string) => sendMessage(target, body),
    onSuccess: (m) => {
      queryClient.setQueryData<{ messages: ChatMessage[]; hasMore: boolean; limit: number }>(messagesKey(target), (old) =>
        old && !old.messages.some((x) => x.id === m.id) ? { ...old, messages: [...old.messages, m] } : old);
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
    },
  });
  const messages = history.data?.messages ?? [];
  // Braces on purpose: recent Chromium returns a Promise from scrollIntoView, and an effect
  // that returns anything but a cleanup function crashes React when it re-runs.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages.length]);
  const submit = () => {
    const body = text.trim();
    if (!body) return;
    setText('');
    send.mutate(body);
  };
  const isUser = target.kind === 'users';
  const user = peer as ChatUser;
  const status = isUser ? (user.isOnline ? t('online') : user.lastSeenAt ? t('lastSeen', { date: formatDateTime(user.lastSeenAt, lang) }) : t('offline')) : t('members', { n: (peer as ChatTeam).members });

  return (
    <>
      <Group h={60} px="md" gap="sm" wrap="nowrap" bg="light-dark(#f0f2f5, #202c33)" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <ActionIcon hiddenFrom="sm" variant="subtle" color="gray" aria-label={t('back')} onClick={onBack}><IconArrowLeft size={18} /></ActionIcon>
        <Avatar radius="xl" color={isUser ? 'initials' : 'teal'} name={peer.name}>{isUser ? undefined : <IconUsers size={18} />}</Avatar>
        <Box style={{ minWidth: 0 }}>
          <Text fw={600} size="sm" truncate>{peer.name}</Text>
          <Text size="xs" c={isUser && user.isOnline ? 'green' : 'dimmed'} data-testid="peer-status">{status}</Text>
        </Box>
      </Group>
      <ScrollArea style={{ flex: 1 }} type="auto" px={{ base: 'sm', md: 48 }}>
        <Stack gap={4} py="md">
          {history.data?.hasMore && <Text size="xs" c="dimmed" ta="center">{t('olderHidden', { n: history.data.limit })}</Text>}
          {history.isLoading && <Skeleton height={40} width="40%" radius="md" />}
          {!history.isLoading && messages.length === 0 && <Text size="sm" c="dimmed" ta="center" mt="xl">{t('noMessages')}</Text>}
          {messages.map((m, i) => {
            const mine = m.fromUserId === me;
            const newDay = i === 0 || !sameDay(messages[i - 1].createdAt, m.createdAt);
            return (
              <Box key={m.id}>
                {newDay && <Group justify="center" my="xs"><Badge variant="white" color="gray" radius="sm" tt="none" fw={500}>{formatDate(m.createdAt, lang)}</Badge></Group>}
                <Group justify={mine ? 'flex-end' : 'flex-start'}>
                  <Box maw="70%" px={10} py={6} bg={mine ? MINE : THEIRS} style={{ borderRadius: 8, boxShadow: '0 1px 0.5px rgba(11,20,26,.13)' }} data-testid="chat-bubble">
                    {!mine && !isUser && <Text size="xs" fw={600} c="teal">{m.fromName}</Text>}
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{m.body}</Text>
                    <Text size="10px" c="dimmed" ta="right">{time(m.createdAt)}{mine && isUser ? (m.readAt ? ' ✓✓' : ' ✓') : ''}</Text>
                  </Box>
                </Group>
              </Box>
            );
          })}
          <div ref={bottom} />
        </Stack>
      </ScrollArea>
      <Group gap="xs" px="md" py={10} bg="light-dark(#f0f2f5, #202c33)" wrap="nowrap" align="flex-end">
        <Textarea style={{ flex: 1 }} radius="lg" autosize minRows={1} maxRows={5} maxLength={4000} placeholder={t('typeMessage')} aria-label={t('typeMessage')} value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); submit(); } }} />
        <ActionIcon size={38} radius="xl" color="green" aria-label={t('send')} onClick={submit} loading={send.isPending}><IconSend size={18} /></ActionIcon>
      </Group>
    </>
  );
}

