import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError, ChannelError, defineEntity, definePlugin, idParam, positiveId, principalOf, tenantFilter, z, type ChannelAdapter, type ChannelRecord, type PluginContext } from '@atende/core/sdk';
import {
  contract,
  sandboxConfig,
  sandboxOutboxQuery,
  sandboxOutboxRow,
  sandboxSecret,
  sandboxSimulate,
  sandboxSimulated,
  sandboxWebhookAnswer,
  sandboxWebhookBody,
  type SandboxConfig,
  type SandboxInbound,
  type SandboxOutboxRow,
} from './contract.ts';
import { OutboxWriter } from './outbox.ts';

/**
 * The sandbox channel: a real adapter with no external provider. Customers
 * are simulated through a signed HTTP webhook; what agents send is recorded
 * in an outbox (exactly once per message, keyed by the kernel's message id)
 * and acknowledged after configurable delays, or failed on request. The demo
 * seed, the tests and the benchmarks drive conversations through it.
 */

/** One message as the simulated provider recorded it; written in batches by `OutboxWriter`. */
export const OutboxMessage = defineEntity({
  name: 'SandboxOutboxMessage',
  tableName: 'channel_sandbox_outbox',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.bigint('number').primary().autoincrement(),
    tenantId: p.integer(),
    channelId: p.integer(),
    idempotencyKey: p.text(),
    providerId: p.text(),
    recipient: p.text(),
    body: p.text(),
    type: p.text(),
    mediaName: p.text().nullable(),
    buttons: p.json<{ label: string; value: string }[]>().nullable(),
    attempts: p.integer(),
    edited: p.boolean(),
    deleted: p.boolean(),
    reaction: p.text().nullable(),
    createdAt: p.datetime(),
  }),
});

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
    prepare(draft) {
      const parsed = sandboxConfig.safeParse(draft.config);
      if (!parsed.success) throw new AppError('ERR_VALIDATION', { details: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      return { ...draft, config: parsed.data };
    },
    async connect(channel, runtime) {
      await runtime.setStatus(channel.tenantId, channel.id, 'connected');
    },
    async disconnect(channel) {
      await ctx.channels.setStatus(channel.tenantId, channel.id, 'disconnected');
    },
    async send(channel, msg) {
      // Saved settings passed `prepare`: read as they are, on every send of a bulk run.
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
      await ctx.dbForTenant(channel.tenantId).nativeUpdate(OutboxMessage, { channelId: channel.id, providerId }, { body, edited: true });
    },
    async delete(channel, providerId) {
      await ctx.dbForTenant(channel.tenantId).nativeUpdate(OutboxMessage, { channelId: channel.id, providerId }, { deleted: true });
    },
    async react(channel, providerId, emoji) {
      await ctx.dbForTenant(channel.tenantId).nativeUpdate(OutboxMessage, { channelId: channel.id, providerId }, { reaction: emoji || null });
    },
  };
}

