import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError, ChannelError, definePlugin, z, type ChannelAdapter, type ChannelRecord, type ChannelRuntime, type InboundMessage, type OutboundMessage, type PluginContext } from '@atende/core/sdk';
import { DEFAULT_API_VERSION, DEFAULT_GRAPH_URL, GraphError, META_MEDIA_HOSTS, graph, isCredentialError, toChannelError, type GraphTarget } from './graph.ts';
import { buildPayloads, type MediaRef } from './outbound.ts';
import { prepare, variablesOf, type SyncedTemplate } from './templates.ts';
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

const ID = /^\d{5,30}$/;
const VERSION = /^v\d{1,3}\.\d{1,2}$/;
/** How long a message id is kept for reactions and read receipts: WhatsApp refuses both for older messages. */
const PEER_RETENTION_DAYS = 30;

const configSchema = z
  .object({
    phoneNumberId: z.string().trim().optional(),
    businessAccountId: z.string().trim().optional(),
    apiVersion: z.string().trim().optional(),
    /** Token Meta sends back in the webhook verification handshake; generated when left blank. */
    verifyToken: z.string().trim().max(200).optional(),
    /** Graph API base URL: Meta's by default, the local fake in tests. */
    graphBaseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** Mark customer messages as read on WhatsApp (blue ticks) when an agent reads them. Default on. */
    readReceipts: z.boolean().optional(),
    /** How often the credential check runs while connected. */
    healthIntervalMs: z.number().int().min(200).max(3_600_000).optional(),
  })
  .passthrough();
type WabaConfig = z.infer<typeof configSchema>;

