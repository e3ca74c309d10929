/**
 * The channel dialog (administration.md §3, §5): every kernel field of a
 * channel in four tabs, with the provider's own fields mounted from the
 * channel plugin's remote (`UiChannelType.form`). Inline validation uses the
 * spec's messages; the server's refusals (connection limit, invalid JSON,
 * the channel plugin's own codes such as a missing Telegram token…) come
 * back through the SDK's error mapping and land beside the field or tab
 * they concern. Plugins add their own fields as sections (`channelDialog`
 * of the remotes loaded for the tenant: birthdays, farewells…), which own
 * their state and hand the save their part (`ChannelDialogContribution`).
 */
import {
  Alert, Badge, Button, Checkbox, Group, Modal, Paper, PasswordInput, ScrollArea, Select, SimpleGrid, Stack, Switch, Tabs, Text, Textarea, TextInput, UnstyledButton,
} from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError, ErrorBoundary, ErrorBox, errorMessage, notify, uiPluginsAtom,
  type ChannelDialogChannel, type ChannelDialogContribution, type ChannelDialogSection, type ChannelDialogTab, type ChannelFormValue, type UiChannelType,
} from '@atende/ui-shell/sdk';
import { useQueues, useUsersLite } from '../shared.tsx';
import { channelsKey, createChannel, SWITCHES, updateChannel, useChannelErrorCodes, useChatFlows, type Channel, type ChannelType, type SwitchKey } from './api.ts';
import { ChannelTypeIcon } from './visuals.tsx';

/** A kernel tab, or `plugin:<key>` for a plugin section that is a tab of its own. */
type Tab = ChannelDialogTab | `plugin:${string}`;
type Errors = Partial<Record<'type' | 'name' | 'transcription' | 'wavoip' | 'proxyUrl' | 'form', string>>;
const FIELD_TAB: Record<keyof Errors, Tab> = { type: 'general', name: 'general', transcription: 'automation', wavoip: 'automation', proxyUrl: 'connection', form: 'general' };

/** A remote's section of the dialog, with where it renders. */
interface PluginSection extends ChannelDialogSection {
  key: string;
  pluginId: string;
  /** The kernel tab holding it, or its own `plugin:<key>` tab. */
  at: Tab;
}

/** The channel dialog sections of the remotes loaded for this tenant, in their order. */
function usePluginSections(): PluginSection[] {
  const { plugins } = useAtomValue(uiPluginsAtom);
  return plugins
    .flatMap((p) => (p.channelDialog ?? []).map((s, i) => {
      const key = `${p.id}-${i}`;
      return { ...s, key, pluginId: p.id, at: s.tab ?? (`plugin:${key}` as const) };
    }))
    .sort((a, b) => a.order - b.order);
}

/** A refusal of a section (its `values()`, or its `afterSave` on an edit): shown in that section, its tab marked. */
class SectionRefusal extends Error {
  constructor(readonly section: PluginSection, message: string) {
    super(message);
  }
}

/** Evolution-style instance names: what the server will keep (accents dropped, only letters, digits, _ and -). */
export function lockedNameOf(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9_-]/g, '');
}

/** Comma-separated voice-provider tokens: at most 20, each 4+ characters without spaces. */
export function wavoipTokensValid(text: string): boolean {
  const tokens = text.split(',').map((s) => s.trim()).filter(Boolean);
  return tokens.length <= 20 && tokens.every((tk) => /^\S{4,400}$/.test(tk));
}

