import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { signWebhook } from './webhook.ts';

/**
 * A local Graph API for tests and benchmarks: real HTTP on 127.0.0.1 in the
 * wire format of the WhatsApp Cloud API — phone number and account lookups,
 * `POST /{phone-number-id}/messages` (text, media by id or link, interactive
 * buttons and lists, templates, reactions, mark-as-read), multipart media
 * upload, media URL lookup and authenticated download, message templates
 * with cursor paging, and Graph's error bodies
 * `{error: {message, type, code, error_subcode, error_data, fbtrace_id}}`.
 * It also plays Meta's side of the webhook: the verification handshake and
 * event notifications signed with the app secret (`X-Hub-Signature-256`).
 */

export interface FakeSentMessage {
  providerId: string;
  to: string;
  type: string;
  text?: string;
  previewUrl?: boolean;
  caption?: string;
  media?: { type: string; id?: string; link?: string; filename?: string; mimetype?: string; size?: number; name?: string };
  buttons?: { label: string; value: string }[];
  interactive?: 'button' | 'list';
  template?: { name: string; language: string; components?: unknown[] };
  reaction?: { messageId: string; emoji: string };
  contextId?: string;
  raw: Record<string, unknown>;
}

interface StoredMedia {
  id: string;
  data: Buffer;
  mimetype: string;
  name: string;
  sha256: string;
}

export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: unknown[];
}

export interface InboundSpec {
  id?: string;
  from: string;
  name?: string;
  text?: string;
  media?: { kind: 'image' | 'audio' | 'video' | 'document' | 'sticker'; name: string; mimetype: string; data: Buffer; caption?: string };
  /** Any other Cloud API message object (`location`, `contacts`, `interactive`, `button`, `reaction`…), merged as is. */
  raw?: Record<string, unknown>;
  contextId?: string;
  /** The customer forwarded it (Meta's `context.forwarded`). */
  forwarded?: boolean;
}

const fbtrace = () => randomBytes(8).toString('base64url');
const graphError = (code: number, message: string, type = 'OAuthException', extra: Record<string, unknown> = {}) => ({ error: { message, type, code, ...extra, fbtrace_id: fbtrace() } });

