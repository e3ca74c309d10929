/**
 * The channel conformance kit: one suite every channel plugin runs against
 * its own fake provider, through the real app (real PostgreSQL, jobs,
 * sockets). A third-party author writes a {@link FakeProvider} for their
 * provider, calls {@link runChannelConformance} from a `*.test.ts` file, and
 * gets the same checks the built-in channels pass:
 *
 * - lifecycle: creating a channel connects it and the status reaches an
 *   admin's socket live (`channel.updated`); disconnect and connect again,
 *   each with a newer last-update time; credentials never in answers;
 * - inbound text and media (media stored by the kernel and served back
 *   byte for byte), duplicates (one provider message delivered three
 *   times is stored once);
 * - outbound text, media and buttons where the adapter declares them: the
 *   fake must record what it received, exactly once;
 * - error mapping: a provider refusal leaves the message `failed` with the
 *   provider's reason and an ERR_* catalogue code; a temporary failure is
 *   retried and delivered once;
 * - out-of-order acks never move a message backwards (providers with
 *   delivery receipts);
 * - reconnect: when the provider drops, the status leaves `connected` and
 *   comes back by itself once the provider is reachable again.
 *
 * Optional parts of the fake (`failOnce`, `drop`/`restore`, `deliverAck`)
 * turn on the matching checks; a check that does not apply is reported as
 * skipped with its reason, never silently passed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaKind } from '../sdk/channel.ts';
import { createTestApp, type Frame, type TestApp, type TestSocket, type TestUser } from './index.ts';

/** What the fake provider received from the adapter, in the provider's terms. */
export interface FakeSentMessage {
  /** The recipient as the provider saw it: the customer's id given in {@link FakeInbound.from}. */
  to: string;
  kind: 'text' | 'media' | 'buttons';
  /** The text, or a media caption. */
  body?: string;
  media?: { kind: MediaKind; name?: string; mimetype?: string; size?: number };
  buttons?: { label: string; value: string }[];
  /** The provider's id for the message, when the fake knows how the adapter reports it (`SendResult.providerId`). */
  providerId?: string;
}

/** A customer message the fake provider delivers to the adapter. */
export interface FakeInbound {
  /** Unique per provider message; delivering the same id again is a redelivery. */
  id: string;
  from: { id: string; name: string };
  text?: string;
  media?: { kind: 'image' | 'document' | 'audio' | 'video'; name: string; mimetype: string; data: Buffer };
}

/** What the kit hands the fake and the hooks once the channel exists. */
export interface ConformanceContext {
  app: TestApp;
  /** An admin of the channel's tenant (bearer headers in `admin.headers`). */
  admin: TestUser;
  channel: { id: number; tenantId: number; type: string };
  /** The app's listening base URL (`http://127.0.0.1:<port>`), for providers that call webhooks. */
  baseUrl: string;
}

/**
 * The author's stand-in for the real provider: a local server speaking the
 * provider's wire format (or, for a provider-less channel, whatever records
 * the adapter's output). The kit never looks inside it beyond these methods.
 */
export interface FakeProvider {
  /** Everything the adapter sent through the provider, oldest first. */
  sent(ctx: ConformanceContext): Promise<FakeSentMessage[]>;
  /** From now on, refuse every send whose text or caption equals `body` with a permanent provider error (bad recipient, rejected content). */
  rejectSends(ctx: ConformanceContext, body: string): Promise<void>;
  /** Optional: fail the next send whose text equals `body` once with a temporary error (5xx, rate limit), then accept it. */
  failOnce?(ctx: ConformanceContext, body: string): Promise<void>;
  /** Optional: the provider becomes unreachable (connections dropped, requests refused). */
  drop?(ctx: ConformanceContext): Promise<void>;
  /** Optional: ends a `drop`. */
  restore?(ctx: ConformanceContext): Promise<void>;
  close(): Promise<void>;
}

export interface ChannelConformanceOptions<F extends FakeProvider> {
  /** Suite title. */
  name: string;
  /** The channel plugin's id. */
  plugin: string;
  /** Other plugins the app must load beside it. */
  plugins?: string[];
  /** The install whose `plugins/` holds the plugin (default: this repository); a scaffold in another folder passes its own. */
  rootDir?: string;
  createFakeProvider(): Promise<F>;
  /** The `POST /api/channels` body that points the channel at the fake (token, base URL, mode…). */
  channelInput(fake: F, env: { baseUrl: string }): { type: string; name: string; number?: string; config?: Record<string, unknown>; secrets?: Record<string, string> };
  /** Delivers a customer message through the provider's real path (signed webhook, long-poll queue, socket event). */
  deliverInbound(fake: F, ctx: ConformanceContext, msg: FakeInbound): Promise<void>;
  /** Providers with delivery receipts: report `status` for a message the adapter sent. */
  deliverAck?(fake: F, ctx: ConformanceContext, providerId: string, status: 'sent' | 'delivered' | 'read'): Promise<void>;
  /** Upper bound for each asynchronous expectation (default 15 s). */
  timeoutMs?: number;
}

