import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError, ChannelError, definePlugin, z, type ChannelAdapter, type ChannelRecord, type PluginContext } from '@atende/core/sdk';
import { OutboxWriter } from './outbox.ts';

/**
 * The sandbox channel: a real adapter with no external provider. Customers
 * are simulated through a signed HTTP webhook; what agents send is recorded
 * in an outbox (exactly once per message, keyed by the kernel's message id)
 * and acknowledged after configurable delays, or failed on request. The demo
 * seed, the tests and the benchmarks drive conversations through it.
 */

const inbound = z
  .object({
    id: z.string().min(1).max(200),
    from: z.object({ id: z.string().min(1).max(200), name: z.string().max(200).optional(), number: z.string().regex(/^\d{5,20}$/).optional() }).strict(),
    body: z.string().max(65_536).default(''),
    type: z.string().max(40).optional(),
    // A simulated customer's file: a URL to link, or the bytes themselves (base64), which go to the media store like a real provider's download.
    media: z
      .object({ url: z.string().max(2000).optional(), data: z.string().max(1_500_000).regex(/^[A-Za-z0-9+/]*={0,2}$/).optional(), mimetype: z.string().max(200), name: z.string().max(300) })
      .strict()
      .refine((m) => !!m.url !== !!m.data, 'informe url ou data')
      .optional(),
    group: z.object({ id: z.string().min(1).max(200), name: z.string().max(200).optional() }).strict().optional(),
    quotedId: z.string().max(200).optional(),
    timestamp: z.coerce.date().optional(),
  })
  .strict();

const ackEvent = z.object({ ack: z.object({ id: z.string().min(1).max(200), status: z.enum(['sent', 'delivered', 'read', 'failed']), reason: z.string().max(300).optional() }).strict() }).strict();

export const SIGNATURE_HEADER = 'x-sandbox-signature';

