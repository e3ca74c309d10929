/**
 * Data of the channel screens (`/sessoes`, `/sessoestenants`): the kernel's
 * channel routes (core/src/modules/conversations/channel-routes.ts), the
 * list kept live from `channel.*` events, and the channel plugins' UI parts
 * (`defineUiPlugin({channels})`) from the loaded remotes.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { api, uiPluginsAtom, useRealtime, type UiChannelType } from '@atende/ui-shell/sdk';

export const CHANNEL_STATUSES = ['connected', 'qrcode', 'opening', 'pairingTimeout', 'disconnected'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

export const SWITCHES = ['webPush', 'autoEvaluation', 'audioTranscription', 'autoDistribution', 'messageDestruction', 'disableIntegrationsOnOpen', 'waitIntegrationProcessing'] as const;
export type SwitchKey = (typeof SWITCHES)[number];

/**
 * A channel as `GET /api/channels/:id` answers it to those who manage
 * channels: the fields the shell edits (plugins' fields, e.g. the birthday
 * message, are in the answer too and read by their sections).
 */
export interface Channel {
  id: number;
  tenantId: number;
  type: string;
  name: string;
  number: string | null;
  status: ChannelStatus | string;
  statusAt: string;
  qrcode: string | null;
  pairingCode: string | null;
  retries: number;
  lastError: string | null;
  isDefault: boolean;
  queueId: number | null;
  userId: number | null;
  chatFlowId: number | null;
  closingKeyword: string | null;
  switches: Record<SwitchKey, boolean>;
  proxy: { use: boolean; url: string | null; user: string | null; passwordSet: boolean };
  wavoipTokenCount: number;
  transcriptionConfigSet: boolean;
  config: Record<string, unknown>;
  secretsSet: string[];
  createdAt: string;
  updatedAt: string;
}

export interface ChannelType {
  type: string;
  label: string;
  identityKind: string;
  capabilities: {
    media: string[];
    buttons: boolean;
    qr: boolean;
    pairingCode: boolean;
    historyImport: boolean;
    proxy?: boolean;
    [k: string]: unknown;
  };
  longLived: boolean;
  lockedName: boolean;
}

/** A row of `GET /api/channels/all` (superadmin, every tenant). */
export interface TenantChannel {
  id: number;
  tenantId: number;
  tenantName: string;
  type: string;
  name: string;
  number: string | null;
  status: string;
  statusAt: string;
  isDefault: boolean;
  retries: number;
  lastError: string | null;
  createdAt: string;
}

