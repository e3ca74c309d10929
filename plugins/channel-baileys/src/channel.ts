import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { AnyMessageContent, ConnectionState, GroupMetadata, WAMessage, WAMessageKey, WAMessageUpdate, MessageUserReceiptUpdate, BaileysEventMap } from '@whiskeysockets/baileys';
import {
  AppError,
  ChannelError,
  hostMatches,
  type ChannelAdapter,
  type ChannelErrorCode,
  type ChannelRecord,
  type ChannelRuntime,
  type HistorySink,
  type HistorySyncRequest,
  type InboundMessage,
  type OutboundMessage,
  type PluginContext,
  defineEntity,
  sql,
  tenantFilter,
} from '@atende/core/sdk';
import { baileysConfig } from './contract.ts';
import { usePgAuthState, type PgAuthState } from './auth-state.ts';
import { parseContent } from './content.ts';
import { fromStoredJson, identityOf, isGroupJid, isLidJid, isPhoneJid, jidOf, jidUser, loadBaileys, statusCodeOf, toStoredJson, type BaileysLib } from './lib.ts';
import type { SocketFactory, WhatsAppSocket } from './socket.ts';

/** Tunables of the plugin; production uses the defaults, tests shorten the waits and pass a fake socket. */
export interface BaileysOptions {
  /** Socket factory: Baileys' `makeWASocket` unless given (tests pass a fake at the library boundary). */
  makeSocket?: SocketFactory;
  /** First reconnect delay; it doubles per consecutive failure (with ±20 % jitter) up to `reconnectMaxMs`. */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** After this many failed reconnects in a row the status becomes `pairingTimeout` (lost connection); retrying goes on. */
  lostAfterRetries?: number;
  /** Rounds of QR codes (Baileys shows ~6 per round) before giving up with `pairingTimeout` until an admin asks again. */
  qrRounds?: number;
  /** How long a pairing-code request waits for the socket to reach WhatsApp. */
  readyTimeoutMs?: number;
  /** How long a history import waits for WhatsApp to answer one on-demand request. */
  historyWaitMs?: number;
  /** How long a send waits for the node running the session to answer. */
  forwardTimeoutMs?: number;
}

/** A WhatsApp message as it arrived or was sent (key and content): for quoting, reacting, editing, Baileys' retry requests and history imports. */
export const BaileysMessage = defineEntity({
  name: 'BaileysMessage',
  tableName: 'channel_baileys_messages',
  filters: tenantFilter,
  properties: (p) => ({
    tenantId: p.integer().primary(),
    channelId: p.integer().primary(),
    providerId: p.text().primary(),
    chatJid: p.text(),
    fromMe: p.boolean(),
    ts: p.datetime(),
    history: p.boolean(),
    message: p.json<unknown>(),
    createdAt: p.datetime(),
  }),
});

/** Cluster topic of socket operations asked of the node that runs the channel's session. */
const SOCKET_TOPIC = 'socket';
/** Where WhatsApp serves media: a media URL in a message is fetched only from these (or a host the superadmin allowed). */
const WHATSAPP_MEDIA_HOSTS = ['*.whatsapp.net'];
const GROUP_TTL_MS = 5 * 60_000;
const MAX_REMEMBERED = 2000;
const ON_DEMAND = 6; // proto.HistorySync.HistorySyncType.ON_DEMAND
const MAX_ON_DEMAND_CHATS = 25;

type Ack = 'sent' | 'delivered' | 'read' | 'failed';
type RemoteOp = 'send' | 'edit' | 'delete' | 'react';

/** A socket operation asked of the node that runs the session. */
interface SocketRequest {
  channelId: number;
  op: RemoteOp;
  args: unknown[];
}

/**
 * The owner's answer. Failures travel as an answer, not a thrown error, so
 * the caller gets the catalogue code and whether it is permanent; `null`
 * stands for "done, nothing to return" (an absent answer means "not mine").
 */
type SocketAnswer = { result: unknown } | { error: { code: ChannelErrorCode; message: string; permanent: boolean } };

interface Session {
  channel: ChannelRecord;
  runtime: ChannelRuntime;
  lib: BaileysLib;
  sock?: WhatsAppSocket;
  auth?: PgAuthState;
  /** Bumped per socket: events of a replaced socket are ignored. */
  generation: number;
  stopped: boolean;
  connected: boolean;
  retries: number;
  qrRounds: number;
  qrShown: boolean;
  timer?: NodeJS.Timeout;
  /** Resolves once the socket reached WhatsApp (a QR code arrived or the connection opened). */
  ready: Deferred<void>;
  /** Inbound work runs in arrival order. */
  queue: Promise<void>;
  /**
   * Connection updates are applied one after another: each writes the channel's status, and
   * on a busy machine a 'connecting' write could otherwise land after the 'open' that followed it
   * and leave a linked channel showing "Abrindo".
   */
  statusQueue: Promise<void>;
  groups: Map<string, { subject?: string; at: number }>;
  /** Ids this session sent: Baileys echoes them as `messages.upsert`, and they are already in the kernel. */
  sentIds: Set<string>;
  onWhatsApp: Map<string, string | null>;
  historyWaiters: Set<(e: BaileysEventMap['messaging-history.set']) => void>;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(v: T): void;
  reject(e: Error): void;
  settled: boolean;
}

function deferred<T>(): Deferred<T> {
  const d = { settled: false } as Deferred<T>;
  d.promise = new Promise<T>((res, rej) => {
    d.resolve = (v) => ((d.settled = true), res(v));
    d.reject = (e) => ((d.settled = true), rej(e));
  });
  d.promise.catch(() => undefined);
  return d;
}

