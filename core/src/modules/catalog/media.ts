import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import { AppError } from '../../errors.ts';
import type { Kernel } from '../../kernel.ts';
import { MAX_MEDIA_BYTES } from '../../storage/local.ts';

/** Largest media file a user may attach (WhatsApp's own limit for most media is 16 MB). */
export const MEDIA_MAX_BYTES = MAX_MEDIA_BYTES;

type Sniff = (head: Buffer) => boolean;

const starts = (sig: number[] | string, at = 0): Sniff => {
  const bytes = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig);
  return (head) => head.length >= at + bytes.length && head.subarray(at, at + bytes.length).equals(bytes);
};
const riff = (form: string): Sniff => (head) => starts('RIFF')(head) && starts(form, 8)(head);
const isoMedia = starts('ftyp', 4);
const mp3: Sniff = (head) => starts('ID3')(head) || (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0);
const adts: Sniff = (head) => head.length >= 2 && head[0] === 0xff && (head[1] & 0xf6) === 0xf0;
const zip = starts([0x50, 0x4b, 0x03, 0x04]);
const ole = starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const text: Sniff = (head) => head.length > 0 && !head.includes(0);

export interface MediaRule {
  kind: 'image' | 'audio' | 'video' | 'document';
  /** Content types a browser may declare for this extension; the first is the one stored and served. */
  mimes: string[];
  /** The file's first bytes must look like the type, so a renamed executable is refused. */
  sniff: Sniff;
}

/**
 * The allow-list of attachable media: what the messaging channels accept.
 * A file passes only when its extension is listed, its declared content type
 * fits the extension (or is the browsers' generic octet-stream), and its first
 * bytes match the format.
 */
export const MEDIA_TYPES: Record<string, MediaRule> = {
  jpg: { kind: 'image', mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], sniff: starts([0xff, 0xd8, 0xff]) },
  jpeg: { kind: 'image', mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], sniff: starts([0xff, 0xd8, 0xff]) },
  png: { kind: 'image', mimes: ['image/png'], sniff: starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  gif: { kind: 'image', mimes: ['image/gif'], sniff: (h) => starts('GIF87a')(h) || starts('GIF89a')(h) },
  webp: { kind: 'image', mimes: ['image/webp'], sniff: riff('WEBP') },
  mp3: { kind: 'audio', mimes: ['audio/mpeg', 'audio/mp3'], sniff: mp3 },
  ogg: { kind: 'audio', mimes: ['audio/ogg', 'audio/opus', 'application/ogg'], sniff: starts('OggS') },
  oga: { kind: 'audio', mimes: ['audio/ogg', 'audio/opus'], sniff: starts('OggS') },
  opus: { kind: 'audio', mimes: ['audio/ogg', 'audio/opus'], sniff: starts('OggS') },
  m4a: { kind: 'audio', mimes: ['audio/mp4', 'audio/x-m4a', 'audio/m4a', 'audio/aac'], sniff: isoMedia },
  aac: { kind: 'audio', mimes: ['audio/aac', 'audio/x-aac'], sniff: adts },
  wav: { kind: 'audio', mimes: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'], sniff: riff('WAVE') },
  amr: { kind: 'audio', mimes: ['audio/amr'], sniff: starts('#!AMR') },
  mp4: { kind: 'video', mimes: ['video/mp4'], sniff: isoMedia },
  '3gp': { kind: 'video', mimes: ['video/3gpp', 'audio/3gpp'], sniff: isoMedia },
  pdf: { kind: 'document', mimes: ['application/pdf'], sniff: starts('%PDF-') },
  doc: { kind: 'document', mimes: ['application/msword'], sniff: ole },
  xls: { kind: 'document', mimes: ['application/vnd.ms-excel'], sniff: ole },
  ppt: { kind: 'document', mimes: ['application/vnd.ms-powerpoint'], sniff: ole },
  docx: { kind: 'document', mimes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'], sniff: zip },
  xlsx: { kind: 'document', mimes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], sniff: zip },
  pptx: { kind: 'document', mimes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'], sniff: zip },
  txt: { kind: 'document', mimes: ['text/plain'], sniff: text },
  csv: { kind: 'document', mimes: ['text/csv', 'text/plain', 'application/vnd.ms-excel'], sniff: text },
};

/** A display name without folders, control characters or quotes, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(-200);
  return cleaned || 'arquivo';
}

export function extensionOf(name: string): string {
  return path.extname(name).slice(1).toLowerCase();
}

/** The rule an upload is judged by, or undefined when its name or declared type is not allowed. */
export function mediaRuleFor(fileName: string, declaredType: string): MediaRule | undefined {
  const rule = MEDIA_TYPES[extensionOf(fileName)];
  if (!rule) return undefined;
  const declared = declaredType.split(';')[0].trim().toLowerCase();
  return rule.mimes.includes(declared) || declared === 'application/octet-stream' ? rule : undefined;
}

/** The content type to serve for a stored file name or URL, from its extension. */
export function mimeTypeOf(nameOrUrl: string | null | undefined): string | null {
  if (!nameOrUrl) return null;
  return MEDIA_TYPES[extensionOf(nameOrUrl.split('?')[0])]?.mimes[0] ?? null;
}

/** Reads the first bytes of a stream and hands back a stream that still yields every byte. */
async function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; whole: Readable }> {
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    first.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(first);
  const whole = Readable.from(
    (async function* () {
      if (head.length) yield head;
      if (done) return;
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
  );
  return { head, whole };
}

export interface AcceptedMedia {
  url: string;
  name: string;
  mimeType: string;
  kind: MediaRule['kind'];
  size: number;
}

/**
 * Checks one uploaded file against the allow-list (name, declared type, first
 * bytes) before a byte is written, then stores it through the kernel's media
 * port under `<dataDir>/media/<tenantId>/…`, which refuses it (and removes the
 * partial file) past the size limit.
 */
export async function acceptUpload(kernel: Kernel, tenantId: number, file: MultipartFile, maxBytes = MEDIA_MAX_BYTES): Promise<AcceptedMedia> {
  const name = cleanFileName(file.filename ?? '');
  const rule = mediaRuleFor(name, file.mimetype ?? '');
  if (!rule) {
    // Drain the refused part so the connection stays usable; its bytes go nowhere.
    file.file.on('error', () => undefined);
    file.file.resume();
    throw new AppError('ERR_FILE_REJECTED');
  }
  const { head, whole } = await peek(file.file, 64);
  if (file.file.truncated) throw new AppError('ERR_FILE_TOO_LARGE');
  if (!rule.sniff(head)) {
    whole.on('error', () => undefined);
    whole.resume();
    throw new AppError('ERR_FILE_REJECTED');
  }
  // The port checks the size through `truncated`, which lives on the multipart stream.
  Object.defineProperty(whole, 'truncated', { get: () => file.file.truncated });
  const stored = await kernel.storage.save(tenantId, name, rule.mimes[0], whole as Readable & { truncated?: boolean }, maxBytes);
  return { url: stored.url, name, mimeType: rule.mimes[0], kind: rule.kind, size: stored.size };
}

/** Removes a file stored through the media port, given its signed URL; anything else is left alone. */
export async function removeStoredMedia(kernel: Kernel, url: string | null | undefined): Promise<void> {
  const abs = url ? kernel.storage.pathOf(url) : undefined;
  if (abs) await Promise.all([rm(abs, { force: true }), rm(kernel.storage.typeFile(abs), { force: true })]);
}

/** Whether a URL is one of the media port's signed URLs (an uploaded file) rather than an external link. */
export const isStoredMediaUrl = (url: string | null | undefined) => !!url && url.startsWith('/media/');