export function jsonObjectValid(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown;
    return !!v && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

function validProxyUrl(url: string): boolean {
  try {
    return ['http:', 'https:', 'socks:', 'socks4:', 'socks5:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

export interface ChannelDialogProps {
  /** The saved channel when editing. */
  channel?: Channel;
  types: ChannelType[];
  uis: Map<string, UiChannelType>;
  onClose(): void;
  onSaved(channel: Channel, created: boolean): void;
}

export function ChannelDialog({ channel, types, uis, onClose, onSaved }: ChannelDialogProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const queues = useQueues();
  const users = useUsersLite();
  const flows = useChatFlows();
  const editing = !!channel;

  const [tab, setTab] = useState<Tab>('general');
  const [type, setType] = useState<string | null>(channel?.type ?? (types.length === 1 ? types[0]!.type : null));
  const [name, setName] = useState(channel?.name ?? '');
  const [provider, setProvider] = useState<ChannelFormValue>({ number: channel?.number ?? null, config: channel?.config ?? {}, secrets: {} });
  const [isDefault, setIsDefault] = useState(channel?.isDefault ?? false);
  const [queueId, setQueueId] = useState<string | null>(channel?.queueId ? String(channel.queueId) : null);
  const [userId, setUserId] = useState<string | null>(channel?.userId ? String(channel.userId) : null);
  const [chatFlowId, setChatFlowId] = useState<string | null>(channel?.chatFlowId ? String(channel.chatFlowId) : null);
  const [switches, setSwitches] = useState<Record<SwitchKey, boolean>>(() => Object.fromEntries(SWITCHES.map((k) => [k, channel?.switches?.[k] ?? false])) as Record<SwitchKey, boolean>);
  const [transcription, setTranscription] = useState('');
  const [dropTranscription, setDropTranscription] = useState(false);
  const [proxy, setProxy] = useState({ use: channel?.proxy.use ?? false, url: channel?.proxy.url ?? '', user: channel?.proxy.user ?? '', password: '' });
  const [wavoip, setWavoip] = useState('');
  const [dropWavoip, setDropWavoip] = useState(false);
  const [closingKeyword, setClosingKeyword] = useState(channel?.closingKeyword ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [sectionError, setSectionError] = useState<{ key: string; at: Tab; message: string } | null>(null);

  const sections = usePluginSections();
  // Each section's latest contribution (it re-registers on every render, so the closures read its current state).
  const contributions = useRef(new Map<string, ChannelDialogContribution>());
  const registers = useRef(new Map<string, (c: ChannelDialogContribution) => void>());
  const registerFor = useCallback((key: string) => {
    let fn = registers.current.get(key);
    if (!fn) {
      fn = (c: ChannelDialogContribution) => { contributions.current.set(key, c); };
      registers.current.set(key, fn);
    }
    return fn;
  }, []);
  // Sections see the saved channel with every field of the answer (their own among them).
  const dialogChannel: ChannelDialogChannel | undefined = channel ? { ...channel } : undefined;

  const typeDef = types.find((x) => x.type === type);
  const ui = type ? uis.get(type) : undefined;
  const ProviderForm = ui?.form;
  const providerCodes = useChannelErrorCodes(type);
  // A refusal with a code of the channel plugin's own contract concerns its provider fields, on the connection
  // tab; the remote may still be loading when the answer comes, so the tab follows once its codes are known.
  const [refusal, setRefusal] = useState<{ code?: string; fieldErrors?: Record<string, string> }>({});
  useEffect(() => {
    if (refusal.code && providerCodes.has(refusal.code)) setTab('connection');
  }, [refusal, providerCodes]);
  const locked = !!typeDef?.lockedName;

  const save = useMutation({
    mutationFn: async () => {
      const body: Record<string, unknown> = {
        number: provider.number?.trim() || null,
        isDefault,
        queueId: queueId ? Number(queueId) : null,
        userId: userId ? Number(userId) : null,
        chatFlowId: chatFlowId ? Number(chatFlowId) : null,
        switches,
        closingKeyword: closingKeyword.trim() || null,
        config: provider.config,
        secrets: provider.secrets,
      };
      // The plugins' fields: each section's values join the kernel's body (the server validates them together).
      for (const s of sections) {
        const c = contributions.current.get(s.key);
        try {
          Object.assign(body, c?.values?.() ?? {});
        } catch (err) {
          throw new SectionRefusal(s, err instanceof Error ? err.message : String(err));
        }
      }
      if (!editing || !locked) body.name = name.trim();
      if (typeDef?.capabilities.proxy || channel?.proxy.use) body.proxy = { use: proxy.use, url: proxy.url.trim() || null, user: proxy.user.trim() || null, ...(proxy.password ? { password: proxy.password } : {}) };
      // Write-only values: sent only when typed (or removed), so an edit keeps what is saved.
      if (wavoip.trim()) body.wavoipTokens = wavoip.trim();
      else if (dropWavoip) body.wavoipTokens = null;
      if (transcription.trim()) body.transcriptionConfig = transcription.trim();
      else if (dropTranscription) body.transcriptionConfig = null;
      const saved = editing ? await updateChannel(channel.id, body) : await createChannel({ ...body, type });
      // Then what the sections save through routes of their own (a file upload…).
      for (const s of sections) {
        const after = contributions.current.get(s.key)?.afterSave;
        if (!after) continue;
        try {
          await after({ ...saved });
        } catch (err) {
          // A new channel exists already: saving again would create another, so the dialog closes and says what failed.
          if (!editing) notify.error(errorMessage(err));
          else {
            void qc.invalidateQueries({ queryKey: channelsKey });
            throw new SectionRefusal(s, errorMessage(err));
          }
        }
      }
      return saved;
    },
    onSuccess: (saved) => {
      notify.success(editing ? t('channels.dialog.updated') : t('channels.dialog.created'));
      void qc.invalidateQueries({ queryKey: channelsKey });
      onSaved(saved, !editing);
    },
    onError: (err) => {
      if (err instanceof SectionRefusal) {
        setErrors({});
        setSectionError({ key: err.section.key, at: err.section.at, message: err.message });
        setTab(err.section.at);
        return;
      }
      const code = err instanceof ApiError ? err.code : undefined;
      const msg = errorMessage(err);
      if (code === 'ERR_INVALID_JSON') return show({ transcription: msg });
      if (code === 'ERR_CHANNEL_NAME_LOCKED') return show({ name: msg });
      // A provider refusal names the field and says why ("Dados WABA incorretos" alone said neither):
      // the why goes beside the message and under the field itself.
      const data = err instanceof ApiError && err.data && typeof err.data === 'object' ? (err.data as { field?: unknown; details?: unknown }) : {};
      const details = typeof data.details === 'string' && data.details.trim() ? data.details.trim() : undefined;
      const field = typeof data.field === 'string' ? data.field : undefined;
      setRefusal({ code, ...(field && details ? { fieldErrors: { [field]: details } } : {}) });
      setErrors({ form: details && !msg.includes(details) ? `${msg}: ${details}` : msg });
    },
  });

  const show = (e: Errors) => {
    setErrors(e);
    const first = (Object.keys(e) as (keyof Errors)[]).find((k) => e[k]);
    if (first) setTab(FIELD_TAB[first]);
  };

  const submit = (ev?: React.FormEvent) => {
    ev?.preventDefault();
    const e: Errors = {};
    if (!editing && !type) e.type = t('channels.dialog.typeRequired');
    if (!name.trim()) e.name = t('validation.requiredField', { field: t('channels.fields.name').toLowerCase() });
    else if (!editing && locked && !lockedNameOf(name)) e.name = t('channels.dialog.lockedNameEmpty');
    if (transcription.trim() && !jsonObjectValid(transcription)) e.transcription = t('errors.ERR_INVALID_JSON');
    if (wavoip.trim() && !wavoipTokensValid(wavoip)) e.wavoip = t('channels.dialog.wavoipInvalid');
    if (proxy.use && !validProxyUrl(proxy.url.trim())) e.proxyUrl = t('channels.dialog.proxyUrlInvalid');
    if (Object.values(e).some(Boolean)) return show(e);
    setErrors({});
    setSectionError(null);
    save.mutate();
  };

  // A section renders inside the remote's error boundary: a broken remote shows its error box, the dialog keeps working.
  const renderSection = (s: PluginSection) => {
    const Component = s.component;
    return (
      <>
        {sectionError?.key === s.key && <SectionAlert message={sectionError.message} />}
        <ErrorBoundary fallback={(error, reset) => <ErrorBox compact error={error} message={error instanceof Error ? error.message : undefined} onRetry={reset} />}>
          <Component channel={dialogChannel} channelType={type} register={registerFor(s.key)} disabled={save.isPending} />
        </ErrorBoundary>
      </>
    );
  };
  const sectionsIn = (k: ChannelDialogTab) => {
    const here = sections.filter((s) => s.tab === k);
    if (!here.length) return null;
    return (
      <>
        {here.map((s) => (
          <div key={s.key} data-testid={`channel-section-${s.key}`}>
            <Section title={sectionLabel(s)}>{renderSection(s)}</Section>
          </div>
        ))}
      </>
    );
  };

  const tabError = (k: Tab) => sectionError?.at === k || (Object.keys(errors) as (keyof Errors)[]).some((f) => errors[f] && f !== 'form' && FIELD_TAB[f] === k);
  const sectionLabel = (s: PluginSection) => t(s.label, { ns: [s.pluginId, 'translation'] });
  const tabLabel = (k: Tab) => (
    <Group gap={6} wrap="nowrap">
      {k.startsWith('plugin:') ? sectionLabel(sections.find((s) => s.at === k)!) : t(`channels.tabs.${k}`)}
      {tabError(k) && <IconAlertCircle size={14} color="var(--mantine-color-red-6)" />}
    </Group>
  );

  return (
    <Modal
      opened
      onClose={onClose}
      size={760}
      radius="md"
      title={<Text fw={700} size="lg">{editing ? t('channels.dialog.editTitle') : t('channels.dialog.newTitle')}</Text>}
      scrollAreaComponent={ScrollArea.Autosize}
    >
      <form onSubmit={submit} noValidate aria-label={t('channels.dialog.formLabel')} data-testid="channel-dialog">
        <Stack gap="md">
          {errors.form && <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} data-testid="channel-form-error">{errors.form}</Alert>}

          {!editing && (
            <Stack gap={6}>
              <Text size="sm" fw={500}>{t('channels.fields.type')} <Text span c="red">*</Text></Text>
              {types.length === 0 ? (
                <Alert color="yellow" variant="light">{t('channels.dialog.noTypes')}</Alert>
              ) : (
                <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" role="radiogroup" aria-label={t('channels.fields.type')}>
                  {types.map((x) => {
                    const active = x.type === type;
                    return (
                      <UnstyledButton
                        key={x.type}
                        role="radio"
                        aria-checked={active}
                        onClick={() => setType(x.type)}
                        data-testid={`channel-type-${x.type}`}
                      >
                        <Paper withBorder radius="md" p="sm" style={{ borderColor: active ? 'var(--mantine-primary-color-filled)' : undefined, background: active ? 'var(--mantine-primary-color-light)' : undefined }}>
                          <Group gap="xs" wrap="nowrap">
                            <ChannelTypeIcon type={x.type} size={30} />
                            <Text size="sm" fw={600} lh={1.25} lineClamp={2} style={{ flex: 1 }} title={x.label}>{x.label}</Text>
                            {active && <IconCheck size={16} color="var(--mantine-primary-color-filled)" />}
                          </Group>
                        </Paper>
                      </UnstyledButton>
                    );
                  })}
                </SimpleGrid>
              )}
              {errors.type && <Text size="xs" c="red">{errors.type}</Text>}
            </Stack>
          )}

          <Tabs value={tab} onChange={(v) => setTab((v as Tab) ?? 'general')} keepMounted>
            <Tabs.List mb="md">
              <Tabs.Tab value="general" data-testid="channel-tab-general">{tabLabel('general')}</Tabs.Tab>
              <Tabs.Tab value="connection" data-testid="channel-tab-connection">{tabLabel('connection')}</Tabs.Tab>
              <Tabs.Tab value="automation" data-testid="channel-tab-automation">{tabLabel('automation')}</Tabs.Tab>
              <Tabs.Tab value="messages" data-testid="channel-tab-messages">{tabLabel('messages')}</Tabs.Tab>
              {sections.filter((s) => !s.tab).map((s) => (
                <Tabs.Tab key={s.key} value={s.at} data-testid={`channel-tab-${s.key}`}>{tabLabel(s.at)}</Tabs.Tab>
              ))}
            </Tabs.List>

            <Tabs.Panel value="general">
              <Stack gap="sm">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TextInput
                    label={t('channels.fields.name')}
                    withAsterisk
                    value={name}
                    onChange={(e) => setName(e.currentTarget.value)}
                    error={errors.name}
                    disabled={editing && locked}
                    description={locked ? (editing ? t('channels.dialog.lockedName') : t('channels.dialog.lockedNameHint', { name: lockedNameOf(name) || '…' })) : undefined}
                    data-autofocus
                    data-testid="channel-name"
                  />
                  <TextInput
                    label={t('channels.fields.number')}
                    value={provider.number ?? ''}
                    onChange={(e) => setProvider({ ...provider, number: e.currentTarget.value })}
                    description={t('channels.dialog.numberHint')}
                    data-testid="channel-number"
                  />
                </SimpleGrid>
                <Checkbox label={t('channels.fields.isDefault')} description={t('channels.dialog.isDefaultHint')} checked={isDefault} onChange={(e) => setIsDefault(e.currentTarget.checked)} data-testid="channel-default" />
                <Section title={t('channels.dialog.routingTitle')} hint={t('channels.dialog.routingHint')}>
                  <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                    <Select
                      label={t('channels.fields.chatFlow')}
                      placeholder={t('channels.dialog.none')}
                      data={(flows.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
                      value={chatFlowId}
                      onChange={setChatFlowId}
                      clearable
                      searchable
                      nothingFoundMessage={t('channels.dialog.noFlows')}
                    />
                    <Select
                      label={t('channels.fields.queue')}
                      placeholder={t('channels.dialog.none')}
                      data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
                      value={queueId}
                      onChange={setQueueId}
                      clearable
                      searchable
                      data-testid="channel-queue"
                    />
                    <Select
                      label={t('channels.fields.user')}
                      placeholder={t('channels.dialog.none')}
                      data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
                      value={userId}
                      onChange={setUserId}
                      clearable
                      searchable
                    />
                  </SimpleGrid>
                </Section>
                {sectionsIn('general')}
              </Stack>
            </Tabs.Panel>

            <Tabs.Panel value="connection">
              <Stack gap="md">
                {!type ? (
                  <Text size="sm" c="dimmed">{t('channels.dialog.pickTypeFirst')}</Text>
                ) : ProviderForm ? (
                  <ErrorBoundary fallback={(error, reset) => <ErrorBox compact error={error} message={error instanceof Error ? error.message : undefined} onRetry={reset} />}>
                    <ProviderForm
                      channel={channel ? { id: channel.id, type: channel.type, name: channel.name, number: channel.number, status: channel.status, config: channel.config, secretsSet: channel.secretsSet } : undefined}
                      value={provider}
                      onChange={(next) => { setProvider(next); if (refusal.fieldErrors) setRefusal((r) => ({ code: r.code })); }}
                      disabled={save.isPending}
                      fieldErrors={refusal.fieldErrors}
                    />
                  </ErrorBoundary>
                ) : (
                  <Text size="sm" c="dimmed" data-testid="channel-no-provider-form">{t('channels.dialog.noProviderForm', { type: typeDef?.label ?? type })}</Text>
                )}
                {(typeDef?.capabilities.proxy || proxy.use) && (
                  <Section title={t('channels.dialog.proxyTitle')}>
                    <Stack gap="sm">
                      <Switch label={t('channels.fields.proxyUse')} checked={proxy.use} onChange={(e) => setProxy({ ...proxy, use: e.currentTarget.checked })} />
                      {proxy.use && (
                        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                          <TextInput label={t('channels.fields.proxyUrl')} placeholder="http://proxy:3128" value={proxy.url} onChange={(e) => setProxy({ ...proxy, url: e.currentTarget.value })} error={errors.proxyUrl} withAsterisk />
                          <TextInput label={t('channels.fields.proxyUser')} value={proxy.user} onChange={(e) => setProxy({ ...proxy, user: e.currentTarget.value })} autoComplete="off" />
                          <PasswordInput
                            label={t('channels.fields.proxyPassword')}
                            value={proxy.password}
                            onChange={(e) => setProxy({ ...proxy, password: e.currentTarget.value })}
                            placeholder={channel?.proxy.passwordSet ? t('channels.dialog.secretKept') : undefined}
                            autoComplete="new-password"
                          />
                        </SimpleGrid>
                      )}
                    </Stack>
                  </Section>
                )}
                {sectionsIn('connection')}
              </Stack>
            </Tabs.Panel>

            <Tabs.Panel value="automation">
              <Stack gap="md">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
                  {SWITCHES.map((k) => (
                    <Paper key={k} withBorder radius="md" p="sm">
                      <Switch
                        label={<Group gap={6}>{t(`channels.switches.${k}`)}{k === 'webPush' && <Badge size="xs" variant="light">beta</Badge>}</Group>}
                        description={t(`channels.switchHints.${k}`)}
                        checked={switches[k]}
                        onChange={(e) => setSwitches({ ...switches, [k]: e.currentTarget.checked })}
                        data-testid={`channel-switch-${k}`}
                      />
                    </Paper>
                  ))}
                </SimpleGrid>
                {(switches.audioTranscription || channel?.transcriptionConfigSet) && (
                  <WriteOnly
                    set={!!channel?.transcriptionConfigSet && !dropTranscription}
                    onRemove={() => setDropTranscription(true)}
                    setLabel={t('channels.dialog.transcriptionSet')}
                    removeLabel={t('channels.dialog.remove')}
                  >
                    <Textarea
                      label={t('channels.fields.transcriptionConfig')}
                      description={t('channels.dialog.transcriptionHint')}
                      placeholder={'{"provider": "openai", "apiKey": "…", "model": "whisper-1"}'}
                      autosize
                      minRows={3}
                      maxRows={10}
                      value={transcription}
                      onChange={(e) => setTranscription(e.currentTarget.value)}
                      error={errors.transcription}
                      styles={{ input: { fontFamily: 'ui-monospace, monospace', fontSize: 12 } }}
                      data-testid="channel-transcription"
                    />
                  </WriteOnly>
                )}
                <WriteOnly
                  set={(channel?.wavoipTokenCount ?? 0) > 0 && !dropWavoip}
                  onRemove={() => setDropWavoip(true)}
                  setLabel={t('channels.dialog.wavoipSet', { count: channel?.wavoipTokenCount ?? 0 })}
                  removeLabel={t('channels.dialog.remove')}
                >
                  <TextInput
                    label={t('channels.fields.wavoipTokens')}
                    description={t('channels.dialog.wavoipHint')}
                    value={wavoip}
                    onChange={(e) => setWavoip(e.currentTarget.value)}
                    error={errors.wavoip}
                    autoComplete="off"
                    data-testid="channel-wavoip"
                  />
                </WriteOnly>
                {sectionsIn('automation')}
              </Stack>
            </Tabs.Panel>

            <Tabs.Panel value="messages">
              <Stack gap="sm">
                <TextInput label={t('channels.fields.closingKeyword')} description={t('channels.dialog.closingKeywordHint')} value={closingKeyword} onChange={(e) => setClosingKeyword(e.currentTarget.value)} maxLength={100} data-testid="channel-closing-keyword" />
                {sectionsIn('messages')}
              </Stack>
            </Tabs.Panel>
            {sections.filter((s) => !s.tab).map((s) => (
              <Tabs.Panel key={s.key} value={s.at}>
                <Stack gap="md">
                  {renderSection(s)}
                </Stack>
              </Tabs.Panel>
            ))}
          </Tabs>

          <Group justify="flex-end" gap="xs" mt="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>{t('common.cancel')}</Button>
            <Button type="submit" loading={save.isPending} data-testid="channel-save">{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SectionAlert({ message }: { message: string }) {
  return <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} mb="sm" data-testid="channel-section-error">{message}</Alert>;
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text fw={600} size="sm">{title}</Text>
      {hint && <Text size="xs" c="dimmed" mb="sm">{hint}</Text>}
      {!hint && <div style={{ height: 8 }} />}
      {children}
    </Paper>
  );
}

/** A write-only secret: once saved only "configured" shows, with a way to replace or remove it. */
function WriteOnly({ set, onRemove, setLabel, removeLabel, children }: { set: boolean; onRemove: () => void; setLabel: string; removeLabel: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      {children}
      {set && (
        <Group gap="xs">
          <Badge variant="light" color="teal" size="sm" leftSection={<IconCheck size={12} />} styles={{ root: { textTransform: 'none' } }}>{setLabel}</Badge>
          <Button variant="subtle" color="red" size="compact-xs" onClick={onRemove}>{removeLabel}</Button>
        </Group>
      )}
    </Stack>
  );
}