/** `sha256=<hex>` over the raw body with the channel's webhook secret. */
export function signSandbox(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

function signatureValid(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signSandbox(secret, raw));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

interface SandboxConfig {
  /** Delays before the simulated provider reports delivered and read (ms); 0 or absent = never. */
  deliveredAfterMs?: number;
  readAfterMs?: number;
  /** Fail every send whose body contains this text (to exercise failures). */
  failWhenBodyContains?: string;
}

function adapter(ctx: PluginContext): ChannelAdapter {
  const outbox = new OutboxWriter(ctx);
  return {
    type: 'sandbox',
    label: 'Sandbox (simulado)',
    identityKind: 'sandbox',
    capabilities: {
      media: ['image', 'audio', 'video', 'document', 'sticker'],
      buttons: true,
      lists: true,
      templates: false,
      reactions: true,
      edit: true,
      delete: true,
      groups: true,
      qr: false,
      pairingCode: false,
      historyImport: false,
      readReceipts: true,
    },
    async connect(channel, runtime) {
      await runtime.setStatus(channel.tenantId, channel.id, 'connected');
    },
    async disconnect(channel) {
      await ctx.channels.setStatus(channel.tenantId, channel.id, 'disconnected');
    },
    async send(channel, msg) {
      const cfg = channel.config as SandboxConfig;
      if (cfg.failWhenBodyContains && msg.body.includes(cfg.failWhenBodyContains)) {
        throw new ChannelError('ERR_SENDING_WAPP_MSG', 'O provedor simulado recusou a mensagem', true);
      }
      // The kernel's message id is the idempotency key: a retried send returns the first result.
      const providerId = await outbox.write({
        tenantId: channel.tenantId, channelId: channel.id, key: msg.messageId, providerId: `sbx-out-${randomUUID()}`, recipient: msg.to.externalId,
        body: msg.body, type: msg.type, mediaName: msg.media?.name ?? null, buttons: msg.buttons ? JSON.stringify(msg.buttons) : null,
      });
      if (cfg.deliveredAfterMs) await ctx.jobs.enqueue('ack', { tenantId: channel.tenantId, channelId: channel.id, providerId, status: 'delivered' }, { delayMs: cfg.deliveredAfterMs, jobId: `ack-d-${providerId}` });
      if (cfg.readAfterMs) await ctx.jobs.enqueue('ack', { tenantId: channel.tenantId, channelId: channel.id, providerId, status: 'read' }, { delayMs: cfg.readAfterMs, jobId: `ack-r-${providerId}` });
      return { providerId };
    },
    async edit(channel, providerId, body) {
      await ctx.sql('UPDATE channel_sandbox_outbox SET body = $3, edited = true WHERE channel_id = $1 AND provider_id = $2', [channel.id, providerId, body]);
    },
    async delete(channel, providerId) {
      await ctx.sql('UPDATE channel_sandbox_outbox SET deleted = true WHERE channel_id = $1 AND provider_id = $2', [channel.id, providerId]);
    },
    async react(channel, providerId, emoji) {
      await ctx.sql('UPDATE channel_sandbox_outbox SET reaction = $3 WHERE channel_id = $1 AND provider_id = $2', [channel.id, providerId, emoji || null]);
    },
  };
}

/** Stores inline media bytes in the kernel's media store; linked media passes through as given. */
async function mediaOf(ctx: PluginContext, tenantId: number, m: z.infer<typeof inbound>['media']) {
  if (!m) return undefined;
  if (m.url) return { url: m.url, mimetype: m.mimetype, name: m.name };
  const stored = await ctx.storage.save(tenantId, m.name, m.mimetype, Readable.from(Buffer.from(m.data!, 'base64')));
  return { url: stored.url, mimetype: stored.mimetype, name: stored.name };
}

/** How old a channel copy a webhook may use (its secret, its tenant): a second. */
const WEBHOOK_CHANNEL_MAX_AGE_MS = 1000;

async function sandboxChannel(ctx: PluginContext, id: number, maxAgeMs?: number): Promise<ChannelRecord | undefined> {
  const ch = await ctx.channels.find(id, { maxAgeMs });
  return ch && ch.type === 'sandbox' ? ch : undefined;
}

export default definePlugin({
  id: 'channel-sandbox',
  kind: 'channel',
  name: 'Canal Sandbox',
  description: 'Canal simulado para demonstração, testes e medições: clientes chegam por um webhook assinado.',
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE channel_sandbox_outbox (
          id bigserial PRIMARY KEY,
          tenant_id integer NOT NULL,
          channel_id integer NOT NULL,
          idempotency_key text NOT NULL,
          provider_id text NOT NULL,
          recipient text NOT NULL,
          body text NOT NULL,
          type text NOT NULL,
          media_name text,
          buttons jsonb,
          attempts integer NOT NULL DEFAULT 1,
          edited boolean NOT NULL DEFAULT false,
          deleted boolean NOT NULL DEFAULT false,
          reaction text,
          created_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE UNIQUE INDEX channel_sandbox_outbox_key ON channel_sandbox_outbox (channel_id, idempotency_key)`,
        `CREATE INDEX channel_sandbox_outbox_list ON channel_sandbox_outbox (tenant_id, channel_id, id DESC)`,
      ],
    },
  ],
  menus: [],
  // ui-plugins/channel-sandbox: the simulated provider's settings and its inbound URL on /sessoes.
  ui: true,
  register(ctx) {
    ctx.channels.register(adapter(ctx));

    ctx.jobs.define<{ tenantId: number; channelId: number; providerId: string; status: 'delivered' | 'read' }>('ack', async (d) => {
      await ctx.messages.ack(d.tenantId, d.channelId, d.providerId, d.status);
      return {};
    });


    /**
     * The simulated provider's webhook: verify, store, acknowledge. It answers
     * 2xx only once the message is durably stored (a failure to store is a 5xx
     * so the sender retries); a replay is answered 200 as a duplicate.
     */
    ctx.http.post('/webhook/:channelId', { config: { access: { public: true }, webhook: true }, schema: { params: z.object({ channelId: z.coerce.number().int().positive().max(2_147_483_647) }) } }, async (req, reply) => {
      const { channelId } = req.params as { channelId: number };
      // A copy up to a second old: a burst of webhooks does not read the channel once per message.
      const channel = await sandboxChannel(ctx, channelId, WEBHOOK_CHANNEL_MAX_AGE_MS);
      const raw = req.rawBody ?? Buffer.alloc(0);
      const secret = channel?.secrets.webhookSecret as string | undefined;
      // Same answer for an unknown channel and a bad signature: a caller learns nothing about which ids exist.
      if (!channel || !secret || !signatureValid(secret, raw, req.headers[SIGNATURE_HEADER] as string | undefined)) throw new AppError('ERR_WEBHOOK_SIGNATURE');
      if (!(await ctx.isEnabled(channel.tenantId))) throw new AppError('ERR_ROUTE_NOT_FOUND');
      const ack = ackEvent.safeParse(req.body);
      if (ack.success) {
        const changed = await ctx.messages.ack(channel.tenantId, channel.id, ack.data.ack.id, ack.data.ack.status, ack.data.ack.reason);
        return reply.send({ ok: true, changed });
      }
      const parsed = inbound.safeParse(req.body);
      if (!parsed.success) throw new AppError('ERR_VALIDATION', { details: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      const m = parsed.data;
      const res = await ctx.messages.ingest({
        tenantId: channel.tenantId,
        channelId: channel.id,
        providerMessageId: m.id,
        from: { kind: 'sandbox', externalId: m.from.id, name: m.from.name, number: m.from.number ?? null },
        group: m.group ? { kind: 'sandbox', externalId: `group:${m.group.id}`, name: m.group.name } : undefined,
        body: m.body,
        type: m.type,
        media: await mediaOf(ctx, channel.tenantId, m.media),
        quotedProviderId: m.quotedId,
        timestamp: m.timestamp,
      });
      return reply.send({ ok: true, duplicate: res.duplicate, ticketId: res.ticketId ?? null, messageId: res.messageId ?? null });
    });

    const channelParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
    const tenantChannel = async (tenantId: number, id: number) => {
      const ch = await sandboxChannel(ctx, id);
      if (!ch || ch.tenantId !== tenantId) throw new AppError('ERR_NO_WAPP_FOUND');
      return ch;
    };

    /** The "customer's phone": what agents sent through this sandbox channel, newest first. */
    ctx.http.get('/channels/:id/outbox', { config: { access: { menu: 'tickets' } }, schema: { params: channelParam, querystring: z.object({ to: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }) } }, async (req) => {
      const { id } = req.params as z.infer<typeof channelParam>;
      const q = req.query as { to?: string; limit: number };
      const ch = await tenantChannel(req.principal!.tenantId, id);
      const r = await ctx.sql(
        `SELECT provider_id AS "providerId", recipient AS "to", body, type, media_name AS "mediaName", buttons, attempts, edited, deleted, reaction, created_at AS "createdAt"
           FROM channel_sandbox_outbox WHERE tenant_id = $1 AND channel_id = $2 ${q.to ? 'AND recipient = $4' : ''} ORDER BY id DESC LIMIT $3`,
        q.to ? [ch.tenantId, ch.id, q.limit, q.to] : [ch.tenantId, ch.id, q.limit],
      );
      return r.rows;
    });

    /** Lets a logged-in user play the customer (demo and tests): same path as the signed webhook. */
    ctx.http.post(
      '/channels/:id/simulate',
      { config: { access: { menu: 'tickets' } }, schema: { params: channelParam, body: inbound.omit({ id: true }).extend({ id: z.string().min(1).max(200).optional() }) } },
      async (req) => {
        const { id } = req.params as z.infer<typeof channelParam>;
        const ch = await tenantChannel(req.principal!.tenantId, id);
        const m = req.body as z.infer<typeof inbound>;
        return ctx.messages.ingest({
          tenantId: ch.tenantId,
          channelId: ch.id,
          providerMessageId: m.id ?? `sbx-in-${randomUUID()}`,
          from: { kind: 'sandbox', externalId: m.from.id, name: m.from.name, number: m.from.number ?? null },
          group: m.group ? { kind: 'sandbox', externalId: `group:${m.group.id}`, name: m.group.name } : undefined,
          body: m.body,
          type: m.type,
          media: await mediaOf(ctx, ch.tenantId, m.media),
        });
      },
    );

    /** The webhook secret, for configuring an external simulator (admins of channels only). */
    ctx.http.get('/channels/:id/secret', { config: { access: { menu: 'channels' } }, schema: { params: channelParam } }, async (req) => {
      const { id } = req.params as z.infer<typeof channelParam>;
      const ch = await tenantChannel(req.principal!.tenantId, id);
      return { webhookUrl: `/api/plugins/channel-sandbox/webhook/${ch.id}`, secret: ch.secrets.webhookSecret, header: SIGNATURE_HEADER };
    });
  },
});