/** Stores inline media bytes in the kernel's media store; linked media passes through as given. */
async function mediaOf(ctx: PluginContext, tenantId: number, m: SandboxInbound['media']) {
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
  contract,
  entities: [OutboxMessage],
  name: 'Canal Sandbox',
  description: 'Canal simulado para demonstração, testes e medições: clientes chegam por um webhook assinado.',
  // Off for new companies: anyone who can use it can make up customers. The demo tenant (`atende seed --demo`) turns it on.
  enabledByDefault: false,
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
    {
      // The plugin used to be on for every tenant: companies that exist at the upgrade keep it as they had it.
      // The choice is recorded the way an admin's switch records it (the enablement row); tenants are read from the view.
      name: '0002_off_by_default',
      up: [`INSERT INTO tenant_plugins (tenant_id, plugin_id, enabled) SELECT id, 'channel-sandbox', true FROM v_tenants ON CONFLICT (tenant_id, plugin_id) DO NOTHING`],
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


    const tags = ['channel-sandbox'];
    const webhookParams = z.object({ channelId: positiveId });
    /** Channels whose webhook signature checked out, for the handler of the same request. */
    const signed = new WeakMap<object, ChannelRecord>();

    /**
     * The simulated provider's webhook: verify, store, acknowledge. It answers
     * 2xx only once the message is durably stored (a failure to store is a 5xx
     * so the sender retries); a replay is answered 200 as a duplicate.
     */
    ctx.http.post(
      '/webhook/:channelId',
      {
        config: { access: { public: true }, webhook: true },
        // The signature is checked before the body is validated: a caller that cannot sign learns nothing about the channel or the payload.
        preValidation: async (req) => {
          const id = positiveId.safeParse((req.params as { channelId?: unknown }).channelId);
          // A copy up to a second old: a burst of webhooks does not read the channel once per message.
          const channel = id.success ? await sandboxChannel(ctx, id.data, WEBHOOK_CHANNEL_MAX_AGE_MS) : undefined;
          const secret = channel?.secrets.webhookSecret as string | undefined;
          // Same answer for an unknown channel and a bad signature: a caller learns nothing about which ids exist.
          if (!channel || !secret || !signatureValid(secret, req.rawBody ?? Buffer.alloc(0), req.headers[SIGNATURE_HEADER] as string | undefined)) throw new AppError('ERR_WEBHOOK_SIGNATURE');
          if (!(await ctx.isEnabled(channel.tenantId))) throw new AppError('ERR_ROUTE_NOT_FOUND');
          signed.set(req, channel);
        },
        schema: {
          operationId: 'sandboxWebhook',
          tags,
          summary: 'Recebe mensagens e confirmações do provedor simulado (assinado)',
          params: webhookParams,
          body: sandboxWebhookBody,
          response: { 200: sandboxWebhookAnswer },
        },
      },
      async (req) => {
        const channel = signed.get(req);
        if (!channel) throw new AppError('ERR_WEBHOOK_SIGNATURE');
        const body = req.body;
        if ('ack' in body) {
          const changed = await ctx.messages.ack(channel.tenantId, channel.id, body.ack.id, body.ack.status, body.ack.reason);
          return { ok: true as const, changed };
        }
        const res = await ingest(channel, body);
        return { ok: true as const, duplicate: res.duplicate, ticketId: res.ticketId ?? null, messageId: res.messageId ?? null };
      },
    );

    const ingest = async (ch: ChannelRecord, m: Omit<SandboxInbound, 'id'> & { id?: string }) =>
      ctx.messages.ingest({
        tenantId: ch.tenantId,
        channelId: ch.id,
        providerMessageId: m.id ?? `sbx-in-${randomUUID()}`,
        from: { kind: 'sandbox', externalId: m.from.id, name: m.from.name, number: m.from.number ?? null },
        group: m.group ? { kind: 'sandbox', externalId: `group:${m.group.id}`, name: m.group.name } : undefined,
        body: m.body,
        type: m.type,
        media: await mediaOf(ctx, ch.tenantId, m.media),
        quotedProviderId: m.quotedId,
        timestamp: m.timestamp,
      });

    const tenantChannel = async (tenantId: number, id: number) => {
      const ch = await sandboxChannel(ctx, id);
      if (!ch || ch.tenantId !== tenantId) throw new AppError('ERR_NO_WAPP_FOUND');
      return ch;
    };
    const outboxOut = (r: { providerId: string; recipient: string; body: string; type: string; mediaName?: string | null; buttons?: SandboxOutboxRow['buttons']; attempts: number; edited: boolean; deleted: boolean; reaction?: string | null; createdAt: Date }): SandboxOutboxRow => ({
      providerId: r.providerId, to: r.recipient, body: r.body, type: r.type, mediaName: r.mediaName ?? null, buttons: r.buttons ?? null,
      attempts: r.attempts, edited: r.edited, deleted: r.deleted, reaction: r.reaction ?? null, createdAt: r.createdAt.toISOString(),
    });

    /** The "customer's phone": what agents sent through this sandbox channel, newest first. */
    ctx.http.get(
      '/channels/:id/outbox',
      {
        config: { access: { menu: 'tickets' } },
        schema: { operationId: 'sandboxOutbox', tags, summary: 'Lista o que os atendentes enviaram pelo canal simulado', params: idParam, querystring: sandboxOutboxQuery, response: { 200: z.array(sandboxOutboxRow) } },
      },
      async (req) => {
        const ch = await tenantChannel(principalOf(req).tenantId, req.params.id);
        const rows = await ctx.db(req).find(OutboxMessage, { channelId: ch.id, ...(req.query.to ? { recipient: req.query.to } : {}) }, { orderBy: { id: 'desc' }, limit: req.query.limit });
        return rows.map(outboxOut);
      },
    );

    /** Lets an admin play the customer (demo and tests): same path as the signed webhook. Agents may not make up customers. */
    ctx.http.post(
      '/channels/:id/simulate',
      {
        config: { access: { menu: 'tickets', profiles: ['admin'] } },
        schema: { operationId: 'sandboxSimulate', tags, summary: 'Simula a mensagem de um cliente no canal simulado', params: idParam, body: sandboxSimulate, response: { 200: sandboxSimulated } },
      },
      async (req) => ingest(await tenantChannel(principalOf(req).tenantId, req.params.id), req.body),
    );

    /** The webhook secret, for configuring an external simulator (admins of channels only). */
    ctx.http.get(
      '/channels/:id/secret',
      { config: { access: { menu: 'channels' } }, schema: { operationId: 'sandboxWebhookSecret', tags, summary: 'Endereço e segredo do webhook do canal simulado', params: idParam, response: { 200: sandboxSecret } } },
      async (req) => {
        const ch = await tenantChannel(principalOf(req).tenantId, req.params.id);
        return { webhookUrl: `/api/plugins/channel-sandbox/webhook/${ch.id}`, secret: String(ch.secrets.webhookSecret ?? ''), header: SIGNATURE_HEADER };
      },
    );
  },
});
