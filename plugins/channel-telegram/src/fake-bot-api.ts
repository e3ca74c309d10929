import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local Telegram Bot API for tests: real HTTP on 127.0.0.1, Telegram's
 * wire format (`/bot<token>/<method>`, `{ok, result}` / `{ok: false,
 * error_code, description}`, multipart uploads, `/file/bot<token>/<path>`
 * downloads, long polling, webhooks with `X-Telegram-Bot-Api-Secret-Token`).
 * It records what the bot sent and can refuse sends, fail once, or drop
 * every connection, so the channel's behaviour can be checked end to end.
 */

export interface FakeSent {
  method: string;
  chatId: string;
  text?: string;
  caption?: string;
  /** Formatting of the text or caption (`entities` / `caption_entities`), as Telegram would apply it. */
  entities?: { type: string; offset: number; length: number }[];
  buttons?: { label: string; value: string }[];
  file?: { field: string; name: string; mimetype: string; size: number };
  messageId: number;
  replyTo?: number;
}

interface QueuedUpdate {
  update: Record<string, unknown> & { update_id: number };
  /** A redelivery the fake hands out again even if its id was already confirmed (at-least-once delivery). */
  replay: boolean;
}

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

function parseMultipart(body: Buffer, contentType: string): Part[] {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) return [];
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: Part[] = [];
  let pos = body.indexOf(boundary);
  while (pos !== -1) {
    const start = pos + boundary.length;
    if (body.slice(start, start + 2).toString() === '--') break;
    const next = body.indexOf(boundary, start);
    if (next === -1) break;
    const chunk = body.slice(start + 2, next - 2);
    const headerEnd = chunk.indexOf('\r\n\r\n');
    const headers = chunk.slice(0, headerEnd).toString();
    const data = chunk.slice(headerEnd + 4);
    const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    const ct = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
    parts.push({ name, filename, contentType: ct, data });
    pos = next;
  }
  return parts;
}

/**
 * Entities as Telegram checks them: a JSON array (a string in multipart
 * uploads) of ranges inside the text; one out of range is a 400, as it is there.
 */
function entitiesIn(raw: unknown, text: string): FakeSent['entities'] {
  if (raw === undefined) return undefined;
  const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as FakeSent['entities'];
  for (const e of list ?? []) {
    if (!(e.offset >= 0 && e.length > 0 && e.offset + e.length <= text.length)) throw { status: 400, description: "Bad Request: can't parse entities" };
  }
  return list;
}

const MEDIA_METHODS: Record<string, string> = { sendPhoto: 'photo', sendDocument: 'document', sendVideo: 'video', sendAudio: 'audio', sendVoice: 'voice' };

export class FakeBotApi {
  readonly token = `${Math.floor(100000 + Math.random() * 900000)}:AA${randomUUID().replace(/-/g, '')}`;
  readonly bot = { id: Math.floor(1e9 + Math.random() * 1e9), is_bot: true, first_name: 'Atende Teste', username: 'atende_teste_bot' };
  readonly sent: FakeSent[] = [];
  webhook?: { url: string; secretToken?: string };
  private server!: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly queue: QueuedUpdate[] = [];
  private readonly pollers = new Set<() => void>();
  private readonly files = new Map<string, { path: string; data: Buffer }>();
  private readonly rejected = new Set<string>();
  private readonly failing = new Set<string>();
  /** Stable update/message ids per test message id, so a redelivery is the same update. */
  private readonly inboundIds = new Map<string, { updateId: number; messageId: number }>();
  private nextUpdateId = 1000;
  private nextMessageId = 500;
  private confirmed = 0;
  private dropped = false;
  /** Counts of calls by method, for assertions. */
  readonly calls = new Map<string, number>();

