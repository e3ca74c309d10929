import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AppError,
  ChannelError,
  defineEntity,
  definePlugin,
  escapeLike,
  idParam,
  okAnswer,
  positiveId,
  principalOf,
  sql,
  tenantFilter,
  z,
  type ChannelAdapter,
  type ChannelRecord,
  type ChannelRuntime,
  type InboundMessage,
  type OutboundMessage,
  type PluginContext,
} from '@atende/core/sdk';
import {
  contract,
  DEFAULT_API_VERSION,
  MIN_VERIFY_TOKEN,
  WABA_API_VERSION,
  WABA_ID,
  wabaConfig,
  wabaTemplateList,
  wabaTemplatesQuery,
  wabaTemplatesSynced,
  wabaTenantSettings,
  wabaVerifyQuery,
  wabaWebhookBody,
  wabaWebhookInfo,
  type WabaConfig,
  type WabaTemplateComponent,
  type WabaTemplatesSynced,
} from './contract.ts';
import { DEFAULT_GRAPH_URL, GraphError, META_MEDIA_HOSTS, graph, isCredentialError, toChannelError, type GraphTarget } from './graph.ts';
import { buildPayloads, type MediaRef } from './outbound.ts';
import { prepare, variablesOf } from './templates.ts';
import { SIGNATURE_HEADER, changesFor, signatureValid, toAck, toInbound, verifyTokenMatches, type PendingMedia, type WaWebhook } from './webhook.ts';

/**
 * The official WhatsApp Business API (Cloud API). A channel is one phone
 * number of a WhatsApp Business Account: Meta delivers messages and status
 * callbacks to this plugin's webhook, signed with the app secret, and the
 * plugin sends through the Graph API with the business manager token.
 *
 * The "session" the kernel runs on one worker node (`longLived`) is only a
 * periodic credential check, so a revoked token or an unreachable Graph
 * shows on the channels screen and clears by itself; inbound traffic
 * needs no session and lands on any node.
 */

export { SIGNATURE_HEADER, signWebhook, signatureValid, verifyTokenMatches } from './webhook.ts';

/** How long a message id is kept for reactions and read receipts: WhatsApp refuses both for older messages. */
const PEER_RETENTION_DAYS = 30;

/** The account's message templates as last synced (the picker lists them, a template send is checked against them). */
export const WabaTemplateRow = defineEntity({
  name: 'WabaTemplate',
  tableName: 'channel_waba_templates',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    channelId: p.integer(),
    templateId: p.text(),
    name: p.text(),
    language: p.text(),
    status: p.text(),
    category: p.text().nullable(),
    components: p.json<WabaTemplateComponent[]>(),
    syncedAt: p.datetime(),
  }),
});

/** Who each message was exchanged with (reactions need the recipient) and which customer messages still await a read receipt. */
export const WabaMessage = defineEntity({
  name: 'WabaMessage',
  tableName: 'channel_waba_messages',
  filters: tenantFilter,
  properties: (p) => ({
    tenantId: p.integer().primary(),
    channelId: p.integer().primary(),
    providerId: p.text().primary(),
    waId: p.text(),
    ticketId: p.integer().nullable(),
    inbound: p.boolean(),
    readPending: p.boolean(),
    createdAt: p.datetime(),
  }),
});

interface Session {
  timer?: NodeJS.Timeout;
  stopped: boolean;
}

/** The display number as stored digits (`+55 11 98765-4321` → `5511987654321`). */
export const digitsOf = (display: string | undefined) => (display ?? '').replace(/\D/g, '') || null;

const wabaInvalid = (detail: string, field?: string) => new AppError('ERR_WABA_INVALID', {}, { details: detail, ...(field ? { field } : {}) });