const tenantSettings = z
  .object({
    /** Graph API base URL for every channel of the tenant (a channel's own `graphBaseUrl` wins). */
    graphBaseUrl: z.url({ protocol: /^https?$/ }).optional(),
  })
  .passthrough();

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

  const cfgOf = (channel: ChannelRecord): WabaConfig => configSchema.parse(channel.config ?? {});

  /** Graph coordinates of a channel: base URL (channel, then tenant setting, then Meta), version and token. */
  async function targetOf(channel: ChannelRecord): Promise<GraphTarget & { phoneNumberId: string; wabaId: string }> {
    const cfg = cfgOf(channel);
    const token = channel.secrets.accessToken;
    if (typeof token !== 'string' || !token || !cfg.phoneNumberId || !cfg.businessAccountId) throw new ChannelError('ERR_WABA_INVALID', 'Dados WABA incorretos: faltam o token ou os IDs do número e da conta', true);
    const tenantUrl = cfg.graphBaseUrl ? undefined : (await ctx.tenantSettings<z.infer<typeof tenantSettings>>(channel.tenantId).catch(() => ({}) as { graphBaseUrl?: string })).graphBaseUrl;
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
          await ctx.sql(
            `INSERT INTO channel_waba_messages (tenant_id, channel_id, provider_id, wa_id, ticket_id, inbound, read_pending) VALUES ($1, $2, $3, $4, $5, true, $6)
             ON CONFLICT (tenant_id, channel_id, provider_id) DO NOTHING`,
            [channel.tenantId, channel.id, m.id, m.from, res.ticketId, cfg.readReceipts !== false],
          );
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
    const r = await ctx.sql<{ wa_id: string }>('SELECT wa_id FROM channel_waba_messages WHERE tenant_id = $1 AND channel_id = $2 AND provider_id = $3', [channel.tenantId, channel.id, providerId]);
    if (!r.rows[0]) throw new ChannelError('ERR_SENDING_WAPP_MSG', 'mensagem antiga demais ou desconhecida neste canal: o WhatsApp só aceita reações a mensagens dos últimos 30 dias', true);
    return r.rows[0].wa_id;
  }

  /** Every template of the channel's account into `channel_waba_templates`; templates gone at Meta are removed. */
  async function syncTemplates(channel: ChannelRecord): Promise<{ count: number; syncedAt: string }> {
    const t = await targetOf(channel);
    const list = await graph.templates(t, t.wabaId);
    const r = await ctx.sql<{ at: string }>(
      `WITH src AS (
         SELECT * FROM jsonb_to_recordset($3::jsonb) AS x(id text, name text, language text, status text, category text, components jsonb)),
       up AS (
         INSERT INTO channel_waba_templates (tenant_id, channel_id, template_id, name, language, status, category, components, synced_at)
         SELECT $1, $2, id, name, language, status, category, coalesce(components, '[]'::jsonb), now() FROM src
         ON CONFLICT (tenant_id, channel_id, name, language) DO UPDATE
           SET template_id = EXCLUDED.template_id, status = EXCLUDED.status, category = EXCLUDED.category, components = EXCLUDED.components, synced_at = EXCLUDED.synced_at
         RETURNING 1)
       SELECT now()::text AS at, (SELECT count(*) FROM up) AS n`,
      [channel.tenantId, channel.id, JSON.stringify(list.filter((x) => x.name && x.language).map((x) => ({ id: String(x.id), name: x.name, language: x.language, status: x.status ?? 'UNKNOWN', category: x.category ?? null, components: x.components ?? [] })))],
    );
    // Every row this sync saw carries its statement's now(); older ones are templates deleted at Meta.
    const at = r.rows[0].at;
    await ctx.sql('DELETE FROM channel_waba_templates WHERE tenant_id = $1 AND channel_id = $2 AND synced_at < $3::timestamptz', [channel.tenantId, channel.id, at]);
    await ctx.events.publish(channel.tenantId, 'waba_templates.synced', { channelId: channel.id, count: list.length, syncedAt: at });
    return { count: list.length, syncedAt: at };
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
      const parsed = configSchema.safeParse(draft.config);
      if (!parsed.success) throw wabaInvalid(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const cfg = parsed.data;
      if (!cfg.phoneNumberId || !ID.test(cfg.phoneNumberId)) throw wabaInvalid('informe o ID do número de telefone (somente dígitos, como aparece no WhatsApp Manager)', 'phoneNumberId');
      if (!cfg.businessAccountId || !ID.test(cfg.businessAccountId)) throw wabaInvalid('informe o ID da conta do WhatsApp Business (somente dígitos)', 'businessAccountId');
      const apiVersion = cfg.apiVersion || DEFAULT_API_VERSION;
      if (!VERSION.test(apiVersion)) throw wabaInvalid('versão da API inválida: use o formato v21.0', 'apiVersion');
      const token = draft.secrets.accessToken;
      if (typeof token !== 'string' || !token.trim()) throw wabaInvalid('informe o token do Business Manager', 'accessToken');
      const appSecret = draft.secrets.appSecret;
      if (typeof appSecret !== 'string' || !appSecret.trim()) throw wabaInvalid('informe a chave secreta do app (usada para conferir a assinatura dos webhooks)', 'appSecret');
      // A blank verify token keeps the saved one (the admin already pasted it in Meta), or gets a fresh random one.
      const verifyToken = cfg.verifyToken || (current?.config.verifyToken as string | undefined) || randomBytes(24).toString('base64url');
      if (verifyToken.length < 8) throw wabaInvalid('o token de verificação precisa de ao menos 8 caracteres', 'verifyToken');
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
      await ctx.sql('DELETE FROM channel_waba_messages WHERE tenant_id = $1 AND channel_id = $2', [channel.tenantId, channel.id]);
    },

    async prepareTemplate(channel, request) {
      // Only this channel's own synced templates: the row is keyed by the channel's tenant and id.
      const r = await ctx.sql<SyncedTemplate>(
        'SELECT name, language, status, components FROM channel_waba_templates WHERE tenant_id = $1 AND channel_id = $2 AND name = $3 AND language = $4',
        [channel.tenantId, channel.id, request.name, request.language],
      );
      if (!r.rows[0]) throw new AppError('ERR_VALIDATION', { details: `modelo ${request.name} (${request.language}) não encontrado neste canal: sincronize os modelos em Conexões` });
      return prepare(r.rows[0], request);
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
        await ctx.sql(
          `INSERT INTO channel_waba_messages (tenant_id, channel_id, provider_id, wa_id, inbound) VALUES ($1, $2, $3, $4, false) ON CONFLICT (tenant_id, channel_id, provider_id) DO NOTHING`,
          [channel.tenantId, channel.id, providerId!, msg.to.externalId],
        );
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
    tenantSettings,
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
        let removed = 0;
        for (;;) {
          const r = await ctx.sql(
            `DELETE FROM channel_waba_messages WHERE ctid IN (SELECT ctid FROM channel_waba_messages WHERE created_at < now() - make_interval(days => $1) LIMIT 5000)`,
            [PEER_RETENTION_DAYS],
          );
          removed += r.rowCount ?? 0;
          if ((r.rowCount ?? 0) < 5000) return { removed };
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
        const ticket = (e.data as { ticket?: { id: number; channel?: string | null; unreadMessages?: number } }).ticket;
        if (!ticket || ticket.channel !== 'waba' || ticket.unreadMessages !== 0) return;
        const r = await ctx.sql<{ channel_id: number; provider_id: string }>(
          `WITH claimed AS (
             UPDATE channel_waba_messages SET read_pending = false WHERE tenant_id = $1 AND ticket_id = $2 AND read_pending RETURNING channel_id, provider_id, created_at)
           SELECT channel_id, provider_id FROM claimed ORDER BY created_at DESC LIMIT 1`,
          [e.tenantId, ticket.id],
        );
        const newest = r.rows[0];
        if (newest) await ctx.jobs.enqueue('mark-read', { tenantId: e.tenantId, channelId: newest.channel_id, providerId: newest.provider_id }, { jobId: `read-${newest.channel_id}-${newest.provider_id}`, attempts: 5, backoffMs: 2000 });
      });

      const params = z.object({ channelId: z.coerce.number().int().positive().max(2_147_483_647) });
      const verifyQuery = z.object({
        'hub.mode': z.string().max(50).optional(),
        'hub.verify_token': z.string().max(500).optional(),
        'hub.challenge': z.string().max(500).optional(),
      });

      /**
       * Meta's verification handshake (when the admin saves the callback URL
       * in the app dashboard): echo `hub.challenge` as plain text when the
       * verify token is this channel's; anything else is a 403.
       */
      ctx.http.get('/webhook/:channelId', { config: { access: { public: true } }, schema: { params, querystring: verifyQuery } }, async (req, reply) => {
        const { channelId } = req.params as z.infer<typeof params>;
        const q = req.query as z.infer<typeof verifyQuery>;
        const channel = await channelOf(channelId);
        // Same answer for an unknown channel and a wrong token.
        if (!channel || q['hub.mode'] !== 'subscribe' || !verifyTokenMatches(cfgOf(channel).verifyToken, q['hub.verify_token']) || !q['hub.challenge']) throw new AppError('ERR_NO_PERMISSION');
        if (!(await ctx.isEnabled(channel.tenantId))) throw new AppError('ERR_ROUTE_NOT_FOUND');
        return reply.type('text/plain; charset=utf-8').send(q['hub.challenge']);
      });

      /**
       * Meta's event webhook: verify the signature over the raw bytes, store,
       * acknowledge. A missing or wrong signature is a 401 with nothing
       * written; the answer is 2xx only once every message is stored, so a
       * failure makes Meta deliver again.
       */
      ctx.http.post('/webhook/:channelId', { config: { access: { public: true }, webhook: true }, schema: { params } }, async (req, reply) => {
        const { channelId } = req.params as z.infer<typeof params>;
        // A copy up to a second old: Meta's bursts do not read the channel once per notification.
        const channel = await channelOf(channelId, 1000);
        if (!channel || !signatureValid(channel.secrets.appSecret as string | undefined, req.rawBody ?? Buffer.alloc(0), req.headers[SIGNATURE_HEADER])) throw new AppError('ERR_WEBHOOK_SIGNATURE');
        if (!(await ctx.isEnabled(channel.tenantId))) throw new AppError('ERR_ROUTE_NOT_FOUND');
        // Switched off by an admin (or refused credentials): refuse, so Meta keeps the events and delivers them after reconnecting.
        if (channel.status === 'disconnected') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
        const body = req.body as WaWebhook | undefined;
        if (!body || typeof body !== 'object' || !Array.isArray(body.entry)) throw new AppError('ERR_VALIDATION', { details: 'notificação da WhatsApp Cloud API inválida' });
        try {
          await handleWebhook(channel, body);
        } catch (err) {
          if (err instanceof AppError) throw err;
          ctx.logger.warn({ channelId, err: (err as Error).message }, 'waba webhook not stored; Meta will retry');
          throw new AppError(err instanceof ChannelError && err.code === 'ERR_WAPP_DOWNLOAD_MEDIA' ? 'ERR_WAPP_DOWNLOAD_MEDIA' : 'ERR_SERVICE_UNAVAILABLE');
        }
        return reply.send({ ok: true });
      });

      const channelParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

      /** What to paste in Meta's app dashboard: the callback URL (when the public address is known) and the verify token. */
      ctx.http.get('/channels/:id/webhook', { config: { access: { menu: 'channels' } }, schema: { params: channelParam } }, async (req) => {
        const ch = await tenantChannel(req.principal!.tenantId, (req.params as z.infer<typeof channelParam>).id);
        const path = `/api/plugins/${ctx.id}/webhook/${ch.id}`;
        const publicUrl = ctx.config.publicUrl?.replace(/\/+$/, '');
        return { path, callbackUrl: publicUrl ? `${publicUrl}${path}` : null, verifyToken: cfgOf(ch).verifyToken ?? null };
      });

      const templatesQuery = z.object({
        status: z.enum(['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'all']).default('APPROVED'),
        // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the query.
        search: z.string().trim().max(200).regex(/^[^\u0000]*$/, 'caractere inválido').optional(),
      });

      /** The channel's message templates as last synced (agents pick one to send); approved ones by default. */
      ctx.http.get('/channels/:id/templates', { config: { access: { menu: 'tickets' } }, schema: { params: channelParam, querystring: templatesQuery } }, async (req) => {
        const ch = await tenantChannel(req.principal!.tenantId, (req.params as z.infer<typeof channelParam>).id);
        const q = req.query as z.infer<typeof templatesQuery>;
        const r = await ctx.sql(
          `SELECT template_id AS "id", name, language, status, category, components, synced_at AS "syncedAt"
             FROM channel_waba_templates
            WHERE tenant_id = $1 AND channel_id = $2 AND ($3::text = 'all' OR status = $3) AND ($4::text IS NULL OR name ILIKE '%' || $4 || '%')
            ORDER BY name, language LIMIT 1000`,
          [ch.tenantId, ch.id, q.status, q.search ? q.search.replace(/[\\%_]/g, (x) => `\\${x}`) : null],
        );
        const last = await ctx.sql<{ at: Date | null }>('SELECT max(synced_at) AS at FROM channel_waba_templates WHERE tenant_id = $1 AND channel_id = $2', [ch.tenantId, ch.id]);
        // The placeholders each template needs, worked out here once, so a picker asks for exactly what a send will check.
        return { templates: r.rows.map((row) => ({ ...row, variables: variablesOf(row as { components: SyncedTemplate['components'] }) })), syncedAt: last.rows[0]?.at ?? null };
      });

      /** Fetches the templates from Meta again (after creating or editing them in the WhatsApp Manager). */
      ctx.http.post('/channels/:id/templates/sync', { config: { access: { menu: 'channels' } }, schema: { params: channelParam } }, async (req) => {
        const ch = await tenantChannel(req.principal!.tenantId, (req.params as z.infer<typeof channelParam>).id);
        try {
          return await syncTemplates(ch);
        } catch (err) {
          if (err instanceof AppError) throw err;
          if (isCredentialError(err) || (err instanceof ChannelError && err.code === 'ERR_WABA_INVALID')) throw new AppError('ERR_WABA_INVALID');
          ctx.logger.warn({ channelId: ch.id, err: (err as Error).message }, 'waba template sync failed');
          throw new AppError('ERR_SERVICE_UNAVAILABLE');
        }
      });
    },
  });
}

export default wabaPlugin();