  static async start(): Promise<FakeBotApi> {
    const f = new FakeBotApi();
    f.server = http.createServer((req, res) => void f.handle(req, res));
    f.server.on('connection', (s) => {
      f.sockets.add(s);
      s.on('close', () => f.sockets.delete(s));
    });
    await new Promise<void>((resolve) => f.server.listen(0, '127.0.0.1', resolve));
    return f;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Refuse every send whose text or caption equals `text` (400 Bad Request). */
  reject(text: string) {
    this.rejected.add(text);
  }

  /** Fail the next send whose text or caption equals `text` with a 502, then accept it. */
  failOnce(text: string) {
    this.failing.add(text);
  }

  /** Every connection is cut and new ones are reset until `restore`. */
  drop() {
    this.dropped = true;
    for (const s of this.sockets) s.destroy();
    for (const wake of this.pollers) wake();
  }

  restore() {
    this.dropped = false;
  }

  /**
   * A customer writes to the bot. `key` identifies the message: the same key
   * again is a redelivery of the same update (same update_id and message_id).
   */
  async customerMessage(
    key: string,
    from: { id: string; name: string },
    content: { text?: string; media?: { kind: 'image' | 'document' | 'audio' | 'video'; name: string; mimetype: string; data: Buffer } },
    chat?: { id: string; title: string },
  ): Promise<void> {
    let ids = this.inboundIds.get(key);
    const replay = !!ids;
    if (!ids) this.inboundIds.set(key, (ids = { updateId: ++this.nextUpdateId, messageId: ++this.nextMessageId }));
    const [first, ...rest] = from.name.split(' ');
    const message: Record<string, unknown> = {
      message_id: ids.messageId,
      date: Math.floor(Date.now() / 1000),
      from: { id: Number(from.id), is_bot: false, first_name: first, last_name: rest.join(' ') || undefined },
      chat: chat ? { id: Number(chat.id), type: 'group', title: chat.title } : { id: Number(from.id), type: 'private', first_name: first, last_name: rest.join(' ') || undefined },
    };
    if (content.media) {
      const fileId = `file-${randomUUID()}`;
      const path = `${content.media.kind}s/${fileId}-${content.media.name}`;
      this.files.set(fileId, { path, data: content.media.data });
      const file = { file_id: fileId, file_unique_id: fileId.slice(0, 12), file_size: content.media.data.length };
      if (content.media.kind === 'image') message.photo = [{ ...file, width: 1, height: 1 }];
      else if (content.media.kind === 'audio') message.voice = { ...file, duration: 1, mime_type: content.media.mimetype };
      else message[content.media.kind] = { ...file, file_name: content.media.name, mime_type: content.media.mimetype };
      if (content.text) message.caption = content.text;
    } else message.text = content.text ?? '';
    await this.deliver({ update_id: ids.updateId, message }, replay);
  }

  /** A customer presses an inline button under one of the bot's messages. */
  async buttonPress(from: { id: string; name: string }, data: string): Promise<void> {
    await this.deliver({ update_id: ++this.nextUpdateId, callback_query: { id: randomUUID(), from: { id: Number(from.id), is_bot: false, first_name: from.name }, message: { message_id: ++this.nextMessageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(from.id), type: 'private' } }, data } }, false);
  }

