import { createHash, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { Telegram, TelegramError } from 'telegraf';
import { AppError, ChannelError, definePlugin, okAnswer, positiveId, providerReason, z, type ChannelAdapter, type ChannelRecord, type ChannelRuntime, type InboundMessage, type OutboundMessage, type PluginContext } from '@atende/core/sdk';
import { contract, telegramConfig, telegramToken, telegramUpdate, type TelegramConfig } from './contract.ts';
import { entitiesOf, sliceFormatted, toTelegram, type FormattedText } from './formatting.ts';

/**
 * Telegram bots (telegraf's Bot API client). A channel is one bot token.
 * Updates arrive by webhook (`setWebhook` with a secret token the webhook
 * route checks in constant time) when the install has a public URL, or by
 * long polling otherwise. Either way the session is long-lived: the kernel
 * runs it on exactly one worker node, which owns the polling loop (Telegram
 * refuses two concurrent `getUpdates`) or the webhook registration and its
 * health check. Sending is stateless and runs on any worker.
 */

export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
const ALLOWED_UPDATES = ['message', 'callback_query'] as const;
const TEXT_LIMIT = 4096;
/** Telegram's own Bot API: the only server a tenant admin may use; another (a self-hosted Bot API) needs the superadmin. */
export const OFFICIAL_API_ROOT = 'https://api.telegram.org';
const CAPTION_LIMIT = 1024;

interface Session {
  abort: AbortController;
  timer?: NodeJS.Timeout;
}

/** Equal-time comparison of the secret token: hashing first makes the lengths equal, so the length leaks nothing either. */
export function secretMatches(expected: string | undefined, given: string | string[] | undefined): boolean {
  if (!expected || typeof given !== 'string' || !given) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Maps a Bot API failure to the catalogue: recipient problems and refusals are permanent, rate limits and outages are retried. */
export function toChannelError(err: unknown, fallback: 'ERR_SENDING_WAPP_MSG' | 'ERR_WAPP_DOWNLOAD_MEDIA' | 'ERR_DELETE_WAPP_MSG' = 'ERR_SENDING_WAPP_MSG'): ChannelError {
  if (err instanceof ChannelError) return err;
  if (err instanceof TelegramError) {
    const text = `Telegram: ${providerReason(err.description ?? err.message) || `HTTP ${err.code}`}`;
    if (err.code === 401) return new ChannelError('ERR_WAPP_NOT_INITIALIZED', text, true);
    if (err.code === 403 || (err.code === 400 && /chat not found|user not found|peer_id_invalid|bot can't initiate/i.test(err.description ?? ''))) return new ChannelError('ERR_WAPP_INVALID_CONTACT', text, true);
    if (err.code === 400) return new ChannelError(fallback, text, true);
    return new ChannelError(fallback, text, false);
  }
  const e = err as { code?: string; message?: string; type?: string };
  if (e.code === 'ERR_OUTBOUND_BLOCKED') return new ChannelError(fallback, 'Telegram: endereço de destino não permitido', true);
  // Only the error's kind: a network error's message can carry the URL (with the token) and the start of the remote's body.
  return new ChannelError(fallback, `Telegram inacessível: ${e.code ?? (e.type === 'invalid-json' ? 'resposta inválida do servidor' : e.type) ?? 'falha de rede'}`, false);
}

function fullName(u: { first_name?: string; last_name?: string; username?: string; title?: string } | undefined): string | undefined {
  if (!u) return undefined;
  return [u.first_name, u.last_name].filter(Boolean).join(' ') || u.title || u.username;
}

function chunks(f: FormattedText, size: number): FormattedText[] {
  if (f.text.length <= size) return [f];
  const out: FormattedText[] = [];
  for (let i = 0; i < f.text.length; i += size) out.push(sliceFormatted(f, i, i + size));
  return out;
}

function telegramPlugin() {
  let ctx: PluginContext;
  /** Sessions this node runs (the kernel's lease decides which). */
  const sessions = new Map<number, Session>();
  const clients = new Map<string, Telegram>();

  const cfgOf = (channel: ChannelRecord): TelegramConfig => telegramConfig.parse(channel.config ?? {});
  const tokenOf = (channel: ChannelRecord): string => {
    const token = channel.secrets.token;
    if (typeof token !== 'string' || !token) throw new ChannelError('ERR_TELEGRAM_TOKEN', 'O canal Telegram precisa de um token', true);
    return token;
  };
  const client = (channel: ChannelRecord): Telegram => {
    const token = tokenOf(channel);
    const apiRoot = cfgOf(channel).apiRoot ?? OFFICIAL_API_ROOT;
    const key = `${apiRoot}|${token}`;
    let c = clients.get(key);
    if (!c) {
      clients.set(key, (c = new Telegram(token, { apiRoot, webhookReply: false })));
      // Every connection telegraf opens (API calls, and files it fetches to upload) goes through the guard.
      // Set after construction: telegraf drops the agent it was given when the API root is plain http.
      const agent = (u: URL) => (u.protocol === 'http:' ? ctx.outbound.agents.http : ctx.outbound.agents.https);
      Object.assign((c as unknown as { options: Record<string, unknown> }).options, { agent, attachmentAgent: agent });
    }
    return c;
  };
  const baseUrlOf = (cfg: TelegramConfig) => (cfg.webhookBaseUrl ?? ctx.config.publicUrl)?.replace(/\/+$/, '');
  const modeOf = (cfg: TelegramConfig): 'webhook' | 'polling' => cfg.mode ?? (baseUrlOf(cfg) ? 'webhook' : 'polling');
  const webhookUrl = (channel: ChannelRecord) => `${baseUrlOf(cfgOf(channel))}/api/plugins/${ctx.id}/webhook/${channel.id}`;

  /** Downloads a file the customer sent and keeps it in the kernel's media store. */
  async function download(channel: ChannelRecord, fileId: string, name: string, mimetype: string) {
    let res: Response;
    try {
      const link = await client(channel).getFileLink(fileId);
      // The file URL is built from the API root: it is followed only to that host.
      res = await ctx.outbound.fetch(link, { signal: AbortSignal.timeout(60_000) }, { allowHosts: [new URL(cfgOf(channel).apiRoot ?? OFFICIAL_API_ROOT).hostname] });
    } catch (err) {
      throw toChannelError(err, 'ERR_WAPP_DOWNLOAD_MEDIA');
    }
    if (!res.ok || !res.body) throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', `Telegram: download do arquivo falhou (${res.status})`, res.status < 500);
    try {
      const stored = await ctx.storage.save(channel.tenantId, name, mimetype, Readable.fromWeb(res.body as never));
      return { url: stored.url, mimetype: stored.mimetype, name: stored.name };
    } catch (err) {
      // A type or size the platform refuses: the message still arrives, saying what was left out.
      if (err instanceof AppError && (err.code === 'ERR_FILE_REJECTED' || err.code === 'ERR_FILE_TOO_LARGE')) return { rejected: err.code };
      throw err;
    }
  }

  type TgMessage = {
    message_id: number;
    date: number;
    chat: { id: number; type: string; title?: string; first_name?: string; last_name?: string; username?: string };
    from?: { id: number; first_name?: string; last_name?: string; username?: string; is_bot?: boolean };
    text?: string;
    caption?: string;
    photo?: { file_id: string; file_size?: number }[];
    document?: { file_id: string; file_name?: string; mime_type?: string };
    voice?: { file_id: string; mime_type?: string };
    audio?: { file_id: string; file_name?: string; mime_type?: string };
    video?: { file_id: string; file_name?: string; mime_type?: string };
    reply_to_message?: { message_id: number };
  };

  /**
   * One Bot API update into the kernel. The provider message id is
   * `chatId:message_id`, so a replayed update (webhook retry, unconfirmed
   * poll) is stored once. Throws on a temporary failure so the update is
   * delivered again (webhook non-2xx, poll offset not advanced).
   */
  async function handleUpdate(channel: ChannelRecord, update: { update_id: number; message?: TgMessage; callback_query?: { id: string; data?: string; from: { id: number; first_name?: string; last_name?: string; username?: string }; message?: TgMessage } }) {
    const base = { tenantId: channel.tenantId, channelId: channel.id };
    if (update.callback_query) {
      const cq = update.callback_query;
      const chat = cq.message?.chat ?? { id: cq.from.id, type: 'private' };
      await client(channel).answerCbQuery(cq.id).catch(() => undefined);
      const group = chat.type === 'group' || chat.type === 'supergroup';
      await ctx.messages.ingest({
        ...base,
        providerMessageId: `cb:${cq.id}`,
        from: { kind: 'telegram', externalId: String(group ? cq.from.id : chat.id), name: fullName(cq.from), number: null },
        group: group ? { kind: 'telegram', externalId: String(chat.id), name: chat.title } : undefined,
        body: cq.data ?? '',
        data: { buttonReply: true },
      });
      return;
    }
    const m = update.message;
    if (!m || m.from?.is_bot) return;
    const group = m.chat.type === 'group' || m.chat.type === 'supergroup';
    const sender = group ? m.from : { ...m.chat, ...m.from };
    const msg: InboundMessage = {
      ...base,
      providerMessageId: `${m.chat.id}:${m.message_id}`,
      from: { kind: 'telegram', externalId: String(group ? m.from?.id : m.chat.id), name: fullName(sender), number: null },
      group: group ? { kind: 'telegram', externalId: String(m.chat.id), name: m.chat.title } : undefined,
      body: m.text ?? m.caption ?? '',
      timestamp: new Date(m.date * 1000),
      quotedProviderId: m.reply_to_message ? `${m.chat.id}:${m.reply_to_message.message_id}` : undefined,
    };
    const file = m.photo?.length
      ? { id: m.photo[m.photo.length - 1].file_id, name: `foto-${m.message_id}.jpg`, mimetype: 'image/jpeg' }
      : m.document
        ? { id: m.document.file_id, name: m.document.file_name ?? `arquivo-${m.message_id}`, mimetype: m.document.mime_type ?? 'application/octet-stream' }
        : m.voice
          ? { id: m.voice.file_id, name: `audio-${m.message_id}.ogg`, mimetype: m.voice.mime_type ?? 'audio/ogg' }
          : m.audio
            ? { id: m.audio.file_id, name: m.audio.file_name ?? `audio-${m.message_id}.mp3`, mimetype: m.audio.mime_type ?? 'audio/mpeg' }
            : m.video
              ? { id: m.video.file_id, name: m.video.file_name ?? `video-${m.message_id}.mp4`, mimetype: m.video.mime_type ?? 'video/mp4' }
              : undefined;
    if (file) {
      const media = await download(channel, file.id, file.name, file.mimetype);
      if ('rejected' in media) msg.data = { mediaRejected: media.rejected, mediaName: file.name, mediaType: file.mimetype };
      else msg.media = media;
    }
    if (!msg.body && !msg.media && !msg.data) return; // stickers, locations, service messages: nothing an agent can read
    await ctx.messages.ingest(msg);
  }

  function stopLocal(channelId: number) {
    const s = sessions.get(channelId);
    if (!s) return;
    sessions.delete(channelId);
    s.abort.abort();
    if (s.timer) clearInterval(s.timer);
  }

  /** Consecutive failures → pairingTimeout (lost connection) with the retry count, backing off up to 30 s. */
  const backoff = (n: number) => Math.min(30_000, 500 * 2 ** Math.min(n, 6));

  async function pollLoop(channel: ChannelRecord, runtime: ChannelRuntime, s: Session) {
    const tg = client(channel);
    const timeout = cfgOf(channel).pollTimeoutSec ?? 25;
    let offset = 0;
    let failures = 0;
    while (!s.abort.signal.aborted) {
      try {
        const updates = (await tg.callApi('getUpdates', { offset, timeout, allowed_updates: [...ALLOWED_UPDATES] }, { signal: s.abort.signal as never })) as { update_id: number }[];
        if (failures) {
          failures = 0;
          await runtime.setStatus(channel.tenantId, channel.id, 'connected');
        }
        // The offset moves past an update only once it is stored: a crash here means Telegram sends it again.
        for (const u of updates) {
          await handleUpdate(channel, u as never);
          offset = u.update_id + 1;
        }
      } catch (err) {
        if (s.abort.signal.aborted) return;
        if (err instanceof TelegramError && err.code === 401) {
          await runtime.setStatus(channel.tenantId, channel.id, 'disconnected', { error: 'O Telegram recusou o token (401 Unauthorized)' });
          stopLocal(channel.id);
          return;
        }
        if (err instanceof TelegramError && err.code === 409) await tg.deleteWebhook().catch(() => undefined);
        failures++;
        ctx.logger.warn({ channelId: channel.id, err: (err as Error).message, failures }, 'telegram polling failed');
        await runtime.setStatus(channel.tenantId, channel.id, 'pairingTimeout', { retries: failures, error: toChannelError(err).message.slice(0, 300) }).catch(() => undefined);
        await sleep(backoff(failures), s.abort.signal);
      }
    }
  }

  /** Webhook mode: a periodic check that the Bot API answers and still points at us; lost and found again, it re-registers. */
  function watchWebhook(channel: ChannelRecord, runtime: ChannelRuntime, s: Session) {
    const tg = client(channel);
    let failures = 0;
    let running = false;
    s.timer = setInterval(() => {
      if (running || s.abort.signal.aborted) return;
      running = true;
      void (async () => {
        try {
          const info = await tg.getWebhookInfo();
          if (info.url !== webhookUrl(channel)) await registerWebhook(channel);
          if (failures) {
            failures = 0;
            await runtime.setStatus(channel.tenantId, channel.id, 'connected');
          }
        } catch (err) {
          if (s.abort.signal.aborted) return;
          failures++;
          const permanent = err instanceof TelegramError && err.code === 401;
          await runtime.setStatus(channel.tenantId, channel.id, permanent ? 'disconnected' : 'pairingTimeout', { retries: failures, error: toChannelError(err).message.slice(0, 300) }).catch(() => undefined);
          if (permanent) stopLocal(channel.id);
        } finally {
          running = false;
        }
      })();
    }, cfgOf(channel).healthIntervalMs ?? 60_000);
    s.timer.unref();
  }

  async function registerWebhook(channel: ChannelRecord) {
    await client(channel).setWebhook(webhookUrl(channel), { secret_token: String(channel.secrets.webhookSecret), allowed_updates: [...ALLOWED_UPDATES] });
  }

  const adapter = (): ChannelAdapter => ({
    type: 'telegram',
    label: 'Telegram',
    identityKind: 'telegram',
    longLived: true,
    providerUrls: { apiRoot: OFFICIAL_API_ROOT },
    capabilities: {
      media: ['image', 'audio', 'video', 'document'],
      buttons: true,
      lists: false,
      templates: false,
      reactions: true,
      edit: true,
      delete: true,
      groups: true,
      qr: false,
      pairingCode: false,
      historyImport: false,
      readReceipts: false,
      proxy: false,
    },

    prepare(draft) {
      const given = draft.secrets.token;
      if (typeof given !== 'string' || !given.trim()) throw new AppError('ERR_TELEGRAM_TOKEN');
      const token = telegramToken.safeParse(given);
      if (!token.success) throw new AppError('ERR_VALIDATION', { details: token.error.issues[0]!.message });
      const parsed = telegramConfig.safeParse(draft.config);
      if (!parsed.success) throw new AppError('ERR_VALIDATION', { details: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      if (parsed.data.mode === 'webhook' && !baseUrlOf(parsed.data)) throw new AppError('ERR_VALIDATION', { details: 'o modo webhook precisa do endereço público da instalação (ATENDE_PUBLIC_URL ou webhookBaseUrl); use o modo polling' });
      return { ...draft, secrets: { ...draft.secrets, token: token.data } };
    },

    async connect(channel, runtime) {
      stopLocal(channel.id);
      const tg = client(channel);
      let me: { username?: string };
      try {
        me = await tg.getMe();
      } catch (err) {
        if (err instanceof TelegramError && (err.code === 401 || err.code === 404)) throw new ChannelError('ERR_TELEGRAM_TOKEN', 'O Telegram recusou o token (401 Unauthorized): confira o token no @BotFather', true);
        throw toChannelError(err);
      }
      const s: Session = { abort: new AbortController() };
      const mode = modeOf(cfgOf(channel));
      try {
        if (mode === 'webhook') await registerWebhook(channel);
        // Telegram refuses getUpdates while a webhook is set.
        else await tg.deleteWebhook();
      } catch (err) {
        throw toChannelError(err);
      }
      sessions.set(channel.id, s);
      await runtime.setStatus(channel.tenantId, channel.id, 'connected', { number: me.username ? `@${me.username}` : null });
      if (mode === 'webhook') watchWebhook(channel, runtime, s);
      else void pollLoop(channel, runtime, s).catch((err) => ctx.logger.error({ channelId: channel.id, err: (err as Error).message }, 'telegram polling stopped'));
    },

    async disconnect(channel) {
      // The webhook stays registered: the session may be resuming on another node. Deleting the channel removes it (logout).
      stopLocal(channel.id);
    },

    async logout(channel) {
      stopLocal(channel.id);
      await client(channel).deleteWebhook().catch((err) => ctx.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'telegram deleteWebhook failed'));
    },

    async send(channel, msg: OutboundMessage) {
      const tg = client(channel);
      const chatId = msg.to.externalId;
      const [quotedChat, quotedId] = msg.quotedProviderId?.split(':') ?? [];
      const reply = quotedChat === chatId && quotedId ? { reply_parameters: { message_id: Number(quotedId), allow_sending_without_reply: true } } : {};
      try {
        let sent: { message_id: number; chat: { id: number } };
        if (msg.media) {
          const source = msg.media.path ? { source: msg.media.path, filename: msg.media.name } : msg.media.url && /^https?:\/\//.test(msg.media.url) ? { url: msg.media.url, filename: msg.media.name } : undefined;
          if (!source) throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'arquivo da mensagem não encontrado no armazenamento', true);
          const caption = msg.body ? sliceFormatted(toTelegram(msg.body), 0, CAPTION_LIMIT) : undefined;
          const extra = { caption: caption?.text, ...(caption ? entitiesOf(caption, 'caption_entities') : {}), ...reply };
          const kind = msg.media.kind;
          sent =
            kind === 'image'
              ? await tg.sendPhoto(chatId, source, extra)
              : kind === 'video'
                ? await tg.sendVideo(chatId, source, extra)
                : kind === 'audio'
                  ? msg.media.mimetype.includes('ogg')
                    ? await tg.sendVoice(chatId, source, extra)
                    : await tg.sendAudio(chatId, source, extra)
                  : await tg.sendDocument(chatId, source, extra);
        } else if (msg.buttons?.length) {
          const text = sliceFormatted(toTelegram(msg.body), 0, TEXT_LIMIT);
          sent = await tg.sendMessage(chatId, text.text, {
            ...entitiesOf(text),
            ...reply,
            reply_markup: { inline_keyboard: msg.buttons.map((b) => [{ text: b.label, callback_data: b.value.slice(0, 64) }]) },
          });
        } else {
          // Longer texts go out in parts; the first part carries the quote and stands for the message.
          const [first, ...rest] = chunks(toTelegram(msg.body), TEXT_LIMIT);
          sent = await tg.sendMessage(chatId, first!.text, { ...entitiesOf(first!), ...reply });
          for (const part of rest) await tg.sendMessage(chatId, part.text, entitiesOf(part));
        }
        return { providerId: `${sent.chat.id}:${sent.message_id}` };
      } catch (err) {
        throw toChannelError(err);
      }
    },

    async edit(channel, providerId, body) {
      const [chatId, messageId] = providerId.split(':');
      const text = sliceFormatted(toTelegram(body), 0, TEXT_LIMIT);
      await client(channel).editMessageText(chatId, Number(messageId), undefined, text.text, entitiesOf(text)).catch((err) => {
        throw toChannelError(err);
      });
    },

    async delete(channel, providerId) {
      const [chatId, messageId] = providerId.split(':');
      await client(channel).deleteMessage(chatId, Number(messageId)).catch((err) => {
        throw toChannelError(err, 'ERR_DELETE_WAPP_MSG');
      });
    },

    async react(channel, providerId, emoji) {
      const [chatId, messageId] = providerId.split(':');
      await client(channel)
        .setMessageReaction(chatId, Number(messageId), emoji ? [{ type: 'emoji', emoji: emoji as never }] : [])
        .catch((err) => {
          throw toChannelError(err);
        });
    },
  });

  return definePlugin({
    id: 'channel-telegram',
    kind: 'channel',
    contract,
    name: 'Canal Telegram',
    description: 'Bots do Telegram: webhook com token secreto ou long polling, texto, mídia e botões.',
    // ui-plugins/channel-telegram: the bot token and mode fields of the /sessoes channel dialog.
    ui: true,
    register(c) {
      ctx = c;
      ctx.channels.register(adapter());

      /** Channels whose secret token checked out, for the handler of the same request. */
      const verified = new WeakMap<object, ChannelRecord>();

      /**
       * Telegram's webhook: verify the secret token, store, acknowledge. A
       * wrong or missing token is a 401 with nothing written; an update is
       * answered 2xx only once stored, so a failure makes Telegram retry.
       */
      ctx.http.post(
        '/webhook/:channelId',
        {
          config: { access: { public: true }, webhook: true },
          // The token is checked before the body is validated: a caller without it learns nothing about the channel or the payload.
          preValidation: async (req) => {
            const id = positiveId.safeParse((req.params as { channelId?: unknown }).channelId);
            // A copy up to a second old: a burst of updates does not read the channel once per update.
            const found = id.success ? await ctx.channels.find(id.data, { maxAgeMs: 1000 }) : undefined;
            const channel = found?.type === 'telegram' ? found : undefined;
            // Same answer for an unknown channel and a bad token: a caller learns nothing about which ids exist.
            if (!channel || !secretMatches(channel.secrets.webhookSecret as string | undefined, req.headers[SECRET_HEADER])) throw new AppError('ERR_WEBHOOK_SIGNATURE');
            if (!(await ctx.isEnabled(channel.tenantId))) throw new AppError('ERR_ROUTE_NOT_FOUND');
            // Switched off by an admin: refuse, so Telegram keeps the update and delivers it after reconnecting.
            if (channel.status === 'disconnected') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
            verified.set(req, channel);
          },
          schema: {
            operationId: 'telegramWebhook',
            tags: ['channel-telegram'],
            summary: 'Recebe as atualizações do bot enviadas pelo Telegram',
            params: z.object({ channelId: positiveId }),
            body: telegramUpdate,
            response: { 200: okAnswer },
          },
        },
        async (req) => {
          const channel = verified.get(req);
          if (!channel) throw new AppError('ERR_WEBHOOK_SIGNATURE');
          try {
            await handleUpdate(channel, req.body as never);
          } catch (err) {
            if (err instanceof ChannelError) throw new AppError(err.code === 'ERR_WAPP_DOWNLOAD_MEDIA' ? 'ERR_WAPP_DOWNLOAD_MEDIA' : 'ERR_SERVICE_UNAVAILABLE');
            throw err;
          }
          return { ok: true as const };
        },
      );
    },
  });
}

export default telegramPlugin();
