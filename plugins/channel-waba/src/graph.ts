import fs from 'node:fs';
import { ChannelError, providerReason, type ChannelErrorCode, type OutboundOptions } from '@atende/core/sdk';

/**
 * A small client for the parts of Meta's Graph API the WhatsApp Cloud API
 * uses: phone number and account lookups, `/messages`, media upload and
 * download, and message templates. It speaks through the kernel's guarded
 * client (`ctx.outbound`) against a base URL: Meta's, or an on-premise one the
 * superadmin allowed; tests point it at the local fake (`fake-graph-api.ts`).
 */

export const DEFAULT_GRAPH_URL = 'https://graph.facebook.com';
/** The hosts Meta serves Cloud API media from: a media URL Graph hands out is followed only to these. */
export const META_MEDIA_HOSTS = ['graph.facebook.com', 'lookaside.fbsbx.com', '*.fbsbx.com', '*.fbcdn.net', '*.whatsapp.net'] as const;
export const DEFAULT_API_VERSION = 'v21.0';
const TIMEOUT_MS = 20_000;

/** Graph's error body: `{error: {message, type, code, error_subcode, error_data, fbtrace_id}}`. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  error_data?: { details?: string };
  fbtrace_id?: string;
}

/** A Graph answer that was not 2xx, or a Graph that could not be reached (`status` 0). */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly body: GraphErrorBody,
  ) {
    super(body.error_data?.details ? `${body.message ?? 'Graph API'}: ${body.error_data.details}` : (body.message ?? `Graph API HTTP ${status}`));
    this.name = 'GraphError';
  }
  get code(): number | undefined {
    return this.body.code;
  }
}

export interface GraphTarget {
  baseUrl: string;
  version: string;
  token: string;
  /** The guarded fetch (`ctx.outbound.fetch`). */
  http: (url: string, init: RequestInit, opts?: OutboundOptions) => Promise<Response>;
  /** Hosts media downloads may be fetched from: Meta's, plus the base URL's host when the superadmin set one. */
  mediaHosts: readonly string[];
}

/** Codes Meta documents as "the recipient cannot receive this": retrying never helps. */
const INVALID_RECIPIENT = new Set([131026, 131030, 131021, 131045, 131031]);
/** Throttling and "try again later" codes: worth retrying with backoff. */
const TEMPORARY = new Set([1, 2, 4, 17, 341, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);
/** Token, permission and "this object does not exist for your token" codes. */
const AUTH = new Set([0, 3, 10, 102, 190, 200, 294, 299]);

/** Whether the failure says the token, ids or app permissions are wrong (spec §5: "Dados WABA incorretos"). */
export function isCredentialError(err: unknown): boolean {
  if (!(err instanceof GraphError)) return false;
  if (err.status === 401) return true;
  const code = err.body.code;
  if (code !== undefined && (AUTH.has(code) || (code >= 200 && code <= 299))) return true;
  // Code 100 subcode 33: "Object with ID ... does not exist, cannot be loaded due to missing permissions".
  if (code === 100 && err.body.error_subcode === 33) return true;
  return err.status === 403 || err.status === 404;
}

/**
 * Maps a Graph failure to the catalogue. Invalid recipients are permanent
 * ERR_WAPP_INVALID_CONTACT; credentials are permanent ERR_WABA_INVALID;
 * throttling, 5xx and network errors are retried; any other 4xx (bad
 * parameter, outside the 24-hour window, rejected media) is permanent.
 */
export function toChannelError(err: unknown, fallback: ChannelErrorCode = 'ERR_SENDING_WAPP_MSG'): ChannelError {
  if (err instanceof ChannelError) return err;
  if (!(err instanceof GraphError)) return new ChannelError(fallback, `WhatsApp Cloud API inacessível: ${(err as Error).message}`, false);
  const code = err.body.code;
  const hint = code === 131047 ? ' — passaram 24 horas desde a última mensagem do cliente: só um modelo (template) pode reabrir a conversa' : '';
  const text = `WhatsApp Cloud API${code !== undefined ? ` (${code})` : ''}: ${err.message}${hint}`;
  if (code !== undefined && INVALID_RECIPIENT.has(code)) return new ChannelError('ERR_WAPP_INVALID_CONTACT', text, true);
  if (code !== undefined && TEMPORARY.has(code)) return new ChannelError(fallback, text, false);
  if (isCredentialError(err)) return new ChannelError('ERR_WABA_INVALID', `Dados WABA incorretos: ${err.message}`, true);
  if (code === 131052 || code === 131053) return new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', text, true);
  if (err.status === 0 || err.status >= 500 || err.status === 429) return new ChannelError(fallback, text, false);
  return new ChannelError(fallback, text, true);
}

/** Why Graph could not be reached, in words fit for the admin (a refused destination says so; network errors by their code). */
function unreachable(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  if (e.code === 'ERR_OUTBOUND_BLOCKED') return 'endereço de destino não permitido';
  return e.cause?.code ?? e.code ?? providerReason(e.message, 80);
}

function urlOf(t: GraphTarget, path: string, query?: Record<string, string | undefined>): string {
  const u = new URL(`${t.baseUrl.replace(/\/+$/, '')}/${t.version}/${path.replace(/^\/+/, '')}`);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

async function parse<T>(res: Response): Promise<T> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    // Only Graph's structured error reaches the admin, shortened and stripped; any other body stays out (it is the remote's text).
    const err = (json as { error?: GraphErrorBody } | undefined)?.error;
    const body: GraphErrorBody = err && typeof err === 'object'
      ? { ...err, message: providerReason(err.message) || `HTTP ${res.status}`, error_data: err.error_data?.details ? { details: providerReason(err.error_data.details, 80) } : undefined, error_user_msg: undefined }
      : { message: `HTTP ${res.status}` };
    throw new GraphError(res.status, body);
  }
  if (json === undefined) throw new GraphError(502, { message: 'resposta da Graph API não é JSON' });
  return json as T;
}