const remember = <T>(set: Set<T>, v: T) => {
  set.add(v);
  if (set.size > MAX_REMEMBERED) set.delete(set.values().next().value as T);
};

const tsOf = (m: WAMessage) => new Date(Number(m.messageTimestamp ?? 0) * 1000 || Date.now());

/**
 * Wait before reconnect attempt `retries` (1, 2, …): doubling from `baseMs`
 * up to `maxMs`, with ±20 % jitter so many sessions dropped by one outage do
 * not reconnect in lockstep.
 */
export function reconnectDelay(retries: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(retries, 1) - 1, 16));
  return Math.round(exp * (0.8 + random() * 0.4));
}

/** Maps a Baileys failure to the catalogue: refusals are permanent, connection trouble is retried. */
export function toChannelError(err: unknown, fallback: ChannelErrorCode = 'ERR_SENDING_WAPP_MSG'): ChannelError {
  if (err instanceof ChannelError) return err;
  const status = statusCodeOf(err);
  const text = `WhatsApp: ${(err as Error)?.message ?? String(err)}`.slice(0, 300);
  if (status === 428 || status === 408 || status === 440 || status === 503 || /connection closed/i.test(text)) return new ChannelError('ERR_WAPP_NOT_INITIALIZED', text, false);
  if (status && status >= 400 && status < 500 && status !== 429) return new ChannelError(fallback, text, true);
  return new ChannelError(fallback, text, false);
}

/**
 * One Baileys (unofficial WhatsApp Web) integration per app. The kernel
 * runs each channel's session on exactly one node under a lease and calls
 * `connect` there; this class owns the sockets of the sessions this node
 * holds. Operations that need the socket (send, edit, delete, react) and
 * arrive on another node are asked of the node running the session through
 * `ctx.cluster` (node to node; the tenants' event sequence is not touched).
 */
export class BaileysChannel {
  private readonly sessions = new Map<number, Session>();

  constructor(
    private readonly ctx: PluginContext,
    private readonly options: BaileysOptions,
  ) {
    ctx.cluster.handle(SOCKET_TOPIC, (data) => this.answerSocketRequest(data as SocketRequest));
  }

  private get opt() {
    return {
      reconnectBaseMs: this.options.reconnectBaseMs ?? 2000,
      reconnectMaxMs: this.options.reconnectMaxMs ?? 60_000,
      lostAfterRetries: this.options.lostAfterRetries ?? 5,
      qrRounds: this.options.qrRounds ?? 1,
      readyTimeoutMs: this.options.readyTimeoutMs ?? 30_000,
      historyWaitMs: this.options.historyWaitMs ?? 15_000,
      forwardTimeoutMs: this.options.forwardTimeoutMs ?? 20_000,
    };
  }

  /** Whether this node runs the channel's socket (for tests and the lease check). */
  runs(channelId: number): boolean {
    return this.sessions.has(channelId);
  }

