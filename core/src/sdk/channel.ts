/**
 * The channel adapter contract. A channel plugin registers one adapter per
 * channel type with `ctx.channels.register(adapter)`; provider variants are
 * strategies inside the plugin. The kernel owns tickets, contacts and the
 * message pipeline; the adapter only moves messages to and from the provider.
 */

import type { AtendeErrorCodes } from './contract.ts';

export type MediaKind = 'image' | 'audio' | 'video' | 'document' | 'sticker';

/** What the channel can do; the kernel refuses (with a catalogue error) what is not declared. */
export interface ChannelCapabilities {
  media: MediaKind[];
  buttons: boolean;
  lists: boolean;
  templates: boolean;
  reactions: boolean;
  edit: boolean;
  delete: boolean;
  groups: boolean;
  qr: boolean;
  pairingCode: boolean;
  historyImport: boolean;
  readReceipts: boolean;
  /**
   * The adapter routes its provider traffic through the channel's proxy
   * (`ChannelRecord.proxy`). The kernel refuses to save `proxy.use = true`
   * for a channel whose adapter does not, rather than silently ignore it.
   */
  proxy?: boolean;
}

export type ChannelStatus = 'qrcode' | 'opening' | 'connected' | 'disconnected' | 'pairingTimeout';

/** The channel row as the adapter sees it. `secrets` never leaves the server. */
export interface ChannelRecord {
  id: number;
  tenantId: number;
  type: string;
  name: string;
  number: string | null;
  status: ChannelStatus | string;
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
  /** The channel's proxy, when the admin turned it on (`secrets.proxyPassword` holds the password). */
  proxy?: { url: string; user?: string | null; password?: string | null } | null;
}

export interface OutboundMedia {
  kind: MediaKind;
  /** Absolute path on the media store, when stored locally. */
  path?: string;
  url?: string;
  mimetype: string;
  name: string;
}

export interface OutboundMessage {
  /** Kernel message id: the idempotency key the adapter passes to the provider where it can. */
  messageId: string;
  to: { kind: string; externalId: string; number?: string | null; isGroup: boolean };
  type: 'chat' | 'image' | 'audio' | 'video' | 'document' | 'sticker' | 'buttons' | 'list' | 'template' | 'contact' | 'location';
  body: string;
  media?: OutboundMedia;
  buttons?: { label: string; value: string }[];
  template?: { name: string; language: string; components?: unknown[] };
  quotedProviderId?: string;
}

/**
 * A message template as an API caller asks for it (`POST /api/messages/:ticketId`
 * with `template`): the template's name and language, and the values of its
 * placeholders per component in the provider's order.
 */
export interface TemplateSendRequest {
  name: string;
  language: string;
  components?: {
    type: 'header' | 'body' | 'button';
    /** Buttons only: which button (0-based) and its kind (`url` buttons carry a variable suffix). */
    index?: number;
    subType?: 'url' | 'quick_reply' | 'copy_code';
    /** One value per placeholder, in order (`{{1}}`, `{{2}}`… or the named ones as they appear). */
    parameters: string[];
  }[];
}

/** A template the adapter checked against what it knows of the account's templates. */
export interface PreparedTemplate {
  /** The text the customer receives (placeholders filled), stored as the message body. */
  body: string;
  /** What `send` receives as `OutboundMessage.template` when the job runs. */
  template: NonNullable<OutboundMessage['template']>;
}

export interface SendResult {
  providerId: string;
}

/** Inbound event handed to `ctx.messages.ingest`. */
export interface InboundMessage {
  tenantId: number;
  channelId: number;
  /** Provider's message id: (tenant, channel, providerMessageId) is stored once. */
  providerMessageId: string;
  /** The person who wrote (for groups, the participant). */
  from: {
    kind: string;
    externalId: string;
    number?: string | null;
    name?: string;
    profilePicUrl?: string;
    /** Other identities of the same person (e.g. a WhatsApp LID and its phone number). */
    aliases?: { kind: string; externalId: string }[];
  };
  /** Set for group conversations: the group becomes the ticket's contact. */
  group?: { kind: string; externalId: string; name?: string };
  /** A message the account itself sent from another device. */
  fromMe?: boolean;
  type?: string;
  body: string;
  media?: { url?: string; path?: string; mimetype: string; name: string };
  timestamp?: Date;
  quotedProviderId?: string;
  data?: Record<string, unknown>;
  /**
   * Imported history (`syncHistory`): stored as `synced`, without unread
   * counts, real-time events or after-inbound hooks, so an import never
   * triggers bots, absence messages or closing keywords for old messages.
   */
  history?: boolean;
}