  /** Webhook set: POST it there with the secret token, retrying like Telegram on failures. Otherwise queue it for getUpdates. */
  private async deliver(update: QueuedUpdate['update'], replay: boolean): Promise<void> {
    if (this.webhook) {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(this.webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(this.webhook.secretToken ? { 'x-telegram-bot-api-secret-token': this.webhook.secretToken } : {}) },
          body: JSON.stringify(update),
        }).catch(() => undefined);
        if (res?.ok) return;
        if (attempt >= 20) throw new Error(`fake Bot API: webhook kept failing (${res?.status})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    this.queue.push({ update, replay });
    for (const wake of this.pollers) wake();
  }

  async close(): Promise<void> {
    for (const wake of this.pollers) wake();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    if (this.dropped) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://x');
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file) {
      const hit = file[1] === this.token ? [...this.files.values()].find((f) => f.path === decodeURIComponent(file[2])) : undefined;
      if (!hit) return this.json(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': hit.data.length });
      res.end(hit.data);
      return;
    }
    const call = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
    if (!call) return this.json(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (call[1] !== this.token) return this.json(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = call[2];
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    const ct = req.headers['content-type'] ?? '';
    let params: Record<string, unknown> = Object.fromEntries(url.searchParams);
    let upload: Part | undefined;
    if (ct.includes('application/json') && raw.length) params = { ...params, ...(JSON.parse(raw.toString()) as Record<string, unknown>) };
    else if (ct.includes('multipart/form-data')) {
      for (const p of parseMultipart(raw, ct)) {
        if (p.filename !== undefined) upload = p;
        else {
          const v = p.data.toString();
          try {
            params[p.name] = /^[[{]/.test(v) ? JSON.parse(v) : v;
          } catch {
            params[p.name] = v;
          }
        }
      }
    }
    try {
      const result = await this.method(method, params, upload, res);
      if (result !== undefined && !res.headersSent) this.json(res, 200, { ok: true, result });
    } catch (err) {
      const e = err as { status?: number; description?: string; retryAfter?: number };
      if (!res.headersSent) this.json(res, e.status ?? 500, { ok: false, error_code: e.status ?? 500, description: e.description ?? String(err), ...(e.retryAfter ? { parameters: { retry_after: e.retryAfter } } : {}) });
    }
  }

  private json(res: http.ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private checkSend(text: string | undefined) {
    if (text !== undefined && this.rejected.has(text)) throw { status: 400, description: 'Bad Request: message was rejected by the recipient settings' };
    if (text !== undefined && this.failing.delete(text)) throw { status: 502, description: 'Bad Gateway' };
  }

  private async method(method: string, p: Record<string, unknown>, upload: Part | undefined, res: http.ServerResponse): Promise<unknown> {
    switch (method) {
      case 'getMe':
        return this.bot;
      case 'setWebhook':
        if (!p.url) throw { status: 400, description: 'Bad Request: bad webhook: URL is empty' };
        this.webhook = { url: String(p.url), secretToken: p.secret_token ? String(p.secret_token) : undefined };
        return true;
      case 'deleteWebhook':
        this.webhook = undefined;
        return true;
      case 'getWebhookInfo':
        return { url: this.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: this.queue.length };
      case 'getUpdates':
        return this.getUpdates(p, res);
      case 'sendMessage': {
        const text = String(p.text ?? '');
        this.checkSend(text);
        const markup = p.reply_markup as { inline_keyboard?: { text: string; callback_data: string }[][] } | undefined;
        const replyTo = (p.reply_parameters as { message_id?: number } | undefined)?.message_id;
        return this.record({ method, chatId: String(p.chat_id), text, entities: entitiesIn(p.entities, text), buttons: markup?.inline_keyboard?.flat().map((b) => ({ label: b.text, value: b.callback_data })), replyTo });
      }
      case 'sendPhoto':
      case 'sendDocument':
      case 'sendVideo':
      case 'sendAudio':
      case 'sendVoice': {
        const caption = p.caption === undefined ? undefined : String(p.caption);
        this.checkSend(caption);
        const field = MEDIA_METHODS[method];
        if (!upload || upload.name !== field) throw { status: 400, description: `Bad Request: there is no ${field} in the request` };
        return this.record({ method, chatId: String(p.chat_id), caption, entities: entitiesIn(p.caption_entities, caption ?? ''), file: { field, name: upload.filename ?? '', mimetype: upload.contentType ?? 'application/octet-stream', size: upload.data.length } });
      }
      case 'editMessageText':
      case 'deleteMessage':
      case 'setMessageReaction':
      case 'answerCallbackQuery':
        return true;
      case 'getFile': {
        const f = this.files.get(String(p.file_id));
        if (!f) throw { status: 400, description: 'Bad Request: invalid file_id' };
        return { file_id: p.file_id, file_unique_id: String(p.file_id).slice(0, 12), file_size: f.data.length, file_path: f.path };
      }
      default:
        throw { status: 404, description: 'Not Found: method not found' };
    }
  }

  private record(s: Omit<FakeSent, 'messageId'>) {
    const messageId = ++this.nextMessageId;
    this.sent.push({ ...s, messageId });
    return { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(s.chatId), type: 'private' }, ...(s.text !== undefined ? { text: s.text } : {}), ...(s.caption !== undefined ? { caption: s.caption } : {}) };
  }

  /** Long polling with offset confirmation: an update is handed out until a later call's offset passes it. */
  private async getUpdates(p: Record<string, unknown>, res: http.ServerResponse): Promise<unknown> {
    if (this.webhook) throw { status: 409, description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first" };
    const offset = Number(p.offset ?? 0);
    if (offset > this.confirmed) this.confirmed = offset;
    const timeoutMs = Math.min(Number(p.timeout ?? 0), 50) * 1000;
    const ready = () => this.queue.filter((q) => q.update.update_id >= this.confirmed || q.replay);
    let out = ready();
    if (!out.length && timeoutMs > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.pollers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, timeoutMs);
        this.pollers.add(wake);
        res.on('close', wake);
      });
      if (this.dropped || res.destroyed) return undefined;
      out = ready();
    }
    // Handed-out replays are gone; confirmed updates are forgotten.
    for (const q of out) if (q.replay) this.queue.splice(this.queue.indexOf(q), 1);
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].update.update_id < this.confirmed && !this.queue[i].replay) this.queue.splice(i, 1);
    return out.map((q) => q.update);
  }
}