  adapter(): ChannelAdapter {
    return {
      type: 'baileys',
      label: 'WhatsApp (Baileys)',
      identityKind: 'whatsapp',
      longLived: true,
      capabilities: {
        media: ['image', 'audio', 'video', 'document', 'sticker'],
        // WhatsApp stopped delivering buttons and list messages sent from WhatsApp Web clients; Baileys 7 no longer builds them.
        buttons: false,
        lists: false,
        templates: false,
        reactions: true,
        edit: true,
        delete: true,
        groups: true,
        qr: true,
        pairingCode: true,
        historyImport: true,
        readReceipts: true,
        proxy: false,
      },
      prepare: (draft) => {
        const parsed = baileysConfig.safeParse(draft.config ?? {});
        if (!parsed.success) throw new AppError('ERR_VALIDATION', { details: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
        const number = draft.number?.replace(/\D/g, '') || null;
        if (parsed.data.connectionMethod === 'pairingCode' && number !== null && !/^\d{8,20}$/.test(number)) {
          throw new AppError('ERR_VALIDATION', { details: 'número para o código de pareamento: DDI + DDD + número, só dígitos' });
        }
        return { ...draft, number, config: parsed.data };
      },
      connect: (channel, runtime) => this.connect(channel, runtime),
      disconnect: async (channel) => this.stop(channel.id),
      logout: (channel) => this.logout(channel),
      requestPairingCode: (channel, number) => this.requestPairingCode(channel, number),
      syncHistory: (channel, request, sink) => this.syncHistory(channel, request, sink),
      send: (channel, msg) => this.viaOwner(channel, 'send', [msg]) as Promise<{ providerId: string }>,
      edit: async (channel, providerId, body) => void (await this.viaOwner(channel, 'edit', [providerId, body])),
      delete: async (channel, providerId) => void (await this.viaOwner(channel, 'delete', [providerId])),
      react: async (channel, providerId, emoji) => void (await this.viaOwner(channel, 'react', [providerId, emoji])),
    };
  }

  // ---------------------------------------------------------------- lifecycle

  async connect(channel: ChannelRecord, runtime: ChannelRuntime): Promise<void> {
    await this.stop(channel.id);
    const lib = await loadBaileys();
    const s: Session = {
      channel,
      runtime,
      lib,
      generation: 0,
      stopped: false,
      connected: false,
      retries: 0,
      qrRounds: 0,
      qrShown: false,
      ready: deferred(),
      queue: Promise.resolve(),
      statusQueue: Promise.resolve(),
      groups: new Map(),
      sentIds: new Set(),
      onWhatsApp: new Map(),
      historyWaiters: new Set(),
    };
    this.sessions.set(channel.id, s);
    try {
      await this.open(s);
    } catch (err) {
      this.sessions.delete(channel.id);
      throw new ChannelError('ERR_QR_CODE', `Error generating QR code: ${(err as Error).message}`.slice(0, 300));
    }
  }

  /** Creates a socket with the stored auth state and wires its events. */
  private async open(s: Session): Promise<void> {
    const gen = ++s.generation;
    s.qrShown = false;
    s.connected = false;
    const { lib, channel } = s;
    // Baileys is chatty: only its errors reach the app's log, tagged with the node that runs the session.
    const logger = this.ctx.logger.child({ channelId: channel.id, node: this.ctx.channels.sessions.nodeId, lib: 'baileys' }, { level: 'error' });
    // A reconnect reads the creds back from PostgreSQL (what another node would see), after the last writes landed.
    await s.auth?.flush();
    s.auth = await usePgAuthState(lib, this.ctx.channels.authState(channel.id));
    const cfg = baileysConfig.safeParse(channel.config ?? {});
    const makeSocket = this.options.makeSocket ?? (lib.makeWASocket as unknown as SocketFactory);
    const sock = makeSocket({
      auth: { creds: s.auth.state.creds, keys: lib.makeCacheableSignalKeyStore(s.auth.state.keys, logger as never) },
      browser: lib.Browsers.ubuntu('Atende'),
      logger: logger as never,
      markOnlineOnConnect: false,
      syncFullHistory: cfg.success ? !!cfg.data.syncFullHistory : false,
      getMessage: async (key) => (await this.storedMessage(channel, key.id ?? ''))?.message ?? undefined,
      cachedGroupMetadata: async (jid) => this.cachedGroup(s, jid),
    });
    s.sock = sock;
    const live = () => s.generation === gen && !s.stopped;

    sock.ev.on('creds.update', () => {
      if (!live()) return;
      s.auth!.saveCreds().catch((err) => this.lostLease(s, err));
    });
    sock.ev.on('connection.update', (u) => {
      if (!live()) return;
      s.statusQueue = s.statusQueue
        .then(() => (s.generation === gen ? this.onConnection(s, gen, u) : undefined))
        .catch((err) => this.ctx.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'baileys status update failed'));
    });
    sock.ev.on('messages.upsert', ({ messages, type }) => {
      if (!live()) return;
      for (const m of messages) {
        // Our own sends come back as `append`; offline deliveries also come as `append`, and those are customers' messages.
        if (m.key.id && s.sentIds.has(m.key.id)) continue;
        if (type === 'append' && m.key.fromMe) continue;
        this.enqueue(s, () => this.ingestLive(s, m));
      }
    });
    sock.ev.on('messages.update', (updates) => {
      if (live()) this.enqueue(s, () => this.onMessageUpdates(s, updates));
    });
    sock.ev.on('message-receipt.update', (receipts) => {
      if (live()) this.enqueue(s, () => this.onReceipts(s, receipts));
    });
    sock.ev.on('messaging-history.set', (set) => {
      if (!live()) return;
      this.enqueue(s, async () => {
        await this.storeMessages(s, set.messages, true);
        for (const w of s.historyWaiters) w(set);
      });
    });
    sock.ev.on('groups.update', (updates) => {
      for (const g of updates) if (g.id && g.subject) s.groups.set(g.id, { subject: g.subject, at: Date.now() });
    });
  }

  private enqueue(s: Session, work: () => Promise<void>) {
    s.queue = s.queue.then(work).catch((err) => this.ctx.logger.error({ channelId: s.channel.id, err: (err as Error).message }, 'baileys inbound handling failed'));
  }

  private async onConnection(s: Session, gen: number, u: Partial<ConnectionState>) {
    const { channel, runtime } = s;
    const status = (st: Parameters<ChannelRuntime['setStatus']>[2], extra?: Parameters<ChannelRuntime['setStatus']>[3]) => runtime.setStatus(channel.tenantId, channel.id, st, extra);
    if (u.qr) {
      s.qrShown = true;
      if (!s.ready.settled) s.ready.resolve();
      await status('qrcode', { qrcode: u.qr, retries: s.retries });
    }
    if (u.connection === 'connecting' && s.retries < this.opt.lostAfterRetries) await status('opening');
    if (u.connection === 'open') {
      s.connected = true;
      s.retries = 0;
      s.qrRounds = 0;
      if (!s.ready.settled) s.ready.resolve();
      const me = s.auth?.state.creds.me?.id ?? s.sock?.user?.id;
      await status('connected', { number: me ? jidUser(me) : null, qrcode: null, retries: 0 });
    }
    if (u.connection === 'close') {
      s.connected = false;
      if (s.generation !== gen || s.stopped) return;
      await this.onClose(s, u.lastDisconnect?.error);
    }
  }

  private async onClose(s: Session, error: Error | undefined) {
    const { channel, runtime } = s;
    const code = statusCodeOf(error);
    const reason = error?.message ?? 'conexão encerrada';
    const registered = !!s.auth?.registered();
    this.ctx.logger.info({ channelId: channel.id, code, reason }, 'baileys connection closed');
    if (code === 401 || code === 403) {
      // The phone unlinked this device (or WhatsApp refused the account): the keys are worthless now.
      s.stopped = true;
      this.sessions.delete(channel.id);
      await this.ctx.channels.authState(channel.id).clear().catch(() => undefined);
      await runtime.setStatus(channel.tenantId, channel.id, 'disconnected', {
        qrcode: null,
        error: 'O WhatsApp encerrou a sessão deste aparelho (desconectado pelo celular). Clique em "Gerar novo QR" para conectar de novo.',
      });
      return;
    }
    if (code === 440) {
      s.stopped = true;
      this.sessions.delete(channel.id);
      await runtime.setStatus(channel.tenantId, channel.id, 'disconnected', { qrcode: null, error: 'Esta sessão do WhatsApp foi aberta em outro lugar.' });
      return;
    }
    if (code === 515) {
      // WhatsApp asks for a restart right after a QR scan or pairing: reconnect at once with the new creds.
      await this.open(s);
      return;
    }
    if (!registered && s.qrShown && code === 408) {
      s.qrRounds++;
      if (s.qrRounds >= this.opt.qrRounds) {
        s.stopped = true;
        this.sessions.delete(channel.id);
        await runtime.setStatus(channel.tenantId, channel.id, 'pairingTimeout', { qrcode: null, error: 'O QR code expirou sem ser lido. Clique em "Gerar novo QR" para tentar de novo.' });
        return;
      }
      await this.open(s);
      return;
    }
    s.retries++;
    const delay = reconnectDelay(s.retries, this.opt.reconnectBaseMs, this.opt.reconnectMaxMs);
    const lost = s.retries >= this.opt.lostAfterRetries;
    await runtime.setStatus(channel.tenantId, channel.id, lost ? 'pairingTimeout' : 'opening', { retries: s.retries, error: `${reason} (código ${code ?? '?'}); nova tentativa em ${Math.ceil(delay / 1000)} s` });
    s.timer = setTimeout(() => {
      if (s.stopped) return;
      void this.open(s).catch((err) => {
        this.ctx.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'baileys reconnect failed');
        void this.onClose(s, err as Error);
      });
    }, delay);
    s.timer.unref();
  }

