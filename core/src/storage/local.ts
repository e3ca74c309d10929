import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';

export const MAX_MEDIA_BYTES = 16 * 1024 * 1024;
/** How long a media URL handed to a client stays valid (rounded up to the hour, so a URL is stable and cacheable within it). */
export const MEDIA_URL_TTL_MS = 4 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Types a browser may show in place; everything else is served as a download. */
export const INLINE_MEDIA = /^(image\/(jpeg|png|gif|webp)|audio\/[\w.+-]+|video\/[\w.+-]+)$/;
/** Types of legacy files (stored before their type was kept beside them), by extension. */
const LEGACY_TYPES: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp',
  mp4: 'video/mp4', '3gp': 'video/3gpp', mov: 'video/quicktime', webm: 'video/webm',
  ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/ogg', mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', amr: 'audio/amr', wav: 'audio/wav',
  pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv', zip: 'application/zip',
};
/** A stored media URL as the store issues and the database keeps it (`/media/<rel>?s=<sig>`), inside a JSON text. */
const STORED_IN_JSON = /"\/media\/([^"?\\]+)\?s=([\w-]+)"/g;

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

  /**
   * The URL a client of `tenantId` gets for a stored media URL: signed with an
   * expiry, and only for the tenant the file belongs to (another tenant's, or
   * something that is not a stored URL, gives undefined). The database keeps
   * the unexpiring form, which the media route no longer serves.
   */
  clientUrl(stored: string, tenantId: number, now = Date.now()): string | undefined {
    const m = /^\/media\/([^?]+)\?s=([\w-]+)$/.exec(stored);
    const rel = m ? decodePath(m[1]) : undefined;
    if (!m || rel === undefined || !this.signedBy(rel, m[2]) || rel.split('/')[0] !== String(tenantId)) return undefined;
    const exp = Math.ceil((now + MEDIA_URL_TTL_MS) / HOUR_MS) * (HOUR_MS / 1000);
    return `/media/${m[1]}?e=${exp}&s=${this.sign(`${rel}\n${exp}`)}`;
  }

  /** Rewrites every stored media URL in a JSON text into its client form for `tenantId` (null where it is not theirs). */
  clientJson(json: string, tenantId: number | undefined): string {
    if (!json.includes('"/media/')) return json;
    return json.replace(STORED_IN_JSON, (whole, enc: string, sig: string) => {
      const url = tenantId === undefined ? undefined : this.clientUrl(`/media/${enc}?s=${sig}`, tenantId);
      return url ? JSON.stringify(url) : 'null';
    });
  }

  /** The file behind a client media URL that has not expired, or undefined. */
  verifyClient(rel: string, exp: string | undefined, sig: string | undefined, now = Date.now()): string | undefined {
    if (!exp || !/^\d{1,12}$/.test(exp) || !sig) return undefined;
    const at = Number(exp) * 1000;
    if (at <= now || at > now + MEDIA_URL_TTL_MS + HOUR_MS) return undefined;
    if (!this.signedBy(`${rel}\n${exp}`, sig)) return undefined;
    return this.fileOf(rel);
  }

  /** The type a stored file was accepted with (kept beside it), or for older files the type its extension names. */
  async typeOf(abs: string): Promise<string> {
    const kept = await fs.promises.readFile(this.typeFile(abs), 'utf8').catch(() => undefined);
    if (kept && mediaAllowed(kept)) return kept;
    const legacy = LEGACY_TYPES[abs.split('.').pop()?.toLowerCase() ?? ''];
    return legacy ?? 'application/octet-stream';
  }

  /** Where the accepted type of a stored file is kept: a tree beside the tenants' folders, so their listings hold only their files. */
  typeFile(abs: string): string {
    return path.join(this.root, '.types', path.relative(this.root, abs));
  }

  private signedBy(value: string, sig: string): boolean {
    const expected = Buffer.from(this.sign(value));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private fileOf(rel: string): string | undefined {
    if (rel.includes('..') || rel.startsWith('.')) return undefined;
    const abs = path.join(this.root, rel);
    return abs.startsWith(this.root + path.sep) && fs.existsSync(abs) ? abs : undefined;
  }

  /** The file behind a stored (unexpiring) media URL's path and signature: for the server's own use, never served as is. */
  verify(rel: string, sig: string | undefined): string | undefined {
    if (!sig || !this.signedBy(rel, sig)) return undefined;
    return this.fileOf(rel);
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
      // The accepted type, sent back as Content-Type when the file is served (never guessed from the name).
      const typeFile = this.typeFile(abs);
      await fs.promises.mkdir(path.dirname(typeFile), { recursive: true });
      await fs.promises.writeFile(typeFile, mimetype);
    } catch (err) {
      await fs.promises.rm(abs, { force: true });
      await fs.promises.rm(this.typeFile(abs), { force: true });
      throw err;
    }
    return { url: this.urlFor(rel), path: abs, name: safe, mimetype, size };
  }
}