export interface IngestResult {
  duplicate: boolean;
  messageId?: string;
  ticketId?: number;
  contactId?: number;
  ticketCreated?: boolean;
}

export type AckStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** What the kernel gives an adapter while a channel runs. */
export interface ChannelRuntime {
  ingest(msg: InboundMessage): Promise<IngestResult>;
  ack(tenantId: number, channelId: number, providerId: string, status: AckStatus, reason?: string): Promise<boolean>;
  setStatus(tenantId: number, channelId: number, status: ChannelStatus, extra?: ChannelStatusExtra): Promise<void>;
}

/** What may accompany a status change; every field is kept on the channel row and pushed live. */
export interface ChannelStatusExtra {
  /** The QR code to scan (status `qrcode`); `null` clears it. */
  qrcode?: string | null;
  /** The account's own number or handle, once known. */
  number?: string | null;
  /** Consecutive reconnection attempts; `0` once connected again. */
  retries?: number;
  /** Why the channel is not connected, shown to the admin; cleared automatically on `connected`. */
  error?: string | null;
}

/** What `POST /messages/syncOld` asks an adapter to import. */
export interface HistorySyncRequest {
  /** Only messages at or after / before these instants. */
  from?: Date;
  to?: Date;
  /** At most this many messages per conversation (the user's choice; always positive). */
  limitPerChat?: number;
  /** Include group conversations. */
  groups: boolean;
  /** Include messages the account itself sent from its devices (`fromMe`). */
  deviceMessages: boolean;
  /** Only this person's conversation (`/messages/syncOldByUser`). */
  contact?: { kind: string; externalId: string };
}

/** Where an adapter hands imported messages; the kernel stores each like `ingest` with `history: true`. */
export interface HistorySink {
  ingest(msg: Omit<InboundMessage, 'history' | 'tenantId' | 'channelId'>): Promise<IngestResult>;
  /** Reports progress to the user who started the import (done of total, when known). */
  progress(done: number, total?: number): Promise<void>;
  /** Aborted when the channel is deleted or the node shuts down: stop early. */
  signal: AbortSignal;
}

/** The adapter's part of a channel form: non-secret `config` and write-only `secrets`. */
export interface ChannelSettingsDraft {
  name: string;
  number: string | null;
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
}

export interface ChannelAdapter {
  type: string;
  label: string;
  /** The contact identity kind this channel addresses (`whatsapp` for every WhatsApp variant, `telegram`, …). */
  identityKind: string;
  capabilities: ChannelCapabilities;
  /**
   * The channel keeps a session open (a socket, a polling loop, a browser).
   * The kernel then runs it on exactly one worker node under a lease in
   * PostgreSQL, calls `connect` there, and moves it to another worker when
   * that node stops renewing (it died). Webhook-only channels leave it unset
   * and `connect` is called where the admin's request lands.
   */
  longLived?: boolean;
  /**
   * The channel name is the provider's instance id (Evolution API): the
   * kernel strips spaces and special characters at creation and refuses to
   * change it afterwards.
   */
  lockedName?: boolean;
  /**
   * Fields of `config` holding a provider base URL, each with the provider's
   * official URL (`{ graphBaseUrl: 'https://graph.facebook.com' }`). The
   * kernel lets only the superadmin point a channel at another server; a
   * tenant admin may leave the field blank, use the official host, or a host
   * on the superadmin's outbound allow-list (docs/security.md).
   */
  providerUrls?: Record<string, string>;
  /**
   * Validates and normalises the adapter's part of a channel before it is
   * saved (create and edit). `current` is the saved channel on edit; secrets
   * the admin left blank are already filled from it. Throw an `AppError` with
   * a catalogue code (e.g. ERR_TELEGRAM_TOKEN) to refuse.
   */
  prepare?(draft: ChannelSettingsDraft, current?: ChannelRecord): Promise<ChannelSettingsDraft> | ChannelSettingsDraft;
  /**
   * Opens the provider session (long-lived channels) or validates credentials
   * (webhook channels), reporting progress through `runtime.setStatus`. A
   * `ChannelError` with `permanent` (bad credentials) leaves the channel
   * disconnected with its message until an admin connects it again; any
   * other failure is retried with backoff.
   */
  connect?(channel: ChannelRecord, runtime: ChannelRuntime): Promise<void>;
  /** Closes the session on this node. Must keep the auth state: the session may resume elsewhere. */
  disconnect?(channel: ChannelRecord): Promise<void>;
  /** Ends the account's session at the provider and forgets its auth state (channel deleted). */
  logout?(channel: ChannelRecord): Promise<void>;
  /** Asks the provider for a pairing code for `number` (capability `pairingCode`), shown instead of a QR code. */
  requestPairingCode?(channel: ChannelRecord, number: string): Promise<string>;
  /**
   * Imports old conversations from the provider (capability `historyImport`),
   * handing each message to `sink.ingest`. Runs in a job; returns how many
   * messages it handed over.
   */
  syncHistory?(channel: ChannelRecord, request: HistorySyncRequest, sink: HistorySink): Promise<{ imported: number }>;
  /**
   * Checks a template send (capability `templates`) before anything is
   * stored: the template exists for this channel and may be sent, and the
   * parameters fit its placeholders. Throw an `AppError` with a catalogue code
   * (e.g. ERR_VALIDATION with the reason) to refuse. Without it the kernel
   * sends the request as given, with the caller's text as the body.
   */
  prepareTemplate?(channel: ChannelRecord, request: TemplateSendRequest): Promise<PreparedTemplate>;
  send(channel: ChannelRecord, msg: OutboundMessage): Promise<SendResult>;
  edit?(channel: ChannelRecord, providerId: string, body: string): Promise<void>;
  delete?(channel: ChannelRecord, providerId: string): Promise<void>;
  react?(channel: ChannelRecord, providerId: string, emoji: string): Promise<void>;
}