  /** The kernel refused an auth-state write: another node holds the session now, so this one steps down. */
  private async lostLease(s: Session, err: unknown) {
    this.ctx.logger.warn({ channelId: s.channel.id, err: (err as Error).message }, 'baileys creds not saved; stopping the session here');
    if (err instanceof ChannelError && !this.ctx.channels.sessions.owns(s.channel.id)) await this.stop(s.channel.id);
  }

  async stop(channelId: number): Promise<void> {
    const s = this.sessions.get(channelId);
    if (!s) return;
    this.sessions.delete(channelId);
    s.stopped = true;
    s.connected = false;
    if (s.timer) clearTimeout(s.timer);
    if (!s.ready.settled) s.ready.reject(new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'sessão encerrada'));
    await s.sock?.end(undefined).catch(() => undefined);
    await s.queue.catch(() => undefined);
  }

  /**
   * Channel deleted: unlinks the device at WhatsApp so it disappears from
   * the phone's linked devices, then forgets what the plugin kept. The
   * kernel stops the session first, so a short-lived socket with the saved
   * creds does the unlinking; failing that, the kernel still wipes the keys.
   */
  async logout(channel: ChannelRecord): Promise<void> {
    await this.stop(channel.id);
    try {
      const lib = await loadBaileys();
      const auth = await usePgAuthState(lib, this.ctx.channels.authState(channel.id));
      if (auth.registered()) {
        const makeSocket = this.options.makeSocket ?? (lib.makeWASocket as unknown as SocketFactory);
        const logger = this.ctx.logger.child({ channelId: channel.id, lib: 'baileys' }, { level: 'silent' });
        const sock = makeSocket({ auth: auth.state, browser: lib.Browsers.ubuntu('Atende'), logger: logger as never, markOnlineOnConnect: false, syncFullHistory: false });
        const opened = new Promise<boolean>((resolve) => {
          const t = setTimeout(() => resolve(false), this.opt.readyTimeoutMs);
          sock.ev.on('connection.update', (u) => {
            if (u.connection === 'open') resolve(true);
            if (u.connection === 'close') resolve(false);
            if (u.connection === 'open' || u.connection === 'close') clearTimeout(t);
          });
        });
        if (await opened) await sock.logout('Atende: canal removido').catch(() => undefined);
        await sock.end(undefined).catch(() => undefined);
      }
    } finally {
      await this.ctx.dbForTenant(channel.tenantId).nativeDelete(BaileysMessage, { channelId: channel.id });
    }
  }

  async requestPairingCode(channel: ChannelRecord, number: string): Promise<string> {
    const s = this.sessions.get(channel.id);
    if (!s) throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'A sessão deste canal não está em execução');
    if (s.auth?.registered()) throw new AppError('ERR_WAPP_INITIALIZED');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChannelError('ERR_QR_CODE', 'Error generating QR code')), this.opt.readyTimeoutMs);
    });
    try {
      await Promise.race([s.ready.promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
    if (!s.sock || s.stopped) throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'A sessão deste canal não está em execução');
    try {
      return await s.sock.requestPairingCode(number.replace(/\D/g, ''));
    } catch (err) {
      throw new ChannelError('ERR_QR_CODE', `Error generating QR code: ${(err as Error).message}`.slice(0, 300));
    }
  }

  // ---------------------------------------------------------------- inbound

  private async cachedGroup(s: Session, jid: string): Promise<GroupMetadata | undefined> {
    const hit = s.groups.get(jid);
    if (hit?.subject && Date.now() - hit.at < GROUP_TTL_MS) return { id: jid, subject: hit.subject, owner: undefined, participants: [] } as GroupMetadata;
    return undefined;
  }

  private async groupName(s: Session, jid: string): Promise<string | undefined> {
    const hit = s.groups.get(jid);
    if (hit && Date.now() - hit.at < GROUP_TTL_MS) return hit.subject;
    const meta = await s.sock?.groupMetadata(jid).catch(() => undefined);
    s.groups.set(jid, { subject: meta?.subject ?? hit?.subject, at: Date.now() });
    return meta?.subject ?? hit?.subject;
  }

  /**
   * One person, whichever address WhatsApp used: Baileys 7 addresses people
   * by LID (`…@lid`) or phone JID (`…@s.whatsapp.net`). The phone number
   * (when known, from the key's alternate address or the library's LID
   * mapping) is the identity and the contact's number, the LID an alias, so
   * the kernel keeps one contact for both.
   */
  private async person(s: Session, jid: string, alt?: string | null) {
    let lid = isLidJid(jid) ? jid : isLidJid(alt) ? alt! : undefined;
    let pn = isPhoneJid(jid) ? jid : isPhoneJid(alt) ? alt! : undefined;
    const map = s.sock?.signalRepository.lidMapping;
    if (map && lid && !pn) pn = (await map.getPNForLID(lid).catch(() => null)) ?? undefined;
    else if (map && pn && !lid) lid = (await map.getLIDForPN(pn).catch(() => null)) ?? undefined;
    if (pn) {
      const number = jidUser(pn);
      return { kind: 'whatsapp', externalId: number, number, aliases: lid ? [{ kind: 'whatsapp', externalId: identityOf(lid) }] : [] };
    }
    return { kind: 'whatsapp', externalId: identityOf(jid), number: null, aliases: [] };
  }

  /** A WhatsApp message in the kernel's terms, media downloaded into the kernel's store; shared by live delivery and history import. */
  private async toInbound(s: Session, m: WAMessage): Promise<Omit<InboundMessage, 'tenantId' | 'channelId'> | undefined> {
    const remote = m.key.remoteJid;
    if (!remote || !m.key.id || remote === 'status@broadcast' || remote.endsWith('@newsletter') || remote.endsWith('@broadcast')) return undefined;
    const parsed = parseContent(s.lib, m);
    if (!parsed) return undefined;
    const fromMe = !!m.key.fromMe;
    const group = isGroupJid(remote);
    const from = group && !fromMe ? await this.person(s, m.key.participant ?? remote, m.key.participantAlt) : await this.person(s, remote, m.key.remoteJidAlt);
    const msg: Omit<InboundMessage, 'tenantId' | 'channelId'> = {
      providerMessageId: m.key.id,
      from: { ...from, name: fromMe ? undefined : m.pushName || undefined },
      group: group ? { kind: 'whatsapp', externalId: remote, name: await this.groupName(s, remote) } : undefined,
      fromMe,
      type: parsed.type,
      body: parsed.body,
      timestamp: tsOf(m),
      quotedProviderId: parsed.quotedId,
      data: { ...parsed.data, ...(group && !fromMe ? { participant: m.pushName || from.number || from.externalId } : {}) },
    };
    if (parsed.media) {
      try {
        await this.checkMediaHost(s, m);
        // The download's connection goes through the kernel's guard too (no internal addresses, checked after DNS).
        const stream = (await s.lib.downloadMediaMessage(m, 'stream', { options: { dispatcher: this.ctx.outbound.dispatcher } as never }, { logger: this.ctx.logger as never, reuploadRequest: (x) => s.sock!.updateMediaMessage(x) })) as unknown as Readable;
        const stored = await this.ctx.storage.save(s.channel.tenantId, parsed.media.name, parsed.media.mimetype, stream);
        msg.media = { url: stored.url, mimetype: stored.mimetype, name: stored.name };
      } catch (err) {
        // The message still arrives: the agent sees what was sent and that the file could not be fetched.
        const code = err instanceof AppError && (err.code === 'ERR_FILE_REJECTED' || err.code === 'ERR_FILE_TOO_LARGE') ? err.code : 'ERR_WAPP_DOWNLOAD_MEDIA';
        this.ctx.logger.warn({ channelId: s.channel.id, messageId: m.key.id, err: (err as Error).message }, 'baileys media download failed');
        msg.type = parsed.type ?? (parsed.media.kind === 'document' ? 'application' : parsed.media.kind);
        msg.data = { ...msg.data, mediaError: code, mediaName: parsed.media.name, mediaType: parsed.media.mimetype };
      }
    }
    return msg;
  }

  /**
   * The media URL comes inside the sender's message, so anyone can write one:
   * it is fetched only from WhatsApp's media servers (or a host the superadmin
   * allowed), the way Baileys builds it (the direct path on the URL's host).
   */
  private async checkMediaHost(s: Session, m: WAMessage) {
    const content = s.lib.extractMessageContent(m.message);
    const type = content ? s.lib.getContentType(content) : undefined;
    const media = (type ? (content as Record<string, unknown>)[type] : undefined) as { url?: string | null; directPath?: string | null } | undefined;
    let host = 'mmg.whatsapp.net';
    if (media?.url) {
      try {
        host = new URL(media.url).hostname;
      } catch {
        throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'endereço da mídia inválido', true);
      }
    }
    if (!WHATSAPP_MEDIA_HOSTS.some((p) => hostMatches(host, p)) && !(await this.ctx.outbound.isAllowedHost(host))) {
      this.ctx.logger.warn({ channelId: s.channel.id, host }, 'baileys media URL outside WhatsApp refused');
      throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'mídia fora dos servidores do WhatsApp recusada', true);
    }
  }

  private async ingestLive(s: Session, m: WAMessage) {
    const inbound = await this.toInbound(s, m);
    if (!inbound) return;
    // Kept for quotes and reactions; losing that copy must not lose the message itself.
    await this.storeMessages(s, [m], false).catch((err) => this.ctx.logger.warn({ channelId: s.channel.id, err: (err as Error).message }, 'baileys message copy not stored'));
    for (let attempt = 1; ; attempt++) {
      try {
        await s.runtime.ingest({ ...inbound, tenantId: s.channel.tenantId, channelId: s.channel.id });
        return;
      } catch (err) {
        // WhatsApp will not deliver it again: retry a short outage of the database before giving up.
        if (attempt >= 5 || s.stopped) throw err;
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      }
    }
  }

  private async onMessageUpdates(s: Session, updates: WAMessageUpdate[]) {
    const Status = s.lib.proto.WebMessageInfo.Status;
    for (const { key, update } of updates) {
      if (!key.fromMe || !key.id || update.status === undefined || update.status === null) continue;
      const st = update.status;
      const ack: Ack | undefined = st === Status.ERROR ? 'failed' : st >= Status.READ ? 'read' : st === Status.DELIVERY_ACK ? 'delivered' : st === Status.SERVER_ACK ? 'sent' : undefined;
      if (ack) await s.runtime.ack(s.channel.tenantId, s.channel.id, key.id, ack, ack === 'failed' ? 'O WhatsApp recusou a mensagem' : undefined);
    }
  }

  private async onReceipts(s: Session, receipts: MessageUserReceiptUpdate[]) {
    for (const { key, receipt } of receipts) {
      if (!key.id) continue;
      const ack: Ack | undefined = receipt.readTimestamp || receipt.playedTimestamp ? 'read' : receipt.receiptTimestamp ? 'delivered' : undefined;
      if (ack) await s.runtime.ack(s.channel.tenantId, s.channel.id, key.id, ack);
    }
  }

  /** Keeps messages (key and content) for quoting, reacting, editing, Baileys' retry requests and later history imports. */
  private async storeMessages(s: Session, messages: WAMessage[], history: boolean) {
    const rows = messages.filter((m) => m.key?.id && m.key.remoteJid && m.message);
    if (!rows.length) return;
    const batch = JSON.stringify(rows.map((m) => ({ id: m.key.id, chat: m.key.remoteJid, from_me: !!m.key.fromMe, ts: tsOf(m).toISOString(), message: toStoredJson(s.lib, { key: m.key, message: m.message, messageTimestamp: Number(m.messageTimestamp ?? 0), pushName: m.pushName ?? undefined }) })));
    // Every live message and whole history batches pass here: one statement, plain SQL.
    await this.ctx.query(sql`
      INSERT INTO channel_baileys_messages (tenant_id, channel_id, provider_id, chat_jid, from_me, ts, history, message)
      SELECT ${s.channel.tenantId}, ${s.channel.id}, x.id, x.chat, x.from_me, x.ts, ${history}, x.message
        FROM jsonb_to_recordset(${batch}::jsonb) AS x(id text, chat text, from_me boolean, ts timestamptz, message jsonb)
      ON CONFLICT (tenant_id, channel_id, provider_id) DO NOTHING`);
  }

  private async storedMessage(channel: ChannelRecord, providerId: string): Promise<WAMessage | undefined> {
    if (!providerId) return undefined;
    const row = await this.ctx.dbForTenant(channel.tenantId).findOne(BaileysMessage, { channelId: channel.id, providerId }, { fields: ['message'] });
    if (!row) return undefined;
    return fromStoredJson<WAMessage>(await loadBaileys(), row.message);
  }

  // ---------------------------------------------------------------- outbound

  /** Runs a socket operation here when this node holds the session, else on the node that does. */
  private async viaOwner(channel: ChannelRecord, op: RemoteOp, args: unknown[]): Promise<unknown> {
    if (this.sessions.has(channel.id)) return this.runLocal(channel.id, op, args);
    if (channel.status === 'disconnected') throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'O canal está desconectado');
    let answer: SocketAnswer;
    try {
      answer = (await this.ctx.cluster.request(SOCKET_TOPIC, { channelId: channel.id, op, args } satisfies SocketRequest, { timeoutMs: this.opt.forwardTimeoutMs })) as SocketAnswer;
    } catch {
      // No node answered: none runs the session now (it may be moving to another node); the send job retries.
      throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'Nenhum nó está com a sessão deste canal aberta');
    }
    if ('error' in answer) throw new ChannelError(answer.error.code, answer.error.message, answer.error.permanent);
    return answer.result;
  }

  /** Answers a socket operation when this node runs the channel's session; other nodes stay silent. */
  private async answerSocketRequest(req: SocketRequest): Promise<SocketAnswer | undefined> {
    if (!this.sessions.has(req.channelId)) return undefined;
    try {
      return { result: (await this.runLocal(req.channelId, req.op, req.args)) ?? null };
    } catch (err) {
      const e = toChannelError(err);
      return { error: { code: e.code, message: e.message, permanent: e.permanent } };
    }
  }

  private async runLocal(channelId: number, op: RemoteOp, args: unknown[]): Promise<unknown> {
    const s = this.sessions.get(channelId);
    if (!s) throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'A sessão deste canal não está em execução');
    if (op === 'send') return this.sendHere(s, args[0] as OutboundMessage);
    if (op === 'edit') return this.editHere(s, args[0] as string, args[1] as string);
    if (op === 'delete') return this.deleteHere(s, args[0] as string);
    return this.reactHere(s, args[0] as string, args[1] as string);
  }

  private connectedSocket(s: Session): WhatsAppSocket {
    if (!s.sock || !s.connected) throw new ChannelError('ERR_WAPP_NOT_INITIALIZED', 'O WhatsApp deste canal não está conectado');
    return s.sock;
  }

  /** The JID to send to; a phone number is checked with WhatsApp once per session (and corrected, e.g. Brazil's ninth digit). */
  private async recipient(s: Session, externalId: string): Promise<string> {
    const jid = jidOf(externalId);
    if (!isPhoneJid(jid)) return jid;
    if (s.onWhatsApp.has(jid)) {
      const known = s.onWhatsApp.get(jid);
      if (!known) throw new ChannelError('ERR_WAPP_INVALID_CONTACT', `O número ${jidUser(jid)} não está no WhatsApp`, true);
      return known;
    }
    let found: { jid: string; exists: boolean } | undefined;
    try {
      found = (await this.connectedSocket(s).onWhatsApp(jid))?.find((r) => r.exists);
    } catch (err) {
      if (err instanceof ChannelError) throw err;
      throw new ChannelError('ERR_WAPP_CHECK_CONTACT', `WhatsApp: ${(err as Error).message}`.slice(0, 300));
    }
    if (s.onWhatsApp.size > MAX_REMEMBERED) s.onWhatsApp.clear();
    s.onWhatsApp.set(jid, found?.jid ?? null);
    if (!found) throw new ChannelError('ERR_WAPP_INVALID_CONTACT', `O número ${jidUser(jid)} não está no WhatsApp`, true);
    return found.jid;
  }

  private async mediaContent(msg: OutboundMessage): Promise<AnyMessageContent> {
    const media = msg.media!;
    let upload: { url: string } | { stream: Readable };
    if (media.path && fs.existsSync(media.path)) upload = { url: media.path };
    else if (media.url && /^https?:\/\//.test(media.url)) {
      // A link (a quick message's URL, a forwarded provider link) is fetched here through the guard, never by Baileys itself.
      const res = await this.ctx.outbound.fetch(media.url, { signal: AbortSignal.timeout(60_000) }).catch((err: Error) => {
        throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', (err as { code?: string }).code === 'ERR_OUTBOUND_BLOCKED' ? 'endereço da mídia não permitido' : 'não foi possível baixar a mídia do link', true);
      });
      if (!res.ok || !res.body) throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', `não foi possível baixar a mídia do link (HTTP ${res.status})`, res.status < 500);
      upload = { stream: Readable.fromWeb(res.body as never) };
    } else throw new ChannelError('ERR_WAPP_DOWNLOAD_MEDIA', 'arquivo da mensagem não encontrado no armazenamento', true);
    const caption = msg.body || undefined;
    switch (media.kind) {
      case 'image':
        return { image: upload, caption, mimetype: media.mimetype };
      case 'video':
        return { video: upload, caption, mimetype: media.mimetype };
      case 'audio':
        // Opus in Ogg is how WhatsApp records voice notes: sent as one, it plays inline like the customer's own.
        return { audio: upload, mimetype: media.mimetype, ptt: /ogg|opus/.test(media.mimetype) };
      case 'sticker':
        return { sticker: upload, mimetype: media.mimetype };
      default:
        return { document: upload, mimetype: media.mimetype, fileName: media.name, caption };
    }
  }

  private async sendHere(s: Session, msg: OutboundMessage): Promise<{ providerId: string }> {
    const sock = this.connectedSocket(s);
    const jid = msg.to.isGroup ? jidOf(msg.to.externalId) : await this.recipient(s, msg.to.externalId);
    const quoted = msg.quotedProviderId ? await this.storedMessage(s.channel, msg.quotedProviderId) : undefined;
    let content: AnyMessageContent;
    if (msg.media) content = await this.mediaContent(msg);
    else if (msg.buttons?.length) {
      // No buttons from a WhatsApp Web client: the options go as a numbered list the customer answers by number.
      content = { text: [msg.body, '', ...msg.buttons.map((b, i) => `${i + 1}. ${b.label}`)].join('\n').trim() };
    } else content = { text: msg.body };
    let sent: WAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, content, { quoted, messageId: undefined });
    } catch (err) {
      throw toChannelError(err);
    }
    if (!sent?.key.id) throw new ChannelError('ERR_SENDING_WAPP_MSG', 'O WhatsApp não confirmou o envio');
    remember(s.sentIds, sent.key.id);
    await this.storeMessages(s, [sent], false).catch(() => undefined);
    return { providerId: sent.key.id };
  }

  private async keyOf(s: Session, providerId: string, code: ChannelErrorCode): Promise<WAMessageKey> {
    const stored = await this.storedMessage(s.channel, providerId);
    if (!stored?.key.remoteJid) throw new ChannelError(code, 'Mensagem não encontrada neste canal do WhatsApp', true);
    return stored.key;
  }

  private async editHere(s: Session, providerId: string, body: string) {
    const sock = this.connectedSocket(s);
    const key = await this.keyOf(s, providerId, 'ERR_FETCH_WAPP_MSG');
    await sock.sendMessage(key.remoteJid!, { text: body, edit: key }).catch((err) => {
      throw toChannelError(err);
    });
  }

  private async deleteHere(s: Session, providerId: string) {
    const sock = this.connectedSocket(s);
    const key = await this.keyOf(s, providerId, 'ERR_DELETE_WAPP_MSG');
    await sock.sendMessage(key.remoteJid!, { delete: key }).catch((err) => {
      throw toChannelError(err, 'ERR_DELETE_WAPP_MSG');
    });
  }

  private async reactHere(s: Session, providerId: string, emoji: string) {
    const sock = this.connectedSocket(s);
    const key = await this.keyOf(s, providerId, 'ERR_FETCH_WAPP_MSG');
    await sock.sendMessage(key.remoteJid!, { react: { text: emoji, key } }).catch((err) => {
      throw toChannelError(err);
    });
  }

  // ---------------------------------------------------------------- history

  /**
   * `/messages/syncOld`: what WhatsApp sent at linking time
   * (`messaging-history.set`, kept as it arrived) plus, for conversations
   * whose stored history does not reach back far enough, an on-demand
   * request to the phone (`fetchMessageHistory`), filtered by the request
   * and handed to the kernel oldest first.
   */
  async syncHistory(channel: ChannelRecord, req: HistorySyncRequest, sink: HistorySink): Promise<{ imported: number }> {
    const s = this.sessions.get(channel.id);
    if (!s?.sock || !s.connected) {
      this.ctx.logger.warn({ channelId: channel.id }, 'history import asked of a session that is not connected here');
      throw new ChannelError('ERR_SYNC_MESSAGES', 'Error syncing messages');
    }
    const chats = req.contact ? await this.jidsOf(s, req.contact.externalId) : null;
    const limit = req.limitPerChat ?? null;
    // A whole account's history, filtered and numbered per conversation: plain SQL (an import reads thousands of rows).
    const mine = sql`tenant_id = ${channel.tenantId} AND channel_id = ${channel.id}`;
    const groups = sql`(${req.groups}::boolean OR chat_jid NOT LIKE '%@g.us')`;
    const inChats = sql`(${chats}::text[] IS NULL OR chat_jid = ANY(${chats}::text[]))`;

    // Conversations whose stored history stops short of what was asked: ask the phone for older messages.
    const short = await this.ctx.query<{ chat_jid: string; n: number; oldest: Date }>(sql`
      SELECT chat_jid, count(*)::int AS n, min(ts) AS oldest FROM channel_baileys_messages
       WHERE ${mine} AND ${groups} AND ${inChats}
       GROUP BY chat_jid ORDER BY max(ts) DESC LIMIT ${MAX_ON_DEMAND_CHATS}`);
    for (const c of short) {
      if (sink.signal.aborted) break;
      const needOlder = req.from ? new Date(c.oldest) > req.from : false;
      const needMore = limit ? c.n < limit : false;
      if (needOlder || needMore) await this.fetchOlder(s, c.chat_jid, Math.min(50, limit ? Math.max(limit - c.n, 1) : 50));
    }

    const from = req.from ?? null;
    const to = req.to ?? null;
    const rows = await this.ctx.query<{ message: unknown }>(sql`
      SELECT message FROM (
        SELECT message, ts, provider_id, row_number() OVER (PARTITION BY chat_jid ORDER BY ts DESC) AS rn
          FROM channel_baileys_messages
         WHERE ${mine} AND (${from}::timestamptz IS NULL OR ts >= ${from}::timestamptz) AND (${to}::timestamptz IS NULL OR ts <= ${to}::timestamptz)
           AND ${groups} AND (${req.deviceMessages}::boolean OR NOT from_me) AND ${inChats}) x
       WHERE ${limit}::int IS NULL OR rn <= ${limit}::int ORDER BY ts, provider_id`);
    const total = rows.length;
    let done = 0;
    await sink.progress(0, total);
    for (const row of rows) {
      if (sink.signal.aborted) break;
      const m = fromStoredJson<WAMessage>(s.lib, row.message);
      const inbound = await this.toInbound(s, m);
      if (inbound) await sink.ingest(inbound);
      done++;
      await sink.progress(done, total);
    }
    return { imported: done };
  }

  /** The JIDs one kernel identity may have in WhatsApp's history (phone and LID). */
  private async jidsOf(s: Session, externalId: string): Promise<string[]> {
    const jid = jidOf(externalId);
    const map = s.sock?.signalRepository.lidMapping;
    const other = isLidJid(jid) ? await map?.getPNForLID(jid).catch(() => null) : await map?.getLIDForPN(jid).catch(() => null);
    return [jid, ...(other ? [other.replace(/:\d+@/, '@')] : [])];
  }

  private async fetchOlder(s: Session, chatJid: string, count: number) {
    const oldest = await this.ctx.dbForTenant(s.channel.tenantId).findOne(BaileysMessage, { channelId: s.channel.id, chatJid }, { orderBy: { ts: 'asc', providerId: 'asc' }, fields: ['message'] });
    if (!oldest) return;
    const m = fromStoredJson<WAMessage>(s.lib, oldest.message);
    let waiter: ((e: BaileysEventMap['messaging-history.set']) => void) | undefined;
    let requestId: string | undefined;
    const answered = new Promise<void>((resolve) => {
      const t = setTimeout(resolve, this.opt.historyWaitMs);
      t.unref();
      waiter = (e) => {
        // The phone answers with the request's id, even when it has nothing older.
        if (e.syncType === ON_DEMAND && ((requestId && e.peerDataRequestSessionId === requestId) || e.messages.some((x) => x.key.remoteJid === chatJid))) {
          clearTimeout(t);
          resolve();
        }
      };
      s.historyWaiters.add(waiter);
    });
    try {
      requestId = await s.sock!.fetchMessageHistory(count, m.key, Number(m.messageTimestamp ?? 0) * 1000);
      await answered;
      // The answer's rows are written by the event handler's queue: let it finish.
      await s.queue;
    } catch (err) {
      this.ctx.logger.warn({ channelId: s.channel.id, chatJid, err: (err as Error).message }, 'baileys on-demand history failed');
    } finally {
      s.historyWaiters.delete(waiter!);
    }
  }
}
