import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type pg from 'pg';

/**
 * The login slider captcha (spec core.md §2, §5): the server draws a picture
 * with a piece-shaped hole at a random x, and the piece itself; the user drags
 * the piece into the hole and the login carries the x reached.
 *
 * The challenge travels as a token: its content (id, target x, expiry) is
 * encrypted (AES-256-GCM) so a client cannot read the target, and the whole
 * token is signed with HMAC-SHA256; both keys derive from a per-install secret
 * shared by every node. Each id is accepted once (a row in auth_captcha_used).
 *
 * The pictures are SVG data URLs that embed a raster drawing: the hole is
 * pixels, not SVG coordinates a script could read out of the markup.
 */
export const CAPTCHA_WIDTH = 300;
export const CAPTCHA_HEIGHT = 150;
export const PIECE_SIZE = 44;
const KNOB = 8;
export const CAPTCHA_TTL_MS = 2 * 60 * 1000;
/** How far from the target the slider may stop, in pixels. */
export const CAPTCHA_TOLERANCE = 6;

export interface CaptchaChallenge {
  enabled: true;
  token: string;
  width: number;
  height: number;
  background: string;
  piece: string;
  pieceY: number;
}

interface Payload {
  id: string;
  x: number;
  exp: number;
}

export class Captcha {
  private readonly encKey: Buffer;
  private readonly macKey: Buffer;

  constructor(secret: string, private readonly pool: pg.Pool) {
    this.encKey = Buffer.from(hkdfSync('sha256', secret, 'atende', 'captcha-enc', 32));
    this.macKey = Buffer.from(hkdfSync('sha256', secret, 'atende', 'captcha-mac', 32));
  }

  issue(now = Date.now()): CaptchaChallenge {
    const x = randomInt(PIECE_SIZE + 20, CAPTCHA_WIDTH - PIECE_SIZE - KNOB - 4);
    const y = randomInt(6, CAPTCHA_HEIGHT - PIECE_SIZE - 6);
    const token = this.seal({ id: randomBytes(12).toString('base64url'), x, exp: now + CAPTCHA_TTL_MS });
    const { background, piece } = drawChallenge(x, y);
    return { enabled: true, token, width: CAPTCHA_WIDTH, height: CAPTCHA_HEIGHT, background, piece, pieceY: y };
  }

