import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AckStatus, InboundMessage } from '@atende/core/sdk';

/**
 * The WhatsApp Cloud API webhook: Meta's signature, the verify handshake,
 * and the translation of `entry[].changes[].value` into the kernel's inbound
 * messages and delivery acks.
 */

export const SIGNATURE_HEADER = 'x-hub-signature-256';
const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** Meta's signature of a webhook body: `sha256=` + hex HMAC-SHA256 of the raw bytes, keyed by the app secret. */
export function signWebhook(appSecret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * Checks `X-Hub-Signature-256` over the raw body in constant time. The
 * header's shape is checked first (that reveals nothing about the secret);
 * both digests are then 32 bytes, so `timingSafeEqual` compares them without
 * an early exit and without a length to leak.
 */
export function signatureValid(appSecret: string | undefined, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (!appSecret || typeof header !== 'string') return false;
  const m = SIGNATURE.exec(header.trim());
  if (!m) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(m[1], 'hex');
  return timingSafeEqual(expected, given);
}

/** The verify token compared in constant time: hashing both sides first makes the lengths equal. */
export function verifyTokenMatches(expected: string | undefined, given: unknown): boolean {
  if (!expected || typeof given !== 'string' || !given) return false;
  return timingSafeEqual(createHash('sha256').update(expected).digest(), createHash('sha256').update(given).digest());
}

type MediaObject = { id: string; mime_type?: string; sha256?: string; caption?: string; filename?: string; voice?: boolean; animated?: boolean };

export interface WaMessage {
  id: string;
  from: string;
  timestamp?: string;
  type: string;
  context?: { id?: string; from?: string; forwarded?: boolean; frequently_forwarded?: boolean };
  text?: { body?: string };
  image?: MediaObject;
  audio?: MediaObject;
  video?: MediaObject;
  document?: MediaObject;
  sticker?: MediaObject;
  location?: { latitude: number; longitude: number; name?: string; address?: string; url?: string };
  contacts?: { name?: { formatted_name?: string }; phones?: { phone?: string; wa_id?: string }[] }[];
  interactive?: { type: string; button_reply?: { id: string; title: string }; list_reply?: { id: string; title: string; description?: string } };
  button?: { text?: string; payload?: string };
  reaction?: { message_id?: string; emoji?: string };
  errors?: { code?: number; title?: string; message?: string }[];
}

export interface WaStatus {
  id: string;
  status: string;
  recipient_id?: string;
  timestamp?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

export interface WaChangeValue {
  messaging_product?: string;
  metadata?: { display_phone_number?: string; phone_number_id?: string };
  contacts?: { profile?: { name?: string }; wa_id?: string }[];
  messages?: WaMessage[];
  statuses?: WaStatus[];
}

export interface WaWebhook {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: WaChangeValue }[] }[];
}

/** The `messages` changes addressed to one phone number id (an app may deliver several numbers to one URL). */
export function changesFor(payload: WaWebhook, phoneNumberId: string): { mine: WaChangeValue[]; others: number } {
  const mine: WaChangeValue[] = [];
  let others = 0;
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      if (change.field !== 'messages' || !change.value) continue;
      if (change.value.metadata?.phone_number_id === phoneNumberId) mine.push(change.value);
      else others++;
    }
  }
  return { mine, others };
}

export const MEDIA_TYPES = ['image', 'audio', 'video', 'document', 'sticker'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/aac': 'aac', 'audio/amr': 'amr',
  'video/mp4': 'mp4', 'video/3gpp': '3gp', 'application/pdf': 'pdf',
};
const NAMES: Record<MediaType, string> = { image: 'imagem', audio: 'audio', video: 'video', document: 'documento', sticker: 'figurinha' };

/** A file to fetch from Graph before the message is stored. */
export interface PendingMedia {
  mediaId: string;
  name: string;
  mimetype: string;
}

/**
 * One Cloud API message as the kernel's inbound message (without the file,
 * which the caller downloads), or `undefined` for what carries nothing to
 * show (a removed reaction). Types the kernel has no view for still arrive,
 * as a line saying what they were, so nothing a customer sent disappears.
 */
