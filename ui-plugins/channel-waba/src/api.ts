import { api } from '@atende/ui-shell/sdk';
import type { WabaTemplateList, WabaTemplatesSynced, WabaWebhookInfo } from '@atende/plugin-channel-waba/contract';

export type { WabaWebhookInfo as WebhookInfo, WabaTemplate as Template, WabaTemplateList as TemplateList, WabaTemplateComponent as TemplateComponent } from '@atende/plugin-channel-waba/contract';

const BASE = '/plugins/channel-waba/channels';

export const webhookKey = (id: number) => ['plugins', 'channel-waba', 'webhook', id] as const;
export const templatesKey = (id: number) => ['plugins', 'channel-waba', 'templates', id] as const;

export const getWebhookInfo = (id: number, signal?: AbortSignal) => api.get<WabaWebhookInfo>(`${BASE}/${id}/webhook`, { signal, silent: true });
export const listTemplates = (id: number, signal?: AbortSignal) => api.get<WabaTemplateList>(`${BASE}/${id}/templates`, { query: { status: 'all' }, signal, silent: true });
/** The approved templates an agent can send on a ticket of this channel. */
export const approvedTemplatesKey = (id: number) => ['plugins', 'channel-waba', 'templates', id, 'approved'] as const;
export const listApprovedTemplates = (id: number, signal?: AbortSignal) => api.get<WabaTemplateList>(`${BASE}/${id}/templates`, { signal, silent: true });
export const syncTemplates = (id: number) => api.post<WabaTemplatesSynced>(`${BASE}/${id}/templates/sync`);

/** The callback URL to show: the server's public address when configured, else this page's origin (same origin as the API). */
export const callbackUrlOf = (info: WabaWebhookInfo) => info.callbackUrl ?? `${window.location.origin}${info.path}`;