async function call<T>(t: GraphTarget, method: string, path: string, opts: { query?: Record<string, string | undefined>; json?: unknown; form?: FormData } = {}): Promise<T> {
  let res: Response;
  try {
    res = await t.http(urlOf(t, path, opts.query), {
      method,
      headers: { authorization: `Bearer ${t.token}`, ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new GraphError(0, { message: unreachable(err) });
  }
  return parse<T>(res);
}

export interface PhoneNumberInfo {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
}

export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  components?: unknown[];
}

export interface MediaInfo {
  id: string;
  url: string;
  mime_type?: string;
  file_size?: number;
}

export const graph = {
  phoneNumber: (t: GraphTarget, phoneNumberId: string) => call<PhoneNumberInfo>(t, 'GET', encodeURIComponent(phoneNumberId), { query: { fields: 'display_phone_number,verified_name,quality_rating' } }),
  account: (t: GraphTarget, wabaId: string) => call<{ id: string; name?: string }>(t, 'GET', encodeURIComponent(wabaId), { query: { fields: 'id,name' } }),
  send: (t: GraphTarget, phoneNumberId: string, payload: Record<string, unknown>) =>
    call<{ messages?: { id: string }[] }>(t, 'POST', `${encodeURIComponent(phoneNumberId)}/messages`, { json: { messaging_product: 'whatsapp', ...payload } }),
  markRead: (t: GraphTarget, phoneNumberId: string, messageId: string) =>
    call<{ success?: boolean }>(t, 'POST', `${encodeURIComponent(phoneNumberId)}/messages`, { json: { messaging_product: 'whatsapp', status: 'read', message_id: messageId } }),
  /** Uploads a local file; Meta keeps it 30 days and answers its media id. */
  async upload(t: GraphTarget, phoneNumberId: string, file: { path: string; mimetype: string; name: string }) {
    let blob: Blob;
    try {
      blob = await fs.openAsBlob(file.path, { type: file.mimetype });
    } catch (err) {
      throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', `arquivo da mensagem não encontrado no armazenamento (${(err as Error).message})`, true);
    }
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', file.mimetype);
    form.set('file', blob, file.name);
    return call<{ id: string }>(t, 'POST', `${encodeURIComponent(phoneNumberId)}/media`, { form });
  },
  media: (t: GraphTarget, mediaId: string) => call<MediaInfo>(t, 'GET', encodeURIComponent(mediaId)),
  /**
   * Downloads a media URL Graph handed out; it needs the same bearer token.
   * The URL comes from the remote, so it is followed only to Meta's media hosts
   * (`t.mediaHosts`), and never to an internal address.
   */
  async download(t: GraphTarget, url: string): Promise<Response> {
    let res: Response;
    try {
      res = await t.http(url, { headers: { authorization: `Bearer ${t.token}` }, signal: AbortSignal.timeout(60_000) }, { allowHosts: t.mediaHosts });
    } catch (err) {
      throw new GraphError(0, { message: unreachable(err) });
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new GraphError(res.status, { message: `download da mídia falhou (HTTP ${res.status})` });
    }
    return res;
  },
  /** Every template of the account, following `paging.cursors.after` until there is no next page. */
  async templates(t: GraphTarget, wabaId: string): Promise<GraphTemplate[]> {
    const out: GraphTemplate[] = [];
    let after: string | undefined;
    // A hard page cap: a misbehaving endpoint that always answers `next` must not loop forever.
    for (let page = 0; page < 200; page++) {
      const r = await call<{ data?: GraphTemplate[]; paging?: { cursors?: { after?: string }; next?: string } }>(t, 'GET', `${encodeURIComponent(wabaId)}/message_templates`, {
        query: { limit: '100', fields: 'id,name,language,status,category,components', after },
      });
      out.push(...(r.data ?? []));
      after = r.paging?.cursors?.after;
      if (!r.paging?.next || !after) break;
    }
    return out;
  },
};
