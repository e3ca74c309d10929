import { ChannelError, type MediaKind, type OutboundMessage } from '@atende/core/sdk';

/**
 * Builds the Cloud API `/messages` payloads for one kernel message, within
 * WhatsApp's limits: text up to 4096 characters (longer texts go in parts),
 * captions up to 1024, at most 3 reply buttons with 20-character titles
 * (more, or longer labels, become a list of up to 10 rows).
 */

export const TEXT_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;
export const INTERACTIVE_BODY_LIMIT = 1024;
export const MAX_REPLY_BUTTONS = 3;
export const BUTTON_TITLE_LIMIT = 20;
export const MAX_LIST_ROWS = 10;
export const ROW_TITLE_LIMIT = 24;
export const ROW_DESCRIPTION_LIMIT = 72;
const LIST_BUTTON_TEXT = 'Opções';

/** Types the Cloud API accepts per kind; anything else goes out as a document so it still arrives. */
const ACCEPTED: Record<MediaKind, RegExp> = {
  image: /^image\/(jpeg|png)$/,
  audio: /^audio\/(aac|amr|mpeg|mp4|ogg)$/,
  video: /^video\/(mp4|3gpp)$/,
  sticker: /^image\/webp$/,
  document: /./,
};

export type WaMediaType = 'image' | 'audio' | 'video' | 'document' | 'sticker';

/** The Cloud API media type for a file, falling back to `document` for types WhatsApp would refuse as the declared kind. */
export function waMediaType(kind: MediaKind, mimetype: string): WaMediaType {
  const base = mimetype.split(';')[0].trim().toLowerCase();
  return ACCEPTED[kind].test(base) ? kind : 'document';
}

export function chunks(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

type Payload = Record<string, unknown>;

/** Interactive reply buttons, or a list when there are more than 3 options or a label does not fit a button. */
export function interactive(body: string, options: { label: string; value: string }[], forceList = false): Payload {
  if (!options.length) throw new ChannelError('ERR_SENDING_WAPP_MSG', 'mensagem interativa sem opções', true);
  if (options.length > MAX_LIST_ROWS) throw new ChannelError('ERR_SENDING_WAPP_MSG', `o WhatsApp aceita no máximo ${MAX_LIST_ROWS} opções numa lista`, true);
  const text = cut(body.trim() || 'Escolha uma opção', INTERACTIVE_BODY_LIMIT);
  const asButtons = !forceList && options.length <= MAX_REPLY_BUTTONS && options.every((o) => o.label.length <= BUTTON_TITLE_LIMIT);
  if (asButtons) {
    return {
      type: 'interactive',
      interactive: { type: 'button', body: { text }, action: { buttons: options.map((o) => ({ type: 'reply', reply: { id: o.value.slice(0, 256), title: o.label } })) } },
    };
  }
  return {
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text },
      action: {
        button: LIST_BUTTON_TEXT,
        sections: [
          {
            rows: options.map((o) => ({
              id: o.value.slice(0, 200),
              title: cut(o.label, ROW_TITLE_LIMIT),
              // A label that does not fit the title is shown whole underneath.
              ...(o.label.length > ROW_TITLE_LIMIT ? { description: cut(o.label, ROW_DESCRIPTION_LIMIT) } : {}),
            })),
          },
        ],
      },
    },
  };
}

/** Where the file comes from: a public link Meta fetches, or a media id uploaded beforehand. */
export type MediaRef = { link: string } | { id: string };

/**
 * The payloads to POST, in order; the first one's id stands for the kernel
 * message (it carries the quote). `mediaRef` must be given for media.
 */
export function buildPayloads(msg: OutboundMessage, mediaRef?: MediaRef): Payload[] {
  const base = { recipient_type: 'individual', to: msg.to.externalId };
  const context = msg.quotedProviderId ? { context: { message_id: msg.quotedProviderId } } : {};
  if (msg.template) {
    return [{ ...base, ...context, type: 'template', template: { name: msg.template.name, language: { code: msg.template.language }, ...(msg.template.components?.length ? { components: msg.template.components } : {}) } }];
  }
  if (msg.media) {
    if (!mediaRef) throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'arquivo da mensagem não encontrado no armazenamento', true);
    const type = waMediaType(msg.media.kind, msg.media.mimetype);
    const withCaption = type === 'image' || type === 'video' || type === 'document';
    const caption = msg.body.trim();
    const object: Payload = { ...mediaRef };
    if (withCaption && caption) object.caption = cut(caption, CAPTION_LIMIT);
    if (type === 'document') object.filename = msg.media.name;
    const out: Payload[] = [{ ...base, ...context, type, [type]: object }];
    // Audio and stickers carry no caption, and a caption past the limit must not be lost: the text follows on its own.
    if (caption && (!withCaption || caption.length > CAPTION_LIMIT)) for (const part of chunks(caption, TEXT_LIMIT)) out.push({ ...base, type: 'text', text: { body: part, preview_url: false } });
    return out;
  }
  if (msg.buttons?.length) return [{ ...base, ...context, ...interactive(msg.body, msg.buttons, msg.type === 'list') }];
  const [first, ...rest] = chunks(msg.body, TEXT_LIMIT);
  const text = (body: string) => ({ type: 'text', text: { body, preview_url: /https?:\/\/\S/.test(body) } });
  return [{ ...base, ...context, ...text(first) }, ...rest.map((part) => ({ ...base, ...text(part) }))];
}
