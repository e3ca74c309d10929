/**
 * The channel adapter contract. A channel plugin registers one adapter per
 * channel type with `ctx.channels.register(adapter)`; provider variants are
 * strategies inside the plugin. The kernel owns tickets, contacts and the
 * message pipeline; the adapter only moves messages to and from the provider.
 */

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
  setStatus(tenantId: number, channelId: number, status: ChannelStatus, extra?: { qrcode?: string | null; number?: string | null; retries?: number }): Promise<void>;
}

export interface ChannelAdapter {
  type: string;
  label: string;
  /** The contact identity kind this channel addresses (`whatsapp` for every WhatsApp variant, `telegram`, …). */
  identityKind: string;
  capabilities: ChannelCapabilities;
  /** Opens the provider session (long-lived channels) or validates credentials (webhook channels). */
  connect?(channel: ChannelRecord, runtime: ChannelRuntime): Promise<void>;
  disconnect?(channel: ChannelRecord): Promise<void>;
  send(channel: ChannelRecord, msg: OutboundMessage): Promise<SendResult>;
  edit?(channel: ChannelRecord, providerId: string, body: string): Promise<void>;
  delete?(channel: ChannelRecord, providerId: string): Promise<void>;
  react?(channel: ChannelRecord, providerId: string, emoji: string): Promise<void>;
}

/** Thrown by an adapter for a provider failure; `code` is an ERR_WAPP_* catalogue code. */
export class ChannelError extends Error {
  constructor(
    readonly code: 'ERR_SENDING_WAPP_MSG' | 'ERR_WAPP_NOT_INITIALIZED' | 'ERR_WAPP_INVALID_CONTACT' | 'ERR_WAPP_DOWNLOAD_MEDIA' | 'ERR_DELETE_WAPP_MSG' | 'ERR_FETCH_WAPP_MSG' | 'ERR_WAPP_CHECK_CONTACT' | 'ERR_WABA_INVALID' | 'ERR_TELEGRAM_TOKEN',
    message: string,
    /** A permanent failure is not retried (bad number, rejected media). */
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}