export interface HistoryImport {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  imported: number;
  total: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** Live import progress (`channel.history_progress`, sent to the user who started it). */
export interface HistoryProgress {
  importId: string;
  channelId: number;
  status: 'running' | 'done' | 'failed';
  imported?: number;
  total?: number | null;
  tickets?: number;
  error?: string;
}

export const channelsKey = ['channels', 'list'] as const;
export const channelTypesKey = ['channels', 'types'] as const;

export const listChannels = (signal?: AbortSignal) => api.get<Channel[]>('/channels', { signal, background: true });
export const listChannelTypes = (signal?: AbortSignal) => api.get<ChannelType[]>('/channels/types', { signal, background: true });
export const getChannel = (id: number) => api.get<Channel>(`/channels/${id}`, { silent: true });
export const createChannel = (body: Record<string, unknown>) => api.post<Channel>('/channels', body, { silent: true });
export const updateChannel = (id: number, body: Record<string, unknown>) => api.put<Channel>(`/channels/${id}`, body, { silent: true });
export const deleteChannel = (id: number) => api.delete<void>(`/channels/${id}`);
export const connectChannel = (id: number) => api.post<unknown>(`/channels/${id}/connect`);
export const disconnectChannel = (id: number) => api.post<unknown>(`/channels/${id}/disconnect`);
export const requestPairingCode = (id: number, number: string) => api.post<{ pairingCode: string | null }>(`/channels/${id}/pairing-code`, { number }, { silent: true });
export const closeChannelTickets = (id: number, status: 'open' | 'pending') => api.post<{ closed: number }>(`/channels/${id}/close-tickets`, { status });
export const moveChannelTickets = (fromChannelId: number, toChannelId: number) =>
  api.put<{ moved: number; skipped: { ticketId: number; existingTicketId: number | null }[] }>('/ticketsChannel', { fromChannelId, toChannelId }, { silent: true });
export const startImport = (body: Record<string, unknown>) => api.post<{ importId: string; status: string }>('/messages/syncOld', body, { silent: true });
export const listImports = (id: number, signal?: AbortSignal) => api.get<HistoryImport[]>(`/channels/${id}/imports`, { signal, background: true });


/**
 * The tenant's channels, kept live: a status change (`channel.updated`)
 * patches the row in place, a new or deleted channel refetches the list,
 * so the screen never needs F5.
 */
export function useChannels() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: channelsKey, queryFn: ({ signal }) => listChannels(signal) });
  useRealtime<{ channel?: Partial<Channel> & { id: number } }>('channel.updated', (data) => {
    const patch = data?.channel;
    if (!patch) return;
    let known = false;
    qc.setQueryData<Channel[]>(channelsKey, (rows) =>
      rows?.map((c) => {
        if (c.id !== patch.id) return c;
        known = true;
        return { ...c, ...patch };
      }),
    );
    if (!known) void qc.invalidateQueries({ queryKey: channelsKey });
  });
  useRealtime('channel.created', () => void qc.invalidateQueries({ queryKey: channelsKey }));
  useRealtime<{ id?: number }>('channel.deleted', (data) => {
    qc.setQueryData<Channel[]>(channelsKey, (rows) => rows?.filter((c) => c.id !== data?.id));
  });
  return query;
}

export function useChannelTypes() {
  return useQuery({ queryKey: channelTypesKey, queryFn: ({ signal }) => listChannelTypes(signal), staleTime: 60_000 });
}

/** The UI parts channel plugins' remotes declare, by adapter type. */
export function useChannelUis(): Map<string, UiChannelType> {
  const { plugins } = useAtomValue(uiPluginsAtom);
  return useMemo(() => {
    const out = new Map<string, UiChannelType>();
    for (const p of plugins) for (const c of p.channels ?? []) if (!out.has(c.type)) out.set(c.type, c);
    return out;
  }, [plugins]);
}

/**
 * Error codes the channel type's own plugin declares in its contract
 * (`ERR_TELEGRAM_TOKEN`, `ERR_WABA_INVALID`…): refusals of the provider's
 * fields, which the dialog shows on its connection tab. Empty until that
 * plugin's remote has loaded.
 */
export function useChannelErrorCodes(type: string | null): Set<string> {
  const { plugins } = useAtomValue(uiPluginsAtom);
  return useMemo(() => {
    const owner = type ? plugins.find((p) => p.channels?.some((c) => c.type === type)) : undefined;
    return new Set(Object.keys(owner?.contract?.errors ?? {}));
  }, [plugins, type]);
}

/** Chat flows for the routing default, when the chatbot plugin serves them (an empty list otherwise). */
export function useChatFlows() {
  return useQuery({
    queryKey: ['channels', 'chat-flows'],
    staleTime: 60_000,
    retry: false,
    queryFn: async ({ signal }) => {
      try {
        const r = await api.get<unknown>('/chat-flow', { signal, background: true });
        const list = Array.isArray(r) ? r : r && typeof r === 'object' && Array.isArray((r as { chatFlows?: unknown }).chatFlows) ? (r as { chatFlows: unknown[] }).chatFlows : [];
        return (list as { id: number; name?: string; description?: string }[]).map((f) => ({ id: f.id, name: f.name ?? f.description ?? `#${f.id}` }));
      } catch {
        return [];
      }
    },
  });
}