export function toInbound(base: { tenantId: number; channelId: number }, value: WaChangeValue, m: WaMessage): { msg: InboundMessage; media?: PendingMedia } | undefined {
  const name = value.contacts?.find((c) => c.wa_id === m.from)?.profile?.name ?? value.contacts?.[0]?.profile?.name;
  const msg: InboundMessage = {
    ...base,
    providerMessageId: m.id,
    from: { kind: 'whatsapp', externalId: m.from, number: m.from, name: name || undefined },
    body: '',
    timestamp: m.timestamp && /^\d+$/.test(m.timestamp) ? new Date(Number(m.timestamp) * 1000) : undefined,
    quotedProviderId: m.context?.id,
  };
  // WhatsApp marks a message the customer forwarded; the conversation labels it "Encaminhada".
  const forwarded = m.context?.forwarded || m.context?.frequently_forwarded ? { forwarded: true } : undefined;
  let media: PendingMedia | undefined;
  switch (m.type) {
    case 'text':
      msg.body = m.text?.body ?? '';
      break;
    case 'image':
    case 'audio':
    case 'video':
    case 'document':
    case 'sticker': {
      const obj = m[m.type];
      if (!obj?.id) return undefined;
      const mimetype = (obj.mime_type ?? 'application/octet-stream').split(';')[0].trim();
      const ext = EXTENSIONS[mimetype] ?? mimetype.split('/')[1]?.replace(/[^a-z0-9]/gi, '') ?? 'bin';
      media = { mediaId: obj.id, mimetype, name: obj.filename?.trim() || `${NAMES[m.type]}-${obj.id}.${ext}` };
      msg.body = obj.caption ?? '';
      if (m.type === 'sticker') msg.type = 'sticker';
      break;
    }
    case 'location': {
      const l = m.location;
      if (!l) return undefined;
      const place = [l.name, l.address].filter(Boolean).join(' — ');
      msg.type = 'location';
      msg.body = `${place ? `📍 ${place}\n` : '📍 '}https://maps.google.com/maps?q=${l.latitude},${l.longitude}`;
      msg.data = { location: { latitude: l.latitude, longitude: l.longitude, name: l.name ?? null, address: l.address ?? null } };
      break;
    }
    case 'contacts': {
      const cards = m.contacts ?? [];
      msg.type = 'vcard';
      msg.body = cards.map((c) => [c.name?.formatted_name, ...(c.phones ?? []).map((p) => p.phone ?? p.wa_id)].filter(Boolean).join(': ')).join('\n');
      msg.data = { contacts: cards.map((c) => ({ name: c.name?.formatted_name ?? null, numbers: (c.phones ?? []).map((p) => p.wa_id ?? p.phone?.replace(/\D/g, '') ?? '').filter(Boolean) })) };
      break;
    }
    case 'interactive': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      if (!reply) return undefined;
      msg.body = reply.title;
      msg.data = { buttonReply: true, buttonId: reply.id };
      break;
    }
    case 'button':
      msg.body = m.button?.text ?? m.button?.payload ?? '';
      msg.data = { buttonReply: true, buttonId: m.button?.payload ?? null };
      break;
    case 'reaction': {
      // An empty emoji removes a reaction: nothing new to show.
      if (!m.reaction?.emoji) return undefined;
      msg.type = 'reaction';
      msg.body = m.reaction.emoji;
      msg.quotedProviderId = m.reaction.message_id;
      msg.data = { reaction: { messageId: m.reaction.message_id ?? null, emoji: m.reaction.emoji } };
      break;
    }
    default: {
      const why = m.errors?.[0]?.title ?? m.errors?.[0]?.message;
      msg.body = `Mensagem do tipo "${m.type}" não suportada por este canal${why ? ` (${why})` : ''}`;
      msg.data = { unsupported: m.type };
    }
  }
  if (forwarded) msg.data = { ...msg.data, ...forwarded };
  return { msg, media };
}

const ACKS: Record<string, AckStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

/** A status callback as a kernel ack; `undefined` for statuses the kernel does not track (e.g. `deleted`). */
export function toAck(s: WaStatus): { providerId: string; status: AckStatus; reason?: string } | undefined {
  const status = ACKS[s.status];
  if (!status || !s.id) return undefined;
  const e = s.errors?.[0];
  const reason = status === 'failed' ? [e?.title ?? e?.message ?? 'falha na entrega', e?.code !== undefined ? `(${e.code})` : ''].filter(Boolean).join(' ') : undefined;
  return { providerId: s.id, status, reason };
}