  /** True when the token is authentic, unexpired, unused and x is within the tolerance. Consumes the token either way. */
  async verify(token: string | undefined, x: number | undefined, now = Date.now()): Promise<boolean> {
    if (!token || typeof x !== 'number' || !Number.isFinite(x)) return false;
    const p = this.open(token);
    if (!p || p.exp <= now) return false;
    const used = await this.pool.query(`INSERT INTO auth_captcha_used (id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [p.id, new Date(p.exp)]);
    if (Math.random() < 0.02) void this.pool.query('DELETE FROM auth_captcha_used WHERE expires_at < now()').catch(() => undefined);
    if (!used.rowCount) return false;
    return Math.abs(x - p.x) <= CAPTCHA_TOLERANCE;
  }

  private seal(p: Payload): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([iv, c.update(JSON.stringify(p), 'utf8'), c.final(), c.getAuthTag()]).toString('base64url');
    return `${body}.${createHmac('sha256', this.macKey).update(body).digest('base64url')}`;
  }

  private open(token: string): Payload | undefined {
    const [body, mac] = token.split('.');
    if (!body || !mac || token.length > 1000) return undefined;
    const expected = createHmac('sha256', this.macKey).update(body).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const raw = Buffer.from(body, 'base64url');
      const d = createDecipheriv('aes-256-gcm', this.encKey, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(raw.length - 16));
      const json = Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString('utf8');
      const p = JSON.parse(json) as Payload;
      return typeof p.id === 'string' && typeof p.x === 'number' && typeof p.exp === 'number' ? p : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Whether a pixel (relative to the piece's top-left) is inside the piece: a square with a round knob on its right side. */
function inPiece(px: number, py: number): boolean {
  if (px >= 0 && px < PIECE_SIZE && py >= 0 && py < PIECE_SIZE) return true;
  const cx = PIECE_SIZE + KNOB / 2 - 2;
  const cy = PIECE_SIZE / 2;
  return (px - cx) ** 2 + (py - cy) ** 2 <= KNOB ** 2;
}

const PIECE_W = PIECE_SIZE + KNOB + 4;

/** Draws the background (with the hole) and the piece as RGBA rasters, wrapped in SVG data URLs. */
export function drawChallenge(x: number, y: number): { background: string; piece: string } {
  const W = CAPTCHA_WIDTH;
  const H = CAPTCHA_HEIGHT;
  const img = Buffer.alloc(W * H * 4);
  // A random two-colour gradient with soft discs: varied enough that the hole is the only dark piece shape.
  const hue = randomInt(0, 360);
  const c1 = hsl(hue, 0.55, 0.62);
  const c2 = hsl((hue + 60 + randomInt(0, 120)) % 360, 0.55, 0.5);
  const discs = Array.from({ length: 9 }, () => ({ cx: randomInt(0, W), cy: randomInt(0, H), r: randomInt(10, 40), c: hsl(randomInt(0, 360), 0.5, 0.6), a: 0.35 }));
  for (let j = 0; j < H; j++)
    for (let i = 0; i < W; i++) {
      const t = (i + j) / (W + H);
      let r = c1[0] * (1 - t) + c2[0] * t;
      let g = c1[1] * (1 - t) + c2[1] * t;
      let b = c1[2] * (1 - t) + c2[2] * t;
      for (const d of discs)
        if ((i - d.cx) ** 2 + (j - d.cy) ** 2 <= d.r ** 2) {
          r = r * (1 - d.a) + d.c[0] * d.a;
          g = g * (1 - d.a) + d.c[1] * d.a;
          b = b * (1 - d.a) + d.c[2] * d.a;
        }
      const o = (j * W + i) * 4;
      img[o] = r;
      img[o + 1] = g;
      img[o + 2] = b;
      img[o + 3] = 255;
    }
  // Cut the piece from the clean picture before drawing the hole.
  const piece = Buffer.alloc(PIECE_W * PIECE_SIZE * 4);
  for (let j = 0; j < PIECE_SIZE; j++)
    for (let i = 0; i < PIECE_W; i++) {
      if (!inPiece(i, j)) continue;
      const src = ((y + j) * W + (x + i)) * 4;
      const dst = (j * PIECE_W + i) * 4;
      const edge = !inPiece(i - 2, j) || !inPiece(i + 2, j) || !inPiece(i, j - 2) || !inPiece(i, j + 2);
      piece[dst] = edge ? 255 : img[src];
      piece[dst + 1] = edge ? 255 : img[src + 1];
      piece[dst + 2] = edge ? 255 : img[src + 2];
      piece[dst + 3] = 255;
    }
  for (let j = 0; j < PIECE_SIZE; j++)
    for (let i = 0; i < PIECE_W; i++) {
      if (!inPiece(i, j)) continue;
      const o = ((y + j) * W + (x + i)) * 4;
      const edge = !inPiece(i - 1, j) || !inPiece(i + 1, j) || !inPiece(i, j - 1) || !inPiece(i, j + 1);
      for (let k = 0; k < 3; k++) img[o + k] = edge ? 240 : img[o + k] * 0.45;
    }
  return {
    background: svgDataUrl(W, H, png(W, H, img)),
    piece: svgDataUrl(PIECE_W, PIECE_SIZE, png(PIECE_W, PIECE_SIZE, piece)),
  };
}

function svgDataUrl(w: number, h: number, pngBytes: Buffer): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><image width="${w}" height="${h}" href="data:image/png;base64,${pngBytes.toString('base64')}"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = -1;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A minimal PNG encoder (8-bit RGBA, no filtering): enough for these small pictures without an image library. */
export function png(w: number, h: number, rgba: Buffer): Buffer {
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let j = 0; j < h; j++) rgba.copy(raw, j * (w * 4 + 1) + 1, j * w * 4, (j + 1) * w * 4);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