function wabaPlugin() {
  let ctx: PluginContext;
  const sessions = new Map<number, Session>();

  const cfgOf = (channel: ChannelRecord): WabaConfig => wabaConfig.parse(channel.config ?? {});

  /** Graph coordinates of a channel: base URL (channel, then tenant setting, then Meta), version and token. */
  async function targetOf(channel: ChannelRecord): Promise<GraphTarget & { phoneNumberId: string; wabaId: string }> {
    const cfg = cfgOf(channel);
    const token = channel.secrets.accessToken;
    if (typeof token !== 'string' || !token || !cfg.phoneNumberId || !cfg.businessAccountId) throw new ChannelError('ERR_WABA_INVALID', 'Dados WABA incorretos: faltam o token ou os IDs do número e da conta', true);
    const tenantUrl = cfg.graphBaseUrl ? undefined : (await ctx.tenantSettings<z.output<typeof wabaTenantSettings>>(channel.tenantId).catch(() => ({}) as { graphBaseUrl?: string })).graphBaseUrl;
    const baseUrl = cfg.graphBaseUrl ?? tenantUrl ?? DEFAULT_GRAPH_URL;
    // Another Graph host was set by the superadmin (or is on the allow-list): its media URLs are its own host's.
    const baseHost = new URL(baseUrl).hostname;
    return {
      baseUrl,
      version: cfg.apiVersion || DEFAULT_API_VERSION,
      token,
      phoneNumberId: cfg.phoneNumberId,
      wabaId: cfg.businessAccountId,
      http: (url, init, opts) => ctx.outbound.fetch(url, init, opts),
      mediaHosts: baseUrl === DEFAULT_GRAPH_URL ? META_MEDIA_HOSTS : [...META_MEDIA_HOSTS, baseHost],
    };
  }

  /** Checks the ids and token against Graph; wrong ones are "Dados WABA incorretos" (permanent), an outage is retried. */
  async function checkCredentials(channel: ChannelRecord) {
    const t = await targetOf(channel);
    try {
      const phone = await graph.phoneNumber(t, t.phoneNumberId);
      await graph.account(t, t.wabaId);
      return phone;
    } catch (err) {
      if (isCredentialError(err)) {
        throw new ChannelError('ERR_WABA_INVALID', `Dados WABA incorretos: ${(err as Error).message} — confira os IDs, o token e as permissões do app no Business Manager`, true);
      }
      throw toChannelError(err, 'ERR_WAPP_NOT_INITIALIZED');
    }
  }

  function stopLocal(channelId: number) {
    const s = sessions.get(channelId);
    if (!s) return;
    sessions.delete(channelId);
    s.stopped = true;
    if (s.timer) clearInterval(s.timer);
  }

  /** The periodic check: an outage shows `pairingTimeout` with the retry count and recovers by itself; a refused token disconnects. */
  function watch(channel: ChannelRecord, runtime: ChannelRuntime, s: Session) {
    let failures = 0;
    let running = false;
    s.timer = setInterval(() => {
      if (running || s.stopped) return;
      running = true;
      void (async () => {
        try {
          await checkCredentials(channel);
          if (failures && !s.stopped) {
            failures = 0;
            await runtime.setStatus(channel.tenantId, channel.id, 'connected');
          }
        } catch (err) {
          if (s.stopped) return;
          failures++;
          const permanent = err instanceof ChannelError && err.permanent;
          await runtime.setStatus(channel.tenantId, channel.id, permanent ? 'disconnected' : 'pairingTimeout', { retries: failures, error: (err as Error).message.slice(0, 300) }).catch(() => undefined);
          if (permanent) stopLocal(channel.id);
        } finally {
          running = false;
        }
      })();
    }, cfgOf(channel).healthIntervalMs ?? 60_000);
    s.timer.unref();
  }

  /** Fetches a file the customer sent (media id → URL → bytes) into the kernel's media store. */
  async function download(channel: ChannelRecord, media: PendingMedia): Promise<{ url: string; mimetype: string; name: string } | { rejected: string }> {
    const t = await targetOf(channel);
    let res: Response;
    try {
      const info = await graph.media(t, media.mediaId);
      res = await graph.download(t, info.url);
    } catch (err) {
      // A media id Graph no longer knows (404/400) will not come back: permanent; outages and 5xx are retried by Meta.
      const status = err instanceof GraphError ? err.status : 0;
      throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', `WhatsApp Cloud API: download da mídia ${media.mediaId} falhou: ${(err as Error).message}`, status >= 400 && status < 500 && status !== 429);
    }
    try {
      const stored = await ctx.storage.save(channel.tenantId, media.name, media.mimetype, Readable.fromWeb(res.body as never));
      return { url: stored.url, mimetype: stored.mimetype, name: stored.name };
    } catch (err) {
      // A type or size the platform refuses: the message still arrives, saying what was left out.
      if (err instanceof AppError && (err.code === 'ERR_FILE_REJECTED' || err.code === 'ERR_FILE_TOO_LARGE')) return { rejected: err.code };
      throw err;
    }
  }

  /**
   * One webhook body into the kernel. Messages are stored (dedup by the
   * wamid, so Meta's redeliveries are harmless) and status callbacks applied
   * as acks. Throws on a temporary failure so the webhook answers non-2xx and
   * Meta delivers again.
   */
  async function handleWebhook(channel: ChannelRecord, payload: WaWebhook) {
    const cfg = cfgOf(channel);
    const { mine, others } = changesFor(payload, cfg.phoneNumberId ?? '');
    if (others) ctx.logger.warn({ channelId: channel.id, others }, 'waba webhook carried changes for another phone number id; point that number at its own channel URL');
    const base = { tenantId: channel.tenantId, channelId: channel.id };
    for (const value of mine) {
      for (const m of value.messages ?? []) {
        const parsed = toInbound(base, value, m);
        if (!parsed) continue;
        const msg: InboundMessage = parsed.msg;
        if (parsed.media) {
          try {
            const media = await download(channel, parsed.media);
            if ('rejected' in media) msg.data = { ...msg.data, mediaRejected: media.rejected, mediaName: parsed.media.name, mediaType: parsed.media.mimetype };
            else msg.media = media;
          } catch (err) {
            if (!(err instanceof ChannelError) || !err.permanent) throw err;
            // Meta will never serve this file: keep the message, saying the file could not be fetched.
            msg.data = { ...msg.data, mediaError: err.code, mediaName: parsed.media.name, mediaType: parsed.media.mimetype };
          }
        }
        const res = await ctx.messages.ingest(msg);
        if (!res.duplicate && res.ticketId) {
          // One row per customer message, on the webhook's hot path: plain SQL.
          await ctx.query(sql`
            INSERT INTO channel_waba_messages (tenant_id, channel_id, provider_id, wa_id, ticket_id, inbound, read_pending)
            VALUES (${channel.tenantId}, ${channel.id}, ${m.id}, ${m.from}, ${res.ticketId}, true, ${cfg.readReceipts !== false})
            ON CONFLICT (tenant_id, channel_id, provider_id) DO NOTHING`);
        }
      }
      for (const s of value.statuses ?? []) {
        const ack = toAck(s);
        if (!ack) continue;
        const changed = await ctx.messages.ack(channel.tenantId, channel.id, ack.providerId, ack.status, ack.reason);
        // A receipt can overtake the send job recording the provider id: look again shortly (forward-only, so a late duplicate is harmless).
        if (!changed && ack.status !== 'sent') {
          await ctx.jobs.enqueue('ack-retry', { ...base, ...ack }, { jobId: `ack-${channel.id}-${ack.providerId}-${ack.status}`, delayMs: 3000, attempts: 1 });
        }
      }
    }
  }

  /** A media reference Meta can use: a public link as is, else the local file uploaded, else a relative link made absolute with the install's public URL. */
  async function mediaRefOf(t: GraphTarget & { phoneNumberId: string }, media: NonNullable<OutboundMessage['media']>): Promise<MediaRef> {
    if (media.url && /^https?:\/\//i.test(media.url)) return { link: media.url };
    if (media.path) {
      const up = await graph.upload(t, t.phoneNumberId, { path: media.path, mimetype: media.mimetype, name: media.name });
      return { id: up.id };
    }
    const publicUrl = ctx.config.publicUrl?.replace(/\/+$/, '');
    if (media.url && publicUrl) return { link: `${publicUrl}${media.url.startsWith('/') ? '' : '/'}${media.url}` };
    throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'arquivo da mensagem não encontrado no armazenamento', true);
  }

  async function peerOf(channel: ChannelRecord, providerId: string): Promise<string> {
    const row = await ctx.dbForTenant(channel.tenantId).findOne(WabaMessage, { channelId: channel.id, providerId }, { fields: ['waId'] });
    if (!row) throw new ChannelError('ERR_SENDING_WAPP_MSG', 'mensagem antiga demais ou desconhecida neste canal: o WhatsApp só aceita reações a mensagens dos últimos 30 dias', true);
    return row.waId;
  }

  /** Every template of the channel's account into `channel_waba_templates`; templates gone at Meta are removed. */
  async function syncTemplates(channel: ChannelRecord): Promise<WabaTemplatesSynced> {
    const t = await targetOf(channel);
    const list = await graph.templates(t, t.wabaId);
    const rows = list.filter((x) => x.name && x.language).map((x) => ({ id: String(x.id), name: x.name, language: x.language, status: x.status ?? 'UNKNOWN', category: x.category ?? null, components: x.components ?? [] }));
    // The whole account in one statement (hundreds of templates): plain SQL.
    const [r] = await ctx.query<{ at: string; atDate: Date }>(sql`
      WITH src AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, name text, language text, status text, category text, components jsonb)),
      up AS (
        INSERT INTO channel_waba_templates (tenant_id, channel_id, template_id, name, language, status, category, components, synced_at)
        SELECT ${channel.tenantId}, ${channel.id}, id, name, language, status, category, coalesce(components, '[]'::jsonb), now() FROM src
        ON CONFLICT (tenant_id, channel_id, name, language) DO UPDATE
          SET template_id = EXCLUDED.template_id, status = EXCLUDED.status, category = EXCLUDED.category, components = EXCLUDED.components, synced_at = EXCLUDED.synced_at
        RETURNING 1)
      SELECT now()::text AS at, now() AS "atDate", (SELECT count(*) FROM up) AS n`);
    // Every row this sync saw carries its statement's now() (compared at full precision); older ones are templates deleted at Meta.
    await ctx.query(sql`DELETE FROM channel_waba_templates WHERE tenant_id = ${channel.tenantId} AND channel_id = ${channel.id} AND synced_at < ${r!.at}::timestamptz`);
    const synced = { channelId: channel.id, count: list.length, syncedAt: r!.atDate.toISOString() };
    await ctx.events.publish(channel.tenantId, 'waba_templates.synced', synced);
    return synced;
  }

  const adapter = (): ChannelAdapter => ({
    type: 'waba',
    label: 'WhatsApp Business API (oficial)',
    identityKind: 'whatsapp',
    longLived: true,
    providerUrls: { graphBaseUrl: DEFAULT_GRAPH_URL },
    capabilities: {
      media: ['image', 'audio', 'video', 'document', 'sticker'],
      buttons: true,
      lists: true,
      templates: true,
      reactions: true,
      edit: false,
      delete: false,
      groups: false,
      qr: false,
      pairingCode: false,
      historyImport: false,
      readReceipts: true,
      proxy: false,
    },

    prepare(draft, current) {
      const parsed = wabaConfig.safeParse(draft.config);
      if (!parsed.success) throw wabaInvalid(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const cfg = parsed.data;
      if (!cfg.phoneNumberId || !WABA_ID.test(cfg.phoneNumberId)) throw wabaInvalid('informe o ID do número de telefone (somente dígitos, como aparece no WhatsApp Manager)', 'phoneNumberId');
      if (!cfg.businessAccountId || !WABA_ID.test(cfg.businessAccountId)) throw wabaInvalid('informe o ID da conta do WhatsApp Business (somente dígitos)', 'businessAccountId');
      const apiVersion = cfg.apiVersion || DEFAULT_API_VERSION;
      if (!WABA_API_VERSION.test(apiVersion)) throw wabaInvalid('versão da API inválida: use o formato v21.0', 'apiVersion');
      const token = draft.secrets.accessToken;
      if (typeof token !== 'string' || !token.trim()) throw wabaInvalid('informe o token do Business Manager', 'accessToken');
      const appSecret = draft.secrets.appSecret;
      if (typeof appSecret !== 'string' || !appSecret.trim()) throw wabaInvalid('informe a chave secreta do app (usada para conferir a assinatura dos webhooks)', 'appSecret');
      // A blank verify token keeps the saved one (the admin already pasted it in Meta), or gets a fresh random one.
      const verifyToken = cfg.verifyToken || (current?.config.verifyToken as string | undefined) || randomBytes(24).toString('base64url');
      if (verifyToken.length < MIN_VERIFY_TOKEN) throw wabaInvalid(`o token de verificação precisa de ao menos ${MIN_VERIFY_TOKEN} caracteres`, 'verifyToken');
      return {
        ...draft,
        config: { ...draft.config, phoneNumberId: cfg.phoneNumberId, businessAccountId: cfg.businessAccountId, apiVersion, verifyToken },
        secrets: { ...draft.secrets, accessToken: token.trim(), appSecret: appSecret.trim() },
      };
    },

    async connect(channel, runtime) {
      stopLocal(channel.id);
      const phone = await checkCredentials(channel);
      const s: Session = { stopped: false };
      sessions.set(channel.id, s);
      await runtime.setStatus(channel.tenantId, channel.id, 'connected', { number: digitsOf(phone.display_phone_number) });
      watch(channel, runtime, s);
      // At most one template sync per channel per minute, however often it reconnects.
      await ctx.jobs
        .enqueue('sync-templates', { tenantId: channel.tenantId, channelId: channel.id }, { jobId: `sync-${channel.id}-${Math.floor(Date.now() / 60_000)}`, attempts: 2, backoffMs: 5000 })
        .catch((err) => ctx.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'waba template sync not queued'));
    },

    async disconnect(channel) {
      stopLocal(channel.id);
    },

    async logout(channel) {
      // Nothing to end at Meta (the number stays registered to the account); forget what only made sense for this channel.
      stopLocal(channel.id);
      await ctx.dbForTenant(channel.tenantId).nativeDelete(WabaMessage, { channelId: channel.id });
    },

    async prepareTemplate(channel, request) {
      // Only this channel's own synced templates: the row is keyed by the channel's tenant and id.
      const row = await ctx.dbForTenant(channel.tenantId).findOne(WabaTemplateRow, { channelId: channel.id, name: request.name, language: request.language });
      if (!row) throw new AppError('ERR_VALIDATION', { details: `modelo ${request.name} (${request.language}) não encontrado neste canal: sincronize os modelos em Conexões` });
      return prepare(row, request);
    },

    async send(channel, msg) {
      const t = await targetOf(channel);
      try {
        const mediaRef = msg.media ? await mediaRefOf(t, msg.media) : undefined;
        const payloads = buildPayloads(msg, mediaRef);
        let providerId: string | undefined;
        for (const p of payloads) {
          const res = await graph.send(t, t.phoneNumberId, p);
          const id = res.messages?.[0]?.id;
          if (!id) throw new GraphError(502, { message: 'a Graph API não devolveu o id da mensagem' });
          providerId ??= id;
        }
        // One row per send, on the send job's hot path: plain SQL.
        await ctx.query(sql`
          INSERT INTO channel_waba_messages (tenant_id, channel_id, provider_id, wa_id, inbound) VALUES (${channel.tenantId}, ${channel.id}, ${providerId!}, ${msg.to.externalId}, false)
          ON CONFLICT (tenant_id, channel_id, provider_id) DO NOTHING`);
        return { providerId: providerId! };
      } catch (err) {
        throw toChannelError(err);
      }
    },

    async react(channel, providerId, emoji) {
      const t = await targetOf(channel);
      const to = await peerOf(channel, providerId);
      await graph.send(t, t.phoneNumberId, { recipient_type: 'individual', to, type: 'reaction', reaction: { message_id: providerId, emoji } }).catch((err) => {
        throw toChannelError(err);
      });
    },
  });

  return definePlugin({
    id: 'channel-waba',
    kind: 'channel',
    name: 'Canal WhatsApp Business API (oficial)',
    description: 'WhatsApp Cloud API da Meta: webhook assinado, texto, mídia, botões, listas, modelos (templates), reações e confirmações de leitura.',
    contract,
    tenantSettings: wabaTenantSettings,
    entities: [WabaTemplateRow, WabaMessage],
    ui: true,
    migrations: [
      {
        name: '0001_init',
        up: [
          `CREATE TABLE channel_waba_templates (
            id serial PRIMARY KEY,
            tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            channel_id integer NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
            template_id text NOT NULL,
            name text NOT NULL,
            language text NOT NULL,
            status text NOT NULL,
            category text,
            components jsonb NOT NULL DEFAULT '[]'::jsonb,
            synced_at timestamptz NOT NULL DEFAULT now())`,
          `CREATE UNIQUE INDEX channel_waba_templates_key ON channel_waba_templates (tenant_id, channel_id, name, language)`,
          // Who each message was exchanged with (reactions need the recipient) and which customer messages still await a read receipt.
          `CREATE TABLE channel_waba_messages (
            tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            channel_id integer NOT NULL,
            provider_id text NOT NULL,
            wa_id text NOT NULL,
            ticket_id integer,
            inbound boolean NOT NULL,
            read_pending boolean NOT NULL DEFAULT false,
            created_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (tenant_id, channel_id, provider_id))`,
          `CREATE INDEX channel_waba_messages_unread ON channel_waba_messages (tenant_id, ticket_id) WHERE read_pending`,
        ],
      },
    ],
    register(c) {
      ctx = c;
      ctx.channels.register(adapter());
      // A sync's outcome reaches only who may read the templates or manage channels, as the routes decide (X1-8).
      ctx.realtime.addVisibilityFilter('waba_templates.synced', (who) => ctx.visibility.mayUseMenu(who, 'tickets') || ctx.visibility.mayUseMenu(who, 'channels'));

      const channelOf = async (channelId: number, maxAgeMs?: number) => {
        const ch = await ctx.channels.find(channelId, { maxAgeMs });
        return ch?.type === 'waba' ? ch : undefined;
      };
      /** The caller's own WABA channel; another tenant's id or another type is as unknown as a missing one. */
      const tenantChannel = async (tenantId: number, channelId: number) => {
        const ch = await channelOf(channelId);
        if (!ch || ch.tenantId !== tenantId) throw new AppError('ERR_NO_WAPP_FOUND');
        return ch;
      };

      ctx.jobs.define<{ tenantId: number; channelId: number }>('sync-templates', async ({ tenantId, channelId }) => {
        const ch = await channelOf(channelId);
        if (!ch || ch.tenantId !== tenantId) return { skipped: true };
        return syncTemplates(ch);
      });

      ctx.jobs.define<{ tenantId: number; channelId: number; providerId: string; status: 'delivered' | 'read' | 'failed'; reason?: string }>('ack-retry', async (d) => {
        return { changed: await ctx.messages.ack(d.tenantId, d.channelId, d.providerId, d.status, d.reason) };
      });

      ctx.jobs.define<{ tenantId: number; channelId: number; providerId: string }>('mark-read', async ({ tenantId, channelId, providerId }) => {
        const ch = await channelOf(channelId);
        if (!ch || ch.tenantId !== tenantId || cfgOf(ch).readReceipts === false) return { skipped: true };
        const t = await targetOf(ch);
        try {
          await graph.markRead(t, t.phoneNumberId, providerId);
        } catch (err) {
          const e = toChannelError(err);
          // An old or unknown message id will never be accepted: stop; an outage is retried by the job.
          if (e.permanent) return { refused: e.message };
          throw e;
        }
        return { read: providerId };
      });

      ctx.jobs.define('prune', async () => {
        // Install-wide maintenance in batches: the one statement here not scoped to a tenant.
        let removed = 0;
        for (;;) {
          const [r] = await ctx.query<{ n: number }>(sql`
            WITH gone AS (
              DELETE FROM channel_waba_messages WHERE ctid IN (SELECT ctid FROM channel_waba_messages WHERE created_at < now() - make_interval(days => ${PEER_RETENTION_DAYS}) LIMIT 5000)
              RETURNING 1)
            SELECT count(*)::int AS n FROM gone`);
          removed += r!.n;
          if (r!.n < 5000) return { removed };
        }
      });
      void ctx.jobs.schedule('prune', 'daily', { pattern: '23 4 * * *' }, {}).catch((err) => ctx.logger.warn({ err: (err as Error).message }, 'waba prune not scheduled'));

      /**
       * Read receipts: when a WABA ticket's unread count drops to zero (its
       * agent opened it, or answered), the customer's newest unread message
       * is marked read at Meta, which marks the earlier ones too. Every node
       * sees the event; the UPDATE … RETURNING lets exactly one of them claim it.
       */
      ctx.events.on('ticket.updated', async (e) => {
        const { ticket } = e.data;
        if (!ticket || ticket.channel !== 'waba' || ticket.unreadMessages !== 0) return;
        // Every ticket update of a WABA ticket passes here: plain SQL, one statement.
        const [newest] = await ctx.query<{ channel_id: number; provider_id: string }>(sql`
          WITH claimed AS (
            UPDATE channel_waba_messages SET read_pending = false WHERE tenant_id = ${e.tenantId} AND ticket_id = ${ticket.id} AND read_pending RETURNING channel_id, provider_id, created_at)
          SELECT channel_id, provider_id FROM claimed ORDER BY created_at DESC LIMIT 1`);
        if (newest) await ctx.jobs.enqueue('mark-read', { tenantId: e.tenantId, channelId: newest.channel_id, providerId: newest.provider_id }, { jobId: `read-${newest.channel_id}-${newest.provider_id}`, attempts: 5, backoffMs: 2000 });
      });

      const tags = ['channel-waba'];
      const webhookParams = z.object({ channelId: positiveId });
      /** Channels whose webhook signature checked out, for the handler of the same request. */
      const signed = new WeakMap<object, ChannelRecord>();

      /**
       * Meta's verification handshake (when the admin saves the callback URL
       * in the app dashboard): echo `hub.challenge` as plain text when the
       * verify token is this channel's; anything else is a 403.
       */
      ctx.http.get(
        '/webhook/:channelId',
        {
          config: { access: { public: true } },
          schema: {
            operationId: 'wabaWebhookVerify',
            tags,
            summary: 'Confirma o webhook para a Meta (devolve hub.challenge)',
            params: webhookParams,
            querystring: wabaVerifyQuery,
            response: { 200: z.string().describe('hub.challenge, em text/plain') },
          },
        },
        async (req, reply) => {
          const q = req.query;
          const channel = await channelOf(req.params.channelId);
          // Same answer for an unknown channel and a wrong token.
          if (!channel || q['hub.mode'] !== 'subscribe' || !verifyTokenMatches(cfgOf(channel).verifyToken, q['hub.verify_token']) || !q['hub.challenge']) throw new AppError('ERR_NO_PERMISSION');
          if (!(await ctx.isEnabled(channel.tenantId))) throw new AppError('ERR_ROUTE_NOT_FOUND');
          return reply.type('text/plain; charset=utf-8').send(q['hub.challenge']);
        },
      );

      /**
       * Meta's event webhook: verify the signature over the raw bytes, store,
       * acknowledge. A missing or wrong signature is a 401 with nothing
       * written; the answer is 2xx only once every message is stored, so a
       * failure makes Meta deliver again.
       */
      ctx.http.post(
        '/webhook/:channelId',
        {
          config: { access: { public: true }, webhook: true },
          // The signature is checked before the body is validated: a caller that cannot sign learns nothing about the channel or the payload.
          preValidation: async (req) => {
            const id = positiveId.safeParse((req.params as { channelId?: unknown }).channelId);
            // A copy up to a second old: Meta's bursts do not read the channel once per notification.
            const channel = id.success ? await channelOf(id.data, 1000) : undefined;
            if (!channel || !signatureValid(channel.secrets.appSecret as string | undefined, req.rawBody ?? Buffer.alloc(0), req.headers[SIGNATURE_HEADER])) throw new AppError('ERR_WEBHOOK_SIGNATURE');
            if (!(await ctx.isEnabled(channel.tenantId))) throw new AppError('ERR_ROUTE_NOT_FOUND');
            // Switched off by an admin (or refused credentials): refuse, so Meta keeps the events and delivers them after reconnecting.
            if (channel.status === 'disconnected') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
            signed.set(req, channel);
          },
          schema: {
            operationId: 'wabaWebhook',
            tags,
            summary: 'Recebe mensagens e status da WhatsApp Cloud API (assinado pela Meta)',
            params: webhookParams,
            body: wabaWebhookBody,
            response: { 200: okAnswer },
          },
        },
        async (req) => {
          const channel = signed.get(req);
          if (!channel) throw new AppError('ERR_WEBHOOK_SIGNATURE');
          try {
            await handleWebhook(channel, req.body as WaWebhook);
          } catch (err) {
            if (err instanceof AppError) throw err;
            ctx.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'waba webhook not stored; Meta will retry');
            throw new AppError(err instanceof ChannelError && err.code === 'ERR_WAPP_DOWNLOAD_MEDIA' ? 'ERR_WAPP_DOWNLOAD_MEDIA' : 'ERR_SERVICE_UNAVAILABLE');
          }
          return { ok: true as const };
        },
      );

      /** What to paste in Meta's app dashboard: the callback URL (when the public address is known) and the verify token. */
      ctx.http.get(
        '/channels/:id/webhook',
        { config: { access: { menu: 'channels' } }, schema: { operationId: 'wabaWebhookInfo', tags, summary: 'URL de callback e token de verificação para o painel da Meta', params: idParam, response: { 200: wabaWebhookInfo } } },
        async (req) => {
          const ch = await tenantChannel(principalOf(req).tenantId, req.params.id);
          const path = `/api/plugins/${ctx.id}/webhook/${ch.id}`;
          const publicUrl = ctx.config.publicUrl?.replace(/\/+$/, '');
          return { path, callbackUrl: publicUrl ? `${publicUrl}${path}` : null, verifyToken: cfgOf(ch).verifyToken ?? null };
        },
      );

      /** The channel's message templates as last synced (agents pick one to send); approved ones by default. */
      ctx.http.get(
        '/channels/:id/templates',
        {
          config: { access: { menu: 'tickets' } },
          schema: { operationId: 'listWabaTemplates', tags, summary: 'Lista os modelos de mensagem sincronizados do canal', params: idParam, querystring: wabaTemplatesQuery, response: { 200: wabaTemplateList } },
        },
        async (req) => {
          const ch = await tenantChannel(principalOf(req).tenantId, req.params.id);
          const { status, search } = req.query;
          const em = ctx.db(req);
          const rows = await em.find(
            WabaTemplateRow,
            { channelId: ch.id, ...(status === 'all' ? {} : { status }), ...(search ? { name: { $ilike: `%${escapeLike(search)}%` } } : {}) },
            { orderBy: { name: 'asc', language: 'asc' }, limit: 1000 },
          );
          const last = await em.findOne(WabaTemplateRow, { channelId: ch.id }, { orderBy: { syncedAt: 'desc' }, fields: ['syncedAt'] });
          return {
            templates: rows.map((row) => ({
              id: row.templateId,
              name: row.name,
              language: row.language,
              status: row.status,
              category: row.category ?? null,
              components: row.components,
              syncedAt: row.syncedAt.toISOString(),
              // The placeholders each template needs, worked out here once, so a picker asks for exactly what a send will check.
              variables: variablesOf(row),
            })),
            syncedAt: last?.syncedAt.toISOString() ?? null,
          };
        },
      );

      /** Fetches the templates from Meta again (after creating or editing them in the WhatsApp Manager). */
      ctx.http.post(
        '/channels/:id/templates/sync',
        { config: { access: { menu: 'channels' } }, schema: { operationId: 'syncWabaTemplates', tags, summary: 'Busca de novo os modelos de mensagem na Meta', params: idParam, response: { 200: wabaTemplatesSynced } } },
        async (req) => {
          const ch = await tenantChannel(principalOf(req).tenantId, req.params.id);
          try {
            return await syncTemplates(ch);
          } catch (err) {
            if (err instanceof AppError) throw err;
            if (isCredentialError(err) || (err instanceof ChannelError && err.code === 'ERR_WABA_INVALID')) throw wabaInvalid('a Meta recusou o token ou os IDs ao buscar os modelos: confira-os e as permissões do app no Business Manager');
            ctx.logger.warn({ channelId: ch.id, err: (err as Error).message }, 'waba template sync failed');
            throw new AppError('ERR_SERVICE_UNAVAILABLE');
          }
        },
      );
    },
  });
}

export default wabaPlugin();
