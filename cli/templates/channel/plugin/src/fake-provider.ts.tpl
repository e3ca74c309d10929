import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sign, SIGNATURE_HEADER } from './index.ts';

export interface FakeSent {
  id: string;
  to: string;
  text: string;
  media?: { name: string; mimetype: string; size: number };
  buttons?: { label: string; value: string }[];
}

/**
 * A local __LABEL__ provider for tests: real HTTP on 127.0.0.1 speaking the
 * same wire format as the adapter (`GET /me`, `POST|DELETE /webhook`, `POST
 * /messages`), delivering customer messages and receipts to the registered
 * webhook with the HMAC signature. It records what the adapter sent (once per
 * idempotency key) and can refuse sends or fail one temporarily.
 */
export class FakeProvider {
  readonly token = `tok_${randomUUID().replace(/-/g, '')}`;
  readonly number = '+5511955550000';
  readonly sent: FakeSent[] = [];
  webhook?: { url: string; secret: string };
  private server!: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly byKey = new Map<string, FakeSent>();
  private readonly rejected = new Set<string>();
  private readonly failing = new Set<string>();

  static async start(): Promise<FakeProvider> {
    const f = new FakeProvider();
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

  /** Refuse every send whose text equals `text` (400). */
  reject(text: string) {
    this.rejected.add(text);
  }

  /** Fail the next send whose text equals `text` with a 503, then accept it. */
  failOnce(text: string) {
    this.failing.add(text);
  }

  /** A customer writes; `id` is the provider's message id (the same id again is a redelivery). */
  async customerMessage(id: string, from: { id: string; name: string }, text?: string, media?: { name: string; mimetype: string; data: Buffer }) {
    await this.post({ type: 'message', id, from, text, media: media ? { name: media.name, mimetype: media.mimetype, data: media.data.toString('base64') } : undefined });
  }

  /** A delivery receipt for a message the adapter sent. */
  async receipt(id: string, status: 'sent' | 'delivered' | 'read') {
    await this.post({ type: 'status', id, status });
  }

  /** Posts to the webhook with the signature, retrying like a real provider while it answers non-2xx. */
  private async post(event: unknown) {
    if (!this.webhook) throw new Error('fake provider: no webhook registered (is the channel connected?)');
    const raw = JSON.stringify(event);
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(this.webhook.url, { method: 'POST', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(this.webhook.secret, raw) }, body: raw }).catch(() => undefined);
      if (res?.ok) return;
      if (attempt >= 20) throw new Error(`fake provider: webhook kept failing (${res?.status})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private json(res: http.ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.headers.authorization !== `Bearer ${this.token}`) return this.json(res, 401, { error: 'invalid token' });
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
    const route = `${req.method} ${req.url}`;
    if (route === 'GET /me') return this.json(res, 200, { id: 'acct-1', number: this.number });
    if (route === 'POST /webhook') {
      this.webhook = { url: String(body.url), secret: String(body.secret) };
      return this.json(res, 200, { ok: true });
    }
    if (route === 'DELETE /webhook') {
      this.webhook = undefined;
      return this.json(res, 200, { ok: true });
    }
    if (route === 'POST /messages') {
      const text = String(body.text ?? '');
      if (this.rejected.has(text)) return this.json(res, 400, { error: 'recipient refused the message' });
      if (this.failing.delete(text)) return this.json(res, 503, { error: 'temporarily unavailable' });
      const key = String(body.idempotencyKey ?? randomUUID());
      let sent = this.byKey.get(key);
      if (!sent) {
        const media = body.media as { name: string; mimetype: string; data?: string } | undefined;
        sent = {
          id: `msg-${randomUUID()}`,
          to: String(body.to),
          text,
          media: media ? { name: media.name, mimetype: media.mimetype, size: media.data ? Buffer.from(media.data, 'base64').length : 0 } : undefined,
          buttons: body.buttons as FakeSent['buttons'],
        };
        this.byKey.set(key, sent);
        this.sent.push(sent);
      }
      return this.json(res, 200, { id: sent.id });
    }
    return this.json(res, 404, { error: `no route ${route}` });
  }
}