export class FakeGraphApi {
  readonly token = `EAAG${randomBytes(24).toString('hex')}`;
  readonly appSecret = randomBytes(16).toString('hex');
  readonly phoneNumberId = String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999));
  readonly businessAccountId = String(200_000_000_000_000 + Math.floor(Math.random() * 799_999_999_999_999));
  displayPhoneNumber = '+55 11 4000-1234';
  readonly sent: FakeSentMessage[] = [];
  readonly readMarks: string[] = [];
  readonly templates: FakeTemplate[] = [];
  /** Request counts per `METHOD path-kind`, for assertions. */
  readonly calls = new Map<string, number>();
  url = '';
  private server!: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly media = new Map<string, StoredMedia>();
  private readonly rejected = new Set<string>();
  private readonly failing = new Set<string>();
  private dropped = false;
  private seq = 0;

  static async start(): Promise<FakeGraphApi> {
    const f = new FakeGraphApi();
    await f.listen();
    return f;
  }

  private async listen() {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((err) => {
        if (!res.headersSent) this.json(res, 500, graphError(1, `fake: ${(err as Error).message}`, 'OAuthException'));
      });
    });
    this.server.keepAliveTimeout = 1000;
    this.server.on('connection', (s) => {
      if (this.dropped) {
        s.destroy();
        return;
      }
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((r) => this.server.close(() => r()));
  }

  /** From now on, refuse sends whose text or caption equals `body` as Meta does for a number that cannot receive (131026). */
  reject(body: string) {
    this.rejected.add(body);
  }

  /** The next send of `body` fails once with Graph's temporary error (131000, HTTP 500). */
  failOnce(body: string) {
    this.failing.add(body);
  }

  /** Graph becomes unreachable: open connections are cut and new ones refused. */
  drop() {
    this.dropped = true;
    for (const s of this.sockets) s.destroy();
  }

  restore() {
    this.dropped = false;
  }

  addTemplate(t: Partial<FakeTemplate> & { name: string }): FakeTemplate {
    const tpl: FakeTemplate = {
      id: String(900_000_000 + this.templates.length),
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: `Olá {{1}}, modelo ${t.name}` }],
      ...t,
    };
    this.templates.push(tpl);
    return tpl;
  }

  /** A file "on Meta's servers", as a customer's upload is: returns its media id. */
  storeMedia(data: Buffer, mimetype: string, name = 'arquivo'): string {
    const id = String(700_000_000_000_000 + ++this.seq);
    this.media.set(id, { id, data, mimetype, name, sha256: createHash('sha256').update(data).digest('base64') });
    return id;
  }

  private count(key: string) {
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  private json(res: http.ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text), ...(status === 401 ? { 'www-authenticate': 'OAuth "Facebook Platform" "invalid_token"' } : {}) });
    res.end(text);
  }

  private async body(req: http.IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const u = new URL(req.url ?? '/', this.url);
    const parts = u.pathname.split('/').filter(Boolean);
    const raw = await this.body(req);
    if (parts[0] === 'media-download') {
      this.count('GET download');
      if (req.headers.authorization !== `Bearer ${this.token}`) return this.json(res, 401, graphError(190, 'Invalid OAuth access token - Cannot parse access token'));
      const m = this.media.get(parts[1] ?? '');
      if (!m) return this.json(res, 404, graphError(100, 'Media not found', 'GraphMethodException'));
      res.writeHead(200, { 'content-type': m.mimetype, 'content-length': m.data.length });
      return res.end(m.data);
    }
    const [version, object, edge] = parts;
    if (!version || !/^v\d+\.\d+$/.test(version)) return this.json(res, 400, graphError(2500, 'Unknown path components', 'OAuthException'));
    if (req.headers.authorization !== `Bearer ${this.token}`) return this.json(res, 401, graphError(190, 'Invalid OAuth access token - Cannot parse access token'));
    const unknown = () => this.json(res, 400, graphError(100, `Unsupported ${req.method?.toLowerCase()} request. Object with ID '${object}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 'GraphMethodException', { error_subcode: 33 }));

    if (req.method === 'GET' && object === this.phoneNumberId && !edge) {
      this.count('GET phone');
      return this.json(res, 200, { id: this.phoneNumberId, display_phone_number: this.displayPhoneNumber, verified_name: 'Atende Teste', quality_rating: 'GREEN' });
    }
    if (req.method === 'GET' && object === this.businessAccountId && !edge) {
      this.count('GET account');
      return this.json(res, 200, { id: this.businessAccountId, name: 'Conta Atende Teste' });
    }
    if (req.method === 'GET' && object === this.businessAccountId && edge === 'message_templates') return this.listTemplates(u, res);
    if (req.method === 'GET' && object && this.media.has(object) && !edge) {
      this.count('GET media');
      const m = this.media.get(object)!;
      return this.json(res, 200, { messaging_product: 'whatsapp', url: `${this.url}/media-download/${m.id}?ext=${Date.now()}`, mime_type: m.mimetype, sha256: m.sha256, file_size: m.data.length, id: m.id });
    }
    if (req.method === 'POST' && object === this.phoneNumberId && edge === 'media') return this.upload(req, raw, res);
    if (req.method === 'POST' && object === this.phoneNumberId && edge === 'messages') return this.messages(raw, res);
    return unknown();
  }

  private listTemplates(u: URL, res: http.ServerResponse) {
    this.count('GET templates');
    const limit = Math.min(Number(u.searchParams.get('limit') ?? 25) || 25, 250);
    const after = u.searchParams.get('after');
    const start = after ? Number(Buffer.from(after, 'base64url').toString()) : 0;
    const data = this.templates.slice(start, start + limit);
    const end = start + data.length;
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(end) } };
    if (end < this.templates.length) paging.next = `${this.url}${u.pathname}?limit=${limit}&after=${cursor(end)}`;
    return this.json(res, 200, { data, paging });
  }

  private async upload(req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse) {
    this.count('POST media');
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    } catch {
      return this.json(res, 400, graphError(100, '(#100) The parameter file is required.'));
    }
    const file = form.get('file');
    if (form.get('messaging_product') !== 'whatsapp') return this.json(res, 400, graphError(100, '(#100) The parameter messaging_product is required.'));
    if (!file || typeof file === 'string') return this.json(res, 400, graphError(100, '(#100) The parameter file is required.'));
    const type = String(form.get('type') ?? file.type);
    const id = this.storeMedia(Buffer.from(await file.arrayBuffer()), type, (file as File).name);
    return this.json(res, 200, { id });
  }

  private messages(raw: Buffer, res: http.ServerResponse) {
    let p: Record<string, any>;
    try {
      p = JSON.parse(raw.toString('utf8'));
    } catch {
      return this.json(res, 400, graphError(100, '(#100) Invalid parameter'));
    }
    if (p.messaging_product !== 'whatsapp') return this.json(res, 400, graphError(100, '(#100) The parameter messaging_product is required.'));
    if (p.status === 'read') {
      this.count('POST read');
      if (typeof p.message_id !== 'string') return this.json(res, 400, graphError(100, '(#100) The parameter message_id is required.'));
      this.readMarks.push(p.message_id);
      return this.json(res, 200, { success: true });
    }
    this.count('POST messages');
    if (typeof p.to !== 'string' || !p.to) return this.json(res, 400, graphError(100, '(#100) The parameter to is required.'));
    const type = String(p.type ?? 'text');
    const obj = p[type] as Record<string, any> | undefined;
    if (!obj) return this.json(res, 400, graphError(100, `(#100) Param ${type} is required`));
    const s: FakeSentMessage = { providerId: `wamid.${Buffer.from(`${p.to}:${randomUUID()}`).toString('base64url')}`, to: p.to, type, raw: p, contextId: p.context?.message_id };
    if (type === 'text') {
      if (typeof obj.body !== 'string' || !obj.body) return this.json(res, 400, graphError(100, '(#100) Param text[\'body\'] is required'));
      if (obj.body.length > 4096) return this.json(res, 400, graphError(100, '(#100) Param text[\'body\'] must be at most 4096 characters long.'));
      s.text = obj.body;
      s.previewUrl = !!obj.preview_url;
    } else if (['image', 'audio', 'video', 'document', 'sticker'].includes(type)) {
      const stored = obj.id ? this.media.get(String(obj.id)) : undefined;
      if (obj.id && !stored) return this.json(res, 400, graphError(131053, 'Media upload error', 'OAuthException', { error_data: { messaging_product: 'whatsapp', details: 'Unable to find media' } }));
      if (!obj.id && !obj.link) return this.json(res, 400, graphError(100, `(#100) Param ${type}['id'] or ${type}['link'] is required`));
      s.caption = obj.caption;
      s.media = { type, id: obj.id, link: obj.link, filename: obj.filename, mimetype: stored?.mimetype, size: stored?.data.length, name: stored?.name };
    } else if (type === 'interactive') {
      if (!obj.body?.text) return this.json(res, 400, graphError(100, '(#100) Param interactive[\'body\'][\'text\'] is required'));
      s.text = obj.body.text;
      s.interactive = obj.type;
      if (obj.type === 'button') {
        const buttons = obj.action?.buttons ?? [];
        if (buttons.length < 1 || buttons.length > 3) return this.json(res, 400, graphError(131009, '(#131009) Parameter value is not valid', 'OAuthException', { error_data: { details: 'Buttons count should be between 1 and 3' } }));
        if (buttons.some((b: any) => !b.reply?.title || b.reply.title.length > 20)) return this.json(res, 400, graphError(131009, '(#131009) Parameter value is not valid', 'OAuthException', { error_data: { details: 'Button title length invalid. Max length is 20' } }));
        s.buttons = buttons.map((b: any) => ({ label: b.reply.title, value: b.reply.id }));
      } else if (obj.type === 'list') {
        const rows = (obj.action?.sections ?? []).flatMap((x: any) => x.rows ?? []);
        if (!obj.action?.button || rows.length < 1 || rows.length > 10) return this.json(res, 400, graphError(131009, '(#131009) Parameter value is not valid', 'OAuthException', { error_data: { details: 'Total row count exceed max allowed count: 10' } }));
        if (rows.some((r: any) => !r.title || r.title.length > 24)) return this.json(res, 400, graphError(131009, '(#131009) Parameter value is not valid', 'OAuthException', { error_data: { details: 'Row title length invalid. Max length is 24' } }));
        s.buttons = rows.map((r: any) => ({ label: r.description ?? r.title, value: r.id }));
      }
    } else if (type === 'template') {
      const tpl = this.templates.find((t) => t.name === obj.name && t.language === obj.language?.code);
      if (!tpl || tpl.status !== 'APPROVED') return this.json(res, 404, graphError(132001, '(#132001) Template name does not exist in the translation', 'OAuthException', { error_data: { messaging_product: 'whatsapp', details: `template name (${obj.name}) does not exist in ${obj.language?.code}` } }));
      s.template = { name: obj.name, language: obj.language.code, components: obj.components };
    } else if (type === 'reaction') {
      s.reaction = { messageId: obj.message_id, emoji: obj.emoji };
    } else {
      return this.json(res, 400, graphError(100, `(#100) Param type '${type}' is not valid`));
    }
    const key = s.text ?? s.caption;
    if (key !== undefined && this.failing.delete(key)) return this.json(res, 500, graphError(131000, '(#131000) Something went wrong', 'OAuthException', { error_data: { messaging_product: 'whatsapp', details: 'Something went wrong' } }));
    if (key !== undefined && this.rejected.has(key)) return this.json(res, 400, graphError(131026, '(#131026) Message Undeliverable.', 'OAuthException', { error_data: { messaging_product: 'whatsapp', details: 'Message Undeliverable.' } }));
    this.sent.push(s);
    return this.json(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: p.to, wa_id: p.to }], messages: [{ id: s.providerId }] });
  }

  // ---------------------------------------------------------------- Meta's side of the webhook

  /** Meta's verification handshake against a callback URL: the challenge echoed back means the URL is accepted. */
  async verify(callbackUrl: string, verifyToken: string): Promise<{ status: number; body: string; challenge: string }> {
    const challenge = String(Math.floor(Math.random() * 1e9));
    const u = new URL(callbackUrl);
    u.searchParams.set('hub.mode', 'subscribe');
    u.searchParams.set('hub.verify_token', verifyToken);
    u.searchParams.set('hub.challenge', challenge);
    const res = await fetch(u);
    return { status: res.status, body: await res.text(), challenge };
  }

  /** A notification body for this number: `messages` and/or `statuses` in one change. */
  notification(value: { contacts?: unknown[]; messages?: unknown[]; statuses?: unknown[] }, phoneNumberId = this.phoneNumberId) {
    return {
      object: 'whatsapp_business_account',
      entry: [{ id: this.businessAccountId, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: this.displayPhoneNumber.replace(/\D/g, ''), phone_number_id: phoneNumberId }, ...value } }] }],
    };
  }

  /** A customer's message as Meta notifies it (media is first stored here, so the adapter downloads it through Graph). */
  inboundMessage(spec: InboundSpec) {
    const id = spec.id ?? `wamid.${Buffer.from(`${spec.from}:${randomUUID()}`).toString('base64url')}`;
    const message: Record<string, unknown> = { from: spec.from, id, timestamp: String(Math.floor(Date.now() / 1000)) };
    if (spec.contextId) message.context = { from: spec.from, id: spec.contextId };
    if (spec.forwarded) message.context = { ...(message.context as object | undefined), forwarded: true };
    if (spec.media) {
      const mediaId = this.storeMedia(spec.media.data, spec.media.mimetype, spec.media.name);
      const caption = spec.media.caption ?? spec.text;
      message.type = spec.media.kind;
      message[spec.media.kind] = { id: mediaId, mime_type: spec.media.mimetype, sha256: this.media.get(mediaId)!.sha256, ...(caption && spec.media.kind !== 'audio' && spec.media.kind !== 'sticker' ? { caption } : {}), ...(spec.media.kind === 'document' ? { filename: spec.media.name } : {}) };
    } else if (spec.raw) {
      Object.assign(message, spec.raw);
    } else {
      message.type = 'text';
      message.text = { body: spec.text ?? '' };
    }
    return this.notification({ contacts: [{ profile: { name: spec.name ?? 'Cliente' }, wa_id: spec.from }], messages: [message] });
  }

  statusUpdate(providerId: string, status: 'sent' | 'delivered' | 'read' | 'failed', recipient = '5511999999999', error?: { code: number; title: string }) {
    return this.notification({
      statuses: [{ id: providerId, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: recipient, ...(error ? { errors: [{ code: error.code, title: error.title, message: error.title }] } : {}) }],
    });
  }

  /** POSTs a notification to the app as Meta does: JSON body signed with the app secret (or a given signature). */
  async deliver(callbackUrl: string, body: unknown, opts: { signature?: string | null; appSecret?: string } = {}): Promise<{ status: number; body: string }> {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const signature = opts.signature === undefined ? signWebhook(opts.appSecret ?? this.appSecret, raw) : opts.signature;
    const res = await fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature !== null ? { 'x-hub-signature-256': signature } : {}) }, body: raw });
    return { status: res.status, body: await res.text() };
  }
}
