import { api } from '@atende/ui-shell/sdk';

/** What to paste in Meta's app dashboard for one channel. */
export interface WebhookInfo {
  /** Path of the channel's webhook on this install (`/api/plugins/channel-waba/webhook/<id>`). */
  path: string;
  /** Full callback URL when the install knows its public address; otherwise the page's origin is used. */
  callbackUrl: string | null;
  verifyToken: string | null;
}

/** A component of a template as Meta lists it (`HEADER`, `BODY`, `FOOTER`, `BUTTONS`). */
export interface TemplateComponent {
  type: string;
  format?: string;
  text?: string;
  buttons?: { type: string; text?: string; url?: string }[];
  example?: { header_text?: string[]; body_text?: string[][] };
}

/** The values a template needs, as the server works them out (the same rules it checks a send with). */
export interface TemplateVariables {
  header: string[];
  body: string[];
  buttons: { index: number; subType: 'url' | 'copy_code'; text: string; variables: string[] }[];
  mediaHeader: string | null;
}

export interface Template {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string | null;
  components: TemplateComponent[];
  variables: TemplateVariables;
}

export interface TemplateList {
  templates: Template[];
  syncedAt: string | null;
}

const BASE = '/plugins/channel-waba/channels';

export const webhookKey = (id: number) => ['plugins', 'channel-waba', 'webhook', id] as const;
export const templatesKey = (id: number) => ['plugins', 'channel-waba', 'templates', id] as const;

export const getWebhookInfo = (id: number, signal?: AbortSignal) => api.get<WebhookInfo>(`${BASE}/${id}/webhook`, { signal, silent: true });
export const listTemplates = (id: number, signal?: AbortSignal) => api.get<TemplateList>(`${BASE}/${id}/templates`, { query: { status: 'all' }, signal, silent: true });
/** The approved templates an agent can send on a ticket of this channel. */
export const approvedTemplatesKey = (id: number) => ['plugins', 'channel-waba', 'templates', id, 'approved'] as const;
export const listApprovedTemplates = (id: number, signal?: AbortSignal) => api.get<TemplateList>(`${BASE}/${id}/templates`, { signal, silent: true });
export const syncTemplates = (id: number) => api.post<{ count: number; syncedAt: string }>(`${BASE}/${id}/templates/sync`);

/** The callback URL to show: the server's public address when configured, else this page's origin (same origin as the API). */
export const callbackUrlOf = (info: WebhookInfo) => info.callbackUrl ?? `${window.location.origin}${info.path}`;
