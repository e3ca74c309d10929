import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';

export const MAX_MEDIA_BYTES = 16 * 1024 * 1024;

/** Media types agents and customers exchange; anything else is refused before a byte is stored. */
const ALLOWED = [/^image\/(jpeg|png|gif|webp)$/, /^video\/(mp4|3gpp|quicktime|webm)$/, /^audio\/(ogg|mpeg|mp4|aac|amr|webm|wav|x-wav)$/, /^application\/(pdf|zip|x-zip-compressed|msword|vnd\.openxmlformats-officedocument\.[a-z.]+|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.oasis\.opendocument\.[a-z.]+)$/, /^text\/(plain|csv)$/];

export function mediaAllowed(mimetype: string): boolean {
  return ALLOWED.some((r) => r.test(mimetype));
}

/** A percent-encoded path segment decoded, or undefined when it is not valid encoding (`%`, `%ZZ`, a cut UTF-8 sequence). */
export function decodePath(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

export interface StoredMedia {
  url: string;
  path: string;
  name: string;
  mimetype: string;
  size: number;
}

/**
 * Local media store under `<dataDir>/media`. URLs are signed with an install
 * secret so they can be used in <img src> without a bearer token while
 * staying unguessable; `verify` checks them when served.
 */
export class LocalMediaStore {
  constructor(private readonly root: string, private readonly secret: string) {}

  private sign(rel: string) {
    return createHmac('sha256', this.secret).update(rel).digest('base64url').slice(0, 32);
  }

  urlFor(rel: string) {
    return `/media/${rel}?s=${this.sign(rel)}`;
  }

  verify(rel: string, sig: string | undefined): string | undefined {
    if (!sig || rel.includes('..')) return undefined;
    const expected = Buffer.from(this.sign(rel));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const abs = path.join(this.root, rel);
    return abs.startsWith(this.root + path.sep) && fs.existsSync(abs) ? abs : undefined;
  }

  /** The local file behind a signed media URL this store issued (`/media/<rel>?s=<sig>`), or undefined. */
  pathOf(url: string): string | undefined {
    const m = /^\/media\/([^?]+)\?s=([^&]+)$/.exec(url);
    const rel = m ? decodePath(m[1]) : undefined;
    return m && rel !== undefined ? this.verify(rel, m[2]) : undefined;
  }

  /** Streams a file in with type and size checks; a refused file leaves nothing behind. */
  async save(tenantId: number, name: string, mimetype: string, stream: Readable & { truncated?: boolean }, maxBytes = MAX_MEDIA_BYTES): Promise<StoredMedia> {
    if (!mediaAllowed(mimetype)) {
      stream.resume();
      throw new AppError('ERR_FILE_REJECTED');
    }
    const safe = name.replace(/[^\w.\-À-ÿ ]+/g, '_').slice(-120) || 'arquivo';
    const month = new Date().toISOString().slice(0, 7);
    const rel = `${tenantId}/${month}/${randomUUID()}-${safe}`;
    const abs = path.join(this.root, rel);
    await fs.promises.mkdir(path.dirname(abs), { recursive: true });
    let size = 0;
    try {
      await pipeline(
        stream,
        async function* (src) {
          for await (const chunk of src as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > maxBytes) throw new AppError('ERR_FILE_TOO_LARGE');
            yield chunk;
          }
        },
        fs.createWriteStream(abs),
      );
      if (stream.truncated) throw new AppError('ERR_FILE_TOO_LARGE');
    } catch (err) {
      await fs.promises.rm(abs, { force: true });
      throw err;
    }
    return { url: this.urlFor(rel), path: abs, name: safe, mimetype, size };
  }
}