/**
 * Catalogue codes a provider failure maps to: the kernel's channel codes
 * (core.md §8), or a code the channel plugin declares in its contract
 * (e.g. `ERR_WABA_INVALID`, `ERR_TELEGRAM_TOKEN`).
 */
export type ChannelErrorCode =
  | 'ERR_SENDING_WAPP_MSG'
  | 'ERR_WAPP_NOT_INITIALIZED'
  | 'ERR_WAPP_INVALID_CONTACT'
  | 'ERR_WAPP_DOWNLOAD_MEDIA'
  | 'ERR_DELETE_WAPP_MSG'
  | 'ERR_FETCH_WAPP_MSG'
  | 'ERR_WAPP_CHECK_CONTACT'
  | 'ERR_QR_CODE'
  | 'ERR_SYNC_MESSAGES'
  | (keyof AtendeErrorCodes & string);

/**
 * Thrown by an adapter for a provider failure; `code` is a catalogue code.
 * A failed send stores the message as `failed` with `message` as its reason
 * and `code` in `data.errorCode`.
 */
export class ChannelError extends Error {
  constructor(
    readonly code: ChannelErrorCode,
    message: string,
    /** A permanent failure is not retried (bad number, rejected media). */
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

/**
 * Network failures reach users in Portuguese, not as Node's words ("getaddrinfo ENOTFOUND graph.example"):
 * what happened and what to check. Anything else is the provider's own text.
 */
const NETWORK_REASONS: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s,;)]+)/i, (m) => `Endereço do provedor não encontrado (${m[1]}): confira a URL configurada e a conexão com a internet`],
  [/\b(?:ENOTFOUND|EAI_AGAIN)\b/, () => 'Endereço do provedor não encontrado: confira a URL configurada e a conexão com a internet'],
  [/connect ECONNREFUSED ([^\s,;)]+)/i, (m) => `O provedor recusou a conexão (${m[1]}): o serviço está fora do ar ou o endereço está errado`],
  [/\bECONNREFUSED\b/, () => 'O provedor recusou a conexão: o serviço está fora do ar ou o endereço está errado'],
  [/\b(?:ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b|timed? ?out/i, () => 'O provedor não respondeu a tempo; tente de novo em instantes'],
  [/\b(?:ECONNRESET|EPIPE|UND_ERR_SOCKET)\b|socket hang up/i, () => 'A conexão com o provedor caiu no meio do envio; tente de novo'],
  [/CERT_|certificate|self[- ]signed|SSL routines/i, () => 'O certificado de segurança (HTTPS) do provedor é inválido'],
  [/^\s*(?:TypeError: )?fetch failed\s*$/i, () => 'Falha de rede ao falar com o provedor'],
];
function networkReason(text: string): string {
  for (const [re, say] of NETWORK_REASONS) {
    const m = re.exec(text);
    if (m) return say(m);
  }
  return text;
}

/**
 * A provider's own words, fit to show an admin or store as a failure reason:
 * printable text only (no markup, control or direction characters), spaces
 * collapsed, at most `max` characters. Provider bodies are the remote's text:
 * never put them anywhere unshortened.
 */
export function providerReason(text: unknown, max = 120): string {
  if (typeof text !== 'string') return '';
  const clean = networkReason(text)
    .replace(/<[^>]*>/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
