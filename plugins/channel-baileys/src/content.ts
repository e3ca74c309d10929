import type { proto, WAMessage } from '@whiskeysockets/baileys';
import type { MediaKind } from '@atende/core/sdk';
import type { BaileysLib } from './lib.ts';

/** What one WhatsApp message says, in the kernel's terms (before the sender and media are resolved). */
export interface ParsedContent {
  body: string;
  /** Kernel message type, when it is not derived from a media file's mimetype. */
  type?: string;
  media?: { kind: MediaKind; mimetype: string; name: string };
  quotedId?: string;
  data?: Record<string, unknown>;
}

const EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'application/pdf': 'pdf',
};

/** `audio/ogg; codecs=opus` → `audio/ogg`: the media store checks the bare type. */
const bareMime = (m: string | null | undefined, fallback: string) => (m ?? fallback).split(';')[0].trim().toLowerCase() || fallback;

const fileName = (prefix: string, id: string, mimetype: string) => `${prefix}-${id}.${EXT[mimetype] ?? mimetype.split('/')[1]?.replace(/[^a-z0-9]/g, '') ?? 'bin'}`;

function vcardNumber(vcard: string | null | undefined): string | undefined {
  const m = /waid=(\d+)/.exec(vcard ?? '') ?? /TEL[^:]*:([+\d\s()-]+)/.exec(vcard ?? '');
  return m?.[1]?.replace(/\D/g, '') || undefined;
}

/**
 * Reads a message's content: text, media, location, contacts, button and
 * list answers, reactions, and the id of the message it quotes. Returns
 * undefined for what is not a conversation message (protocol messages,
 * key distribution, edits and revokes, polls' votes, empty reactions).
 */
export function parseContent(lib: BaileysLib, m: WAMessage): ParsedContent | undefined {
  const content = lib.normalizeMessageContent(m.message);
  if (!content) return undefined;
  const kind = lib.getContentType(content);
  if (!kind) return undefined;
  const id = m.key.id ?? 'msg';
  const inner = content[kind] as { contextInfo?: proto.IContextInfo | null } | null | undefined;
  const quotedId = (inner && typeof inner === 'object' && 'contextInfo' in inner ? inner.contextInfo?.stanzaId : undefined) ?? undefined;
  const withQuote = (p: ParsedContent): ParsedContent => (quotedId ? { ...p, quotedId } : p);

  switch (kind) {
    case 'conversation':
      return content.conversation ? { body: content.conversation } : undefined;
    case 'extendedTextMessage':
      return withQuote({ body: content.extendedTextMessage?.text ?? '' });
    case 'imageMessage': {
      const im = content.imageMessage!;
      const mimetype = bareMime(im.mimetype, 'image/jpeg');
      return withQuote({ body: im.caption ?? '', media: { kind: 'image', mimetype, name: fileName('imagem', id, mimetype) } });
    }
    case 'videoMessage': {
      const vm = content.videoMessage!;
      const mimetype = bareMime(vm.mimetype, 'video/mp4');
      return withQuote({ body: vm.caption ?? '', media: { kind: 'video', mimetype, name: fileName('video', id, mimetype) } });
    }
    case 'audioMessage': {
      const am = content.audioMessage!;
      const mimetype = bareMime(am.mimetype, 'audio/ogg');
      return withQuote({ body: '', media: { kind: 'audio', mimetype, name: fileName(am.ptt ? 'audio-gravado' : 'audio', id, mimetype) }, data: am.ptt ? { ptt: true } : undefined });
    }
    case 'documentMessage': {
      const dm = content.documentMessage!;
      const mimetype = bareMime(dm.mimetype, 'application/octet-stream');
      return withQuote({ body: dm.caption ?? '', media: { kind: 'document', mimetype, name: dm.fileName || dm.title || fileName('arquivo', id, mimetype) } });
    }
    case 'stickerMessage': {
      const sm = content.stickerMessage!;
      const mimetype = bareMime(sm.mimetype, 'image/webp');
      return withQuote({ body: '', type: 'sticker', media: { kind: 'sticker', mimetype, name: fileName('figurinha', id, mimetype) } });
    }
    case 'locationMessage':
    case 'liveLocationMessage': {
      const loc = (content.locationMessage ?? content.liveLocationMessage)!;
      const lat = Number(loc.degreesLatitude ?? 0);
      const lng = Number(loc.degreesLongitude ?? 0);
      const named = content.locationMessage ? [content.locationMessage.name, content.locationMessage.address] : [];
      const body = [...named.filter(Boolean), `https://maps.google.com/maps?q=${lat},${lng}`].join('\n');
      return withQuote({ body, type: 'location', data: { location: { latitude: lat, longitude: lng, live: kind === 'liveLocationMessage' } } });
    }
    case 'contactMessage': {
      const c = content.contactMessage!;
      return withQuote({ body: c.vcard ?? c.displayName ?? '', type: 'vcard', data: { contacts: [{ name: c.displayName ?? '', number: vcardNumber(c.vcard) ?? null }] } });
    }
    case 'contactsArrayMessage': {
      const list = content.contactsArrayMessage?.contacts ?? [];
      return withQuote({
        body: list.map((c) => c.vcard ?? c.displayName ?? '').join('\n'),
        type: 'vcard',
        data: { contacts: list.map((c) => ({ name: c.displayName ?? '', number: vcardNumber(c.vcard) ?? null })) },
      });
    }
    case 'buttonsResponseMessage': {
      const b = content.buttonsResponseMessage!;
      return withQuote({ body: b.selectedDisplayText ?? b.selectedButtonId ?? '', data: { buttonReply: true, selectedId: b.selectedButtonId ?? null } });
    }
    case 'templateButtonReplyMessage': {
      const b = content.templateButtonReplyMessage!;
      return withQuote({ body: b.selectedDisplayText ?? b.selectedId ?? '', data: { buttonReply: true, selectedId: b.selectedId ?? null } });
    }
    case 'listResponseMessage': {
      const l = content.listResponseMessage!;
      return withQuote({ body: l.title ?? l.singleSelectReply?.selectedRowId ?? '', data: { listReply: true, selectedId: l.singleSelectReply?.selectedRowId ?? null } });
    }
    case 'interactiveResponseMessage': {
      const r = content.interactiveResponseMessage!;
      let selectedId: string | null;
      try {
        selectedId = (JSON.parse(r.nativeFlowResponseMessage?.paramsJson ?? '{}') as { id?: string }).id ?? null;
      } catch {
        selectedId = null;
      }
      return withQuote({ body: r.body?.text ?? selectedId ?? '', data: { buttonReply: true, selectedId } });
    }
    case 'reactionMessage': {
      const r = content.reactionMessage!;
      // An empty reaction removes an earlier one: nothing for an agent to read.
      if (!r.text || !r.key?.id) return undefined;
      return { body: r.text, type: 'reaction', quotedId: r.key.id, data: { reaction: true } };
    }
    case 'pollCreationMessage':
    case 'pollCreationMessageV2':
    case 'pollCreationMessageV3': {
      const p = (content.pollCreationMessage ?? content.pollCreationMessageV2 ?? content.pollCreationMessageV3)!;
      return { body: [p.name, ...(p.options ?? []).map((o, i) => `${i + 1}. ${o.optionName}`)].join('\n'), type: 'poll' };
    }
    default:
      return undefined;
  }
}