/** A 1×1 PNG, enough for providers that inspect images. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`conformance: ${what} did not happen within ${ms} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function multipartBody(fields: Record<string, string>, file: { name: string; mimetype: string; data: Buffer }) {
  const boundary = `----kit${randomUUID().replace(/-/g, '')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: ${file.mimetype}\r\n\r\n`), file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Registers the conformance suite for one channel plugin. Call it at the
 * top level of a `*.test.ts` file; it declares its own `describe` with
 * `beforeAll`/`afterAll` and runs its checks in order on one channel.
 */
export function runChannelConformance<F extends FakeProvider>(opts: ChannelConformanceOptions<F>): void {
  const timeout = opts.timeoutMs ?? 15_000;
  const state: {
    t?: TestApp;
    fake?: F;
    admin?: TestUser;
    sock?: TestSocket;
    ctx?: ConformanceContext;
    capabilities?: { media: MediaKind[]; buttons: boolean; readReceipts: boolean };
    identityKind?: string;
    customer: { id: string; name: string };
    ticketId?: number;
    secretValues: string[];
  } = { customer: { id: '', name: 'Cliente Conformidade' }, secretValues: [] };

  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`conformance: ${what} is missing (an earlier check failed)`);
    return v;
  };
  const ctx = () => need(state.ctx, 'the channel');
  const sql = () => need(state.t, 'the app').sql;
  const statusFrame = (channelId: number, pred: (status: string) => boolean, afterSeq: number) => (f: Frame) =>
    f.event === 'channel.updated' && f.data?.channel?.id === channelId && pred(f.data.channel.status) && (f.seq ?? 0) > afterSeq;
  const lastSeq = () => Math.max(0, ...need(state.sock, 'the socket').frames.map((f) => f.seq ?? 0));

  const inbound = async (msg: FakeInbound) => opts.deliverInbound(need(state.fake, 'the fake provider'), ctx(), msg);
  const messagesWithBody = async (body: string) =>
    (await sql().query<{ id: string; ticket_id: number; status: string; provider_id: string | null; type: string; media_url: string | null; failure_reason: string | null; error_code: string | null; from_me: boolean }>(
      `SELECT id::text, ticket_id, status, provider_id, type, media_url, failure_reason, data->>'errorCode' AS error_code, from_me FROM messages WHERE tenant_id = $1 AND channel_id = $2 AND body = $3 ORDER BY id`,
      [ctx().channel.tenantId, ctx().channel.id, body],
    )).rows;
  const sentWithBody = async (body: string) => (await need(state.fake, 'the fake provider').sent(ctx())).filter((s) => s.body === body);

  const sendText = async (body: string) => {
    const ticketId = need(state.ticketId, 'the ticket of the inbound text check');
    const res = await ctx().app.app.inject({ method: 'POST', url: `/api/messages/${ticketId}`, headers: ctx().admin.headers, payload: { body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  };

  describe(`channel conformance: ${opts.name}`, () => {
    beforeAll(async () => {
      state.fake = await opts.createFakeProvider();
      state.t = await createTestApp({ plugins: [opts.plugin, ...(opts.plugins ?? [])], config: opts.rootDir ? { rootDir: opts.rootDir } : undefined });
      state.admin = await state.t.loginAs('admin');
      state.sock = await state.t.openSocket(state.admin.token);
      await state.sock.next((f) => f.event === 'hello');
      state.customer.id = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    });
    afterAll(async () => {
      await state.sock?.close().catch(() => undefined);
      await state.t?.close();
      await state.fake?.close();
    });

    it('declares its channel type and capabilities', async () => {
      const t = need(state.t, 'the app');
      const input = opts.channelInput(need(state.fake, 'the fake provider'), { baseUrl: await t.baseUrl() });
      const types = await t.app.inject({ method: 'GET', url: '/api/channels/types', headers: need(state.admin, 'the admin').headers });
      const mine = (types.json() as { type: string; identityKind: string; capabilities: Record<string, unknown> }[]).find((x) => x.type === input.type);
      expect(mine, `plugin ${opts.plugin} registers channel type ${input.type}`).toBeDefined();
      for (const k of ['buttons', 'lists', 'templates', 'reactions', 'edit', 'delete', 'groups', 'qr', 'pairingCode', 'historyImport', 'readReceipts']) expect(typeof mine!.capabilities[k], `capability ${k}`).toBe('boolean');
      expect(Array.isArray(mine!.capabilities.media)).toBe(true);
      expect(mine!.identityKind).toMatch(/^[a-z][a-z0-9_-]*$/);
      state.capabilities = mine!.capabilities as never;
      state.identityKind = mine!.identityKind;
    });

    it('lifecycle: a new channel connects and its status reaches the admin live, credentials never answered', async () => {
      const t = need(state.t, 'the app');
      const admin = need(state.admin, 'the admin');
      const baseUrl = await t.baseUrl();
      const input = opts.channelInput(need(state.fake, 'the fake provider'), { baseUrl });
      state.secretValues = Object.values(input.secrets ?? {}).filter((v) => v.length >= 6);
      const before = lastSeq();
      const res = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: input });
      expect(res.statusCode, res.body).toBe(201);
      const channel = res.json() as { id: number; tenantId: number; type: string; secrets?: unknown };
      expect(channel.secrets).toBeUndefined();
      for (const v of state.secretValues) expect(res.body).not.toContain(v);
      state.ctx = { app: t, admin, channel: { id: channel.id, tenantId: channel.tenantId, type: channel.type }, baseUrl };
      const frame = await need(state.sock, 'the socket').next(statusFrame(channel.id, (s) => s === 'connected', before), timeout);
      expect(frame.data.channel.statusAt).toBeTruthy();
      const got = await t.app.inject({ method: 'GET', url: `/api/channels/${channel.id}`, headers: admin.headers });
      expect(got.json()).toMatchObject({ status: 'connected', lastError: null });
      for (const v of state.secretValues) expect(got.body).not.toContain(v);
      const list = await t.app.inject({ method: 'GET', url: '/api/channels', headers: admin.headers });
      for (const v of state.secretValues) expect(list.body).not.toContain(v);
    });

    it('lifecycle: disconnect and connect again, each with a newer last update', async () => {
      const { app, admin, channel } = ctx();
      const sock = need(state.sock, 'the socket');
      const first = new Date((await app.app.inject({ method: 'GET', url: `/api/channels/${channel.id}`, headers: admin.headers })).json().statusAt).getTime();
      let seq = lastSeq();
      const off = await app.app.inject({ method: 'POST', url: `/api/channels/${channel.id}/disconnect`, headers: admin.headers });
      expect(off.statusCode, off.body).toBe(200);
      const down = await sock.next(statusFrame(channel.id, (s) => s === 'disconnected', seq), timeout);
      expect(new Date(down.data.channel.statusAt).getTime()).toBeGreaterThanOrEqual(first);
      seq = down.seq ?? seq;
      const on = await app.app.inject({ method: 'POST', url: `/api/channels/${channel.id}/connect`, headers: admin.headers });
      expect(on.statusCode, on.body).toBe(202);
      const up = await sock.next(statusFrame(channel.id, (s) => s === 'connected', seq), timeout);
      expect(new Date(up.data.channel.statusAt).getTime()).toBeGreaterThanOrEqual(new Date(down.data.channel.statusAt).getTime());
      const row = (await app.app.inject({ method: 'GET', url: `/api/channels/${channel.id}`, headers: admin.headers })).json();
      expect(row.status).toBe('connected');
      expect(new Date(row.statusAt).getTime()).toBeGreaterThan(first);
    });

    it('inbound text: a customer message opens a ticket with the customer as contact, pushed live', async () => {
      const body = `Olá do kit ${randomUUID().slice(0, 8)}`;
      const seq = lastSeq();
      await inbound({ id: `kit-in-${randomUUID()}`, from: state.customer, text: body });
      const [m] = await until('the inbound text stored', async () => (await messagesWithBody(body))[0] && (await messagesWithBody(body)), timeout);
      expect(m.from_me).toBe(false);
      state.ticketId = m.ticket_id;
      const identity = await sql().query(
        `SELECT c.name FROM contact_identities i JOIN contacts c ON c.id = i.contact_id WHERE i.tenant_id = $1 AND i.kind = $2 AND i.external_id = $3`,
        [ctx().channel.tenantId, need(state.identityKind, 'the identity kind'), state.customer.id],
      );
      expect(identity.rows[0]?.name, 'the contact is found by the channel identity (kind, customer id)').toBe(state.customer.name);
      const frame = await need(state.sock, 'the socket').next((f) => f.event === 'message.created' && f.data?.message?.body === body && (f.seq ?? 0) > seq, timeout);
      expect(frame.data.ticket.id).toBe(m.ticket_id);
    });

    it('inbound media: stored in the media store and served back byte for byte', async (t) => {
      const media = state.capabilities?.media ?? [];
      if (!media.includes('image') && !media.includes('document')) t.skip('the channel declares no image or document media');
      const kind = media.includes('image') ? 'image' : 'document';
      const file = kind === 'image' ? { kind, name: 'foto.png', mimetype: 'image/png', data: PNG } : { kind, name: 'contrato.pdf', mimetype: 'application/pdf', data: PDF };
      const caption = `mídia do kit ${randomUUID().slice(0, 8)}`;
      await inbound({ id: `kit-media-${randomUUID()}`, from: state.customer, text: caption, media: file as FakeInbound['media'] });
      const [m] = await until('the inbound media stored', async () => messagesWithBody(caption).then((r) => (r[0]?.media_url ? r : undefined)), timeout);
      expect(m.type).toBe(kind === 'image' ? 'image' : 'application');
      // The stored URL is served only in its expiring form, the one users get.
      const url = ctx().app.app.kernel.storage.clientUrl(m.media_url!, ctx().channel.tenantId);
      expect(url).toBeDefined();
      const served = await ctx().app.app.inject({ method: 'GET', url: url! });
      expect(served.statusCode).toBe(200);
      expect(Buffer.compare(served.rawPayload, file.data)).toBe(0);
    });

    it('duplicates: one provider message delivered three times is stored once', async () => {
      const body = `repetida ${randomUUID().slice(0, 8)}`;
      const msg = { id: `kit-dup-${randomUUID()}`, from: state.customer, text: body };
      await inbound(msg);
      await Promise.all([inbound(msg), inbound(msg)]);
      await until('the duplicated message stored', async () => (await messagesWithBody(body)).length > 0, timeout);
      // Redeliveries may still be in flight on polling providers: give them time to (not) land.
      await new Promise((r) => setTimeout(r, 1000));
      expect(await messagesWithBody(body)).toHaveLength(1);
    });

    it('outbound text: reaches the provider exactly once and is marked sent with the provider id', async () => {
      const body = `Resposta do agente ${randomUUID().slice(0, 8)}`;
      const sent = await sendText(body);
      const [m] = await until('the outbound text sent', async () => messagesWithBody(body).then((r) => (r[0]?.status === 'sent' ? r : undefined)), timeout);
      expect(m.provider_id).toBeTruthy();
      expect(m.id).toBe(sent.id);
      const got = await until('the provider receiving the text', async () => sentWithBody(body).then((r) => (r.length ? r : undefined)), timeout);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ to: state.customer.id, kind: 'text' });
      if (got[0].providerId) expect(got[0].providerId).toBe(m.provider_id);
    });

    it('outbound media: the file reaches the provider with its caption', async (t) => {
      const media = state.capabilities?.media ?? [];
      if (!media.includes('image') && !media.includes('document')) t.skip('the channel declares no image or document media');
      const kind = media.includes('image') ? 'image' : 'document';
      const caption = `legenda ${randomUUID().slice(0, 8)}`;
      const file = kind === 'image' ? { name: 'resposta.png', mimetype: 'image/png', data: PNG } : { name: 'resposta.pdf', mimetype: 'application/pdf', data: PDF };
      const mp = multipartBody({ body: caption }, file);
      const res = await ctx().app.app.inject({ method: 'POST', url: `/api/messages/${need(state.ticketId, 'the ticket')}`, headers: { ...ctx().admin.headers, 'content-type': mp.contentType }, payload: mp.payload });
      expect(res.statusCode, res.body).toBe(201);
      await until('the outbound media sent', async () => messagesWithBody(caption).then((r) => r[0]?.status === 'sent'), timeout);
      const got = await until('the provider receiving the media', async () => sentWithBody(caption).then((r) => (r.length ? r : undefined)), timeout);
      expect(got).toHaveLength(1);
      expect(got[0].kind).toBe('media');
      expect(got[0].to).toBe(state.customer.id);
      expect(got[0].media?.kind).toBe(kind);
    });

    it('outbound buttons: labels and values reach the provider', async (t) => {
      if (!state.capabilities?.buttons) t.skip('the channel declares no buttons');
      const body = `Escolha ${randomUUID().slice(0, 6)}`;
      const buttons = [{ label: 'Sim', value: 'sim' }, { label: 'Não', value: 'nao' }];
      const res = await ctx().app.app.inject({ method: 'POST', url: '/api/sendButton', headers: ctx().admin.headers, payload: { ticketId: need(state.ticketId, 'the ticket'), body, buttons } });
      expect(res.statusCode, res.body).toBe(201);
      const got = await until('the provider receiving the buttons', async () => sentWithBody(body).then((r) => (r.length ? r : undefined)), timeout);
      expect(got).toHaveLength(1);
      expect(got[0].kind).toBe('buttons');
      expect(got[0].buttons).toEqual(buttons);
    });

    it('error mapping: a provider refusal fails the message with the reason and a catalogue code', async () => {
      const body = `recusada ${randomUUID().slice(0, 8)}`;
      await need(state.fake, 'the fake provider').rejectSends(ctx(), body);
      const seq = lastSeq();
      const sent = await sendText(body);
      const [m] = await until('the refused message failed', async () => messagesWithBody(body).then((r) => (r[0]?.status === 'failed' ? r : undefined)), timeout);
      expect(m.failure_reason, 'the provider reason is kept').toBeTruthy();
      expect(m.error_code).toMatch(/^ERR_[A-Z_]+$/);
      const frame = await need(state.sock, 'the socket').next((f) => f.event === 'message.ack_updated' && f.data?.message?.id === sent.id && f.data.message.status === 'failed' && (f.seq ?? 0) > seq, timeout);
      expect(frame.data.message.failureReason).toBe(m.failure_reason);
    });

    it('error mapping: a temporary provider error is retried and the message goes out once', async (t) => {
      const fake = need(state.fake, 'the fake provider');
      if (!fake.failOnce) t.skip('the fake provider cannot simulate a temporary error');
      const body = `tentativa ${randomUUID().slice(0, 8)}`;
      await fake.failOnce!(ctx(), body);
      await sendText(body);
      await until('the retried message sent', async () => messagesWithBody(body).then((r) => r[0]?.status === 'sent'), Math.max(timeout, 20_000));
      expect(await sentWithBody(body)).toHaveLength(1);
    });

    it('acks out of order never move a message backwards', async (t) => {
      if (!opts.deliverAck) t.skip('the provider has no delivery receipts');
      const body = `com recibos ${randomUUID().slice(0, 8)}`;
      await sendText(body);
      const [m] = await until('the message sent', async () => messagesWithBody(body).then((r) => (r[0]?.status === 'sent' ? r : undefined)), timeout);
      const fake = need(state.fake, 'the fake provider');
      await opts.deliverAck!(fake, ctx(), m.provider_id!, 'read');
      await until('the read receipt applied', async () => messagesWithBody(body).then((r) => r[0]?.status === 'read'), timeout);
      for (const s of ['sent', 'delivered', 'sent'] as const) await opts.deliverAck!(fake, ctx(), m.provider_id!, s);
      await new Promise((r) => setTimeout(r, 500));
      expect((await messagesWithBody(body))[0].status).toBe('read');
    });

    it('reconnect: after the provider drops, the status leaves connected and comes back by itself', async (t) => {
      const fake = need(state.fake, 'the fake provider');
      if (!fake.drop || !fake.restore) t.skip('the fake provider cannot simulate a dropped connection');
      const sock = need(state.sock, 'the socket');
      const { channel } = ctx();
      let seq = lastSeq();
      await fake.drop!(ctx());
      const lost = await sock.next(statusFrame(channel.id, (s) => s !== 'connected', seq), timeout);
      expect(['opening', 'disconnected', 'pairingTimeout', 'qrcode']).toContain(lost.data.channel.status);
      seq = lost.seq ?? seq;
      await fake.restore!(ctx());
      await sock.next(statusFrame(channel.id, (s) => s === 'connected', seq), Math.max(timeout, 30_000));
      // And it works again: a customer message gets through.
      const body = `depois da queda ${randomUUID().slice(0, 8)}`;
      await inbound({ id: `kit-after-${randomUUID()}`, from: state.customer, text: body });
      await until('a message after the reconnect', async () => (await messagesWithBody(body)).length === 1, timeout);
    });
  });
}
