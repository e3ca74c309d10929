/**
 * A stand-in for WhatsApp at Baileys' socket boundary, for tests. It hands
 * the plugin sockets shaped like `makeWASocket`'s (the `WhatsAppSocket`
 * subset): the same `connection.update` sequence (connecting → QR codes →
 * scan → restart required (515) → open; drops, logged out (401), QR refs
 * exhausted (408)), `creds.update` mutating the creds object it was given
 * (so the plugin's PostgreSQL auth state is what survives a reconnect),
 * signal keys written through `auth.keys`, messages with real `WAMessage`
 * shapes and media encrypted with Baileys' own `encryptedStream` and served
 * over HTTP, so the plugin's real `downloadMediaMessage` call decrypts it.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { AnyMessageContent, AuthenticationCreds, BaileysEventEmitter, BaileysEventMap, Contact, GroupMetadata, MiscMessageGenerationOptions, UserFacingSocketConfig, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import { loadBaileys } from './lib.ts';
import type { WhatsAppSocket } from './socket.ts';

/** Baileys throws Boom errors; the plugin reads `output.statusCode` like it does on real ones. */
export function boom(message: string, statusCode: number): Error {
  return Object.assign(new Error(message), { isBoom: true, output: { statusCode, payload: { statusCode, message } }, data: undefined });
}

export const Status = { ERROR: 0, PENDING: 1, SERVER_ACK: 2, DELIVERY_ACK: 3, READ: 4, PLAYED: 5 } as const;

export interface SentRecord {
  jid: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
  message: WAMessage;
  /** Text or caption. */
  body?: string;
  media?: { kind: 'image' | 'video' | 'audio' | 'document' | 'sticker'; mimetype?: string; name?: string; size: number; ptt?: boolean };
}

export interface IncomingInput {
  id?: string;
  /** Sender (1:1 chat): a phone number (digits or `…@s.whatsapp.net`) or a LID (`…@lid`). */
  from: string;
  /** The other address of the same person, as Baileys 7 puts it in `key.remoteJidAlt` / `participantAlt`. */
  alt?: string;
  group?: string;
  pushName?: string;
  fromMe?: boolean;
  text?: string;
  quotedId?: string;
  media?: { kind: 'image' | 'video' | 'audio' | 'document' | 'sticker'; name: string; mimetype: string; data: Buffer; caption?: string };
  /** Serve the media with this HTTP status instead of the file (an expired or missing file at WhatsApp's CDN). */
  mediaStatus?: number;
  location?: { lat: number; lng: number; name?: string };
  reaction?: { emoji: string; to: string };
  buttonReply?: { id: string; text: string };
  type?: 'notify' | 'append';
  timestamp?: number;
}

const toJid = (x: string) => (x.includes('@') ? x : `${x.replace(/\D/g, '')}@s.whatsapp.net`);
const user = (jid: string) => jid.split('@')[0].split(':')[0];
const messageId = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;

export class FakeWhatsApp {
  /** The phone that links the device when a QR code is scanned or a pairing code typed. */
  readonly phone = { number: '5511988887777', lid: '201234567890123', name: 'Loja Atende' };
  readonly sockets: FakeSocket[] = [];
  readonly sent: SentRecord[] = [];
  /** Devices the phone shows under "Linked devices" (creds.me.id). */
  readonly linked = new Set<string>();
  /** Numbers WhatsApp says are not on WhatsApp. */
  readonly notOnWhatsApp = new Set<string>();
  /** LID user → phone user: what Baileys' LID mapping store knows. */
  readonly lidToPn = new Map<string, string>();
  readonly groups = new Map<string, string>();
  /** Older messages the phone answers on-demand history requests with. */
  readonly phoneHistory: WAMessage[] = [];
  readonly historyRequests: { chat: string; count: number }[] = [];
  /** Configs the plugin created sockets with (browser, logger, …). */
  readonly configs: UserFacingSocketConfig[] = [];
  /** Link every new unlinked socket as soon as it shows its first QR code. */
  autoScan = false;
  /** QR codes per round before Baileys gives up with 408 "QR refs attempts ended". */
  qrPerRound = 3;
  qrIntervalMs = 40;
  down = false;
  private readonly rejects = new Set<string>();
  private readonly failOnce = new Set<string>();
  private readonly files = new Map<string, { path?: string; status?: number }>();
  private pairing?: { code: string; socket: FakeSocket };
  private server?: http.Server;
  url = '';

  static async start(): Promise<FakeWhatsApp> {
    const f = new FakeWhatsApp();
    f.server = http.createServer((req, res) => {
      const file = f.files.get((req.url ?? '').split('?')[0]);
      if (!file || file.status || !file.path) {
        res.writeHead(file?.status ?? 404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      fs.createReadStream(file.path).pipe(res);
    });
    await new Promise<void>((r) => f.server!.listen(0, '127.0.0.1', r));
    f.url = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
    return f;
  }

  /** `makeWASocket` as the plugin's `makeSocket` option. */
  readonly makeWASocket = (config: UserFacingSocketConfig): WhatsAppSocket => {
    this.configs.push(config);
    const s = new FakeSocket(this, config);
    this.sockets.push(s);
    return s;
  };

  /** Sockets not yet closed. */
  open(): FakeSocket[] {
    return this.sockets.filter((s) => !s.closed);
  }

  /** The socket that is connected to WhatsApp with a linked device. */
  active(): FakeSocket | undefined {
    return this.sockets.find((s) => !s.closed && s.isOpen);
  }

  /** The phone scans the QR code of the socket showing one. */
  scan(): void {
    const s = this.sockets.find((x) => !x.closed && x.qrShown && !x.isOpen);
    if (!s) throw new Error('no socket is showing a QR code');
    s.link();
  }

  /** The phone owner types the pairing code the plugin obtained. */
  enterPairingCode(code: string): void {
    if (!this.pairing || this.pairing.code !== code || this.pairing.socket.closed) throw new Error('pairing code not valid');
    this.pairing.socket.link();
    this.pairing = undefined;
  }

  /** WhatsApp becomes unreachable: open sockets are lost (408) and new ones fail (428) until `restore`. */
  drop(): void {
    this.down = true;
    for (const s of this.open()) void s.end(boom('Connection was lost', 408));
  }

  restore(): void {
    this.down = false;
  }

  /** The phone removes this device from "Linked devices". */
  unlinkFromPhone(): void {
    const s = this.active();
    if (s?.me) this.linked.delete(s.me.id);
    void s?.end(boom('Connection Failure', 401));
  }

  reject(body: string) {
    this.rejects.add(body);
  }

  failNext(body: string) {
    this.failOnce.add(body);
  }

  mapLid(lid: string, pn: string) {
    this.lidToPn.set(user(lid), user(pn));
  }

  /** Builds a `WAMessage` as WhatsApp delivers it (media encrypted and served), without sending it. */
  async message(input: IncomingInput): Promise<WAMessage> {
    const chat = input.group ?? toJid(input.from);
    const key: WAMessageKey = { remoteJid: chat, fromMe: !!input.fromMe, id: input.id ?? messageId() };
    if (input.group) {
      key.participant = toJid(input.from);
      if (input.alt) key.participantAlt = toJid(input.alt);
    } else if (input.alt) key.remoteJidAlt = toJid(input.alt);
    key.addressingMode = toJid(input.from).endsWith('@lid') ? 'lid' : 'pn';
    const contextInfo = input.quotedId ? { stanzaId: input.quotedId, participant: chat } : undefined;
    let message: WAMessage['message'];
    if (input.media) message = await this.mediaMessage(input, contextInfo);
    else if (input.location) message = { locationMessage: { degreesLatitude: input.location.lat, degreesLongitude: input.location.lng, name: input.location.name } };
    else if (input.reaction) message = { reactionMessage: { key: { remoteJid: chat, fromMe: true, id: input.reaction.to }, text: input.reaction.emoji, senderTimestampMs: Date.now() } };
    else if (input.buttonReply) message = { buttonsResponseMessage: { selectedButtonId: input.buttonReply.id, selectedDisplayText: input.buttonReply.text } };
    else if (contextInfo) message = { extendedTextMessage: { text: input.text ?? '', contextInfo } };
    else message = { conversation: input.text ?? '' };
    return { key, message, messageTimestamp: input.timestamp ?? Math.floor(Date.now() / 1000), pushName: input.pushName, status: 2 } as WAMessage;
  }

  private async mediaMessage(input: IncomingInput, contextInfo: object | undefined): Promise<WAMessage['message']> {
    const m = input.media!;
    const lib = await loadBaileys();
    const enc = await lib.encryptedStream(m.data, m.kind);
    const path = `/v/t62.7118-24/${randomBytes(6).toString('hex')}.enc`;
    this.files.set(path, input.mediaStatus ? { status: input.mediaStatus } : { path: enc.encFilePath });
    const common = { url: `${this.url}${path}`, mimetype: m.mimetype, mediaKey: enc.mediaKey, fileEncSha256: enc.fileEncSha256, fileSha256: enc.fileSha256, fileLength: enc.fileLength, mediaKeyTimestamp: Math.floor(Date.now() / 1000), contextInfo };
    const caption = m.caption ?? input.text;
    switch (m.kind) {
      case 'image':
        return { imageMessage: { ...common, caption } };
      case 'video':
        return { videoMessage: { ...common, caption } };
      case 'audio':
        return { audioMessage: { ...common, ptt: m.mimetype.includes('ogg') } };
      case 'sticker':
        return { stickerMessage: { ...common } };
      default:
        return { documentMessage: { ...common, fileName: m.name, caption } };
    }
  }

  /** A message reaches the linked device (`messages.upsert`, `notify` unless said otherwise). */
  async incoming(input: IncomingInput): Promise<WAMessage> {
    const s = this.active();
    if (!s) throw new Error('no connected socket to deliver to');
    const m = await this.message(input);
    s.emit('messages.upsert', { messages: [m], type: input.type ?? 'notify' });
    return m;
  }

  /** Delivery and read receipts for a message the plugin sent. */
  ack(id: string, status: number) {
    const sent = this.sent.find((x) => x.message.key.id === id);
    this.active()?.emit('messages.update', [{ key: sent?.message.key ?? { id, fromMe: true }, update: { status } }]);
  }

  receipt(id: string, kind: 'delivered' | 'read') {
    const sent = this.sent.find((x) => x.message.key.id === id);
    const now = Math.floor(Date.now() / 1000);
    this.active()?.emit('message-receipt.update', [{ key: sent?.message.key ?? { id, fromMe: true }, receipt: { userJid: sent?.jid ?? '', ...(kind === 'read' ? { readTimestamp: now } : { receiptTimestamp: now }) } }]);
  }

  /** The history WhatsApp pushes after linking (`messaging-history.set`). */
  history(messages: WAMessage[], syncType = 0) {
    this.active()?.emit('messaging-history.set', { chats: [], contacts: [], messages, syncType, isLatest: true, progress: 100 });
  }

  /** Checks a send against the test's instructions: a refusal (permanent) or a one-off outage. */
  checkSend(body: string | undefined) {
    if (body !== undefined && this.rejects.has(body)) throw boom('not-acceptable', 406);
    if (body !== undefined && this.failOnce.delete(body)) throw boom('Internal Server Error', 500);
  }

  startPairing(code: string, socket: FakeSocket) {
    this.pairing = { code, socket };
  }

  async close() {
    for (const s of this.open()) await s.end(undefined);
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** One `makeWASocket` result. */
export class FakeSocket implements WhatsAppSocket {
  readonly ev: BaileysEventEmitter;
  private readonly emitter = new EventEmitter();
  closed = false;
  isOpen = false;
  qrShown = false;
  private qrTimer?: NodeJS.Timeout;
  readonly signalRepository: WhatsAppSocket['signalRepository'];

  constructor(
    private readonly wa: FakeWhatsApp,
    readonly config: UserFacingSocketConfig,
  ) {
    this.emitter.setMaxListeners(50);
    const em = this.emitter;
    this.ev = {
      on: (e, l) => void em.on(e, l as never),
      off: (e, l) => void em.off(e, l as never),
      removeAllListeners: (e) => void em.removeAllListeners(e),
      emit: (e, arg) => em.emit(e, arg),
    };
    this.signalRepository = {
      lidMapping: {
        getPNForLID: async (lid) => {
          const pn = wa.lidToPn.get(user(lid));
          return pn ? `${pn}@s.whatsapp.net` : null;
        },
        getLIDForPN: async (pn) => {
          for (const [l, p] of wa.lidToPn) if (p === user(pn)) return `${l}@lid`;
          return null;
        },
      },
    };
    setTimeout(() => void this.start(), 5);
  }

  get creds(): AuthenticationCreds {
    return this.config.auth.creds;
  }

  get me() {
    return this.creds.me;
  }

  get user(): Contact | undefined {
    return this.isOpen ? this.creds.me : undefined;
  }

  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]) {
    if (!this.closed) this.emitter.emit(event, arg);
  }

  private updateCreds(update: Partial<AuthenticationCreds>) {
    Object.assign(this.creds, update);
    this.emit('creds.update', update);
  }

  private async start() {
    if (this.closed) return;
    this.emit('connection.update', { connection: 'connecting', receivedPendingNotifications: false, qr: undefined });
    if (this.wa.down) {
      setTimeout(() => void this.end(boom('Connection Failure', 428)), 10);
      return;
    }
    const me = this.creds.me;
    if (me?.id && this.creds.account) {
      if (!this.wa.linked.has(me.id)) {
        void this.end(boom('Connection Failure', 401));
        return;
      }
      // A linked device opens with the keys it stored when it was linked.
      const keys = await this.config.auth.keys.get('pre-key', ['1']);
      if (!keys['1']) {
        void this.end(boom('Bad MAC: signal keys missing', 500));
        return;
      }
      this.isOpen = true;
      this.emit('connection.update', { connection: 'open' });
      this.emit('connection.update', { receivedPendingNotifications: true });
      return;
    }
    let shown = 0;
    const next = () => {
      if (this.closed || this.isOpen) return;
      if (shown >= this.wa.qrPerRound) {
        void this.end(boom('QR refs attempts ended', 408));
        return;
      }
      shown++;
      this.qrShown = true;
      this.emit('connection.update', { qr: `2@${randomBytes(12).toString('base64')},${randomBytes(8).toString('base64')},${shown}` });
      if (this.wa.autoScan && shown === 1) setTimeout(() => !this.closed && this.link(), 5);
      this.qrTimer = setTimeout(next, this.wa.qrIntervalMs);
    };
    next();
  }

  /** pair-success: the creds gain the account identity, keys are stored, and WhatsApp asks for a restart (515). */
  link() {
    if (this.qrTimer) clearTimeout(this.qrTimer);
    const device = 10 + this.wa.linked.size;
    const me = { id: `${this.wa.phone.number}:${device}@s.whatsapp.net`, lid: `${this.wa.phone.lid}:${device}@lid`, name: this.wa.phone.name };
    this.wa.linked.add(me.id);
    this.wa.mapLid(`${this.wa.phone.lid}@lid`, `${this.wa.phone.number}@s.whatsapp.net`);
    this.updateCreds({ me, account: { details: randomBytes(32), accountSignatureKey: randomBytes(32), accountSignature: randomBytes(64), deviceSignature: randomBytes(64) }, platform: 'android' });
    void Promise.resolve(this.config.auth.keys.set({ 'pre-key': { '1': { public: randomBytes(32), private: randomBytes(32) } } })).then(() => {
      this.emit('connection.update', { isNewLogin: true, qr: undefined });
      setTimeout(() => void this.end(boom('Stream Errored (restart required)', 515)), 5);
    });
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (this.closed) throw boom('Connection Closed', 428);
    const code = randomBytes(5).toString('hex').toUpperCase().slice(0, 8);
    this.updateCreds({ pairingCode: code, me: { id: `${phoneNumber}@s.whatsapp.net`, name: '~' } });
    this.wa.startPairing(code, this);
    return code;
  }

  async onWhatsApp(...jids: string[]) {
    if (!this.isOpen) throw boom('Connection Closed', 428);
    return jids.filter((j) => !j.endsWith('@lid') && !this.wa.notOnWhatsApp.has(user(j))).map((j) => ({ jid: `${user(j)}@s.whatsapp.net`, exists: true }));
  }

  async groupMetadata(jid: string): Promise<GroupMetadata> {
    const subject = this.wa.groups.get(jid);
    if (!subject) throw boom('item-not-found', 404);
    return { id: jid, subject, owner: undefined, participants: [] };
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> {
    if (!this.isOpen) throw boom('Connection Closed', 428);
    const c = content as Record<string, any>;
    const body: string | undefined = c.text ?? c.caption;
    this.wa.checkSend(body);
    const key: WAMessageKey = { remoteJid: jid, fromMe: true, id: messageId() };
    const contextInfo = options?.quoted?.key.id ? { stanzaId: options.quoted.key.id, participant: options.quoted.key.participant ?? jid, quotedMessage: options.quoted.message } : undefined;
    let message: WAMessage['message'];
    let media: SentRecord['media'];
    const kind = (['image', 'video', 'audio', 'document', 'sticker'] as const).find((k) => c[k]);
    if (kind) {
      // Like Baileys: a local path is read from disk, a stream (a link the plugin fetched) is read to the end.
      let size: number;
      if (c[kind].stream) {
        size = 0;
        for await (const chunk of c[kind].stream as AsyncIterable<Buffer>) size += chunk.length;
      } else size = fs.statSync(c[kind].url as string).size;
      media = { kind, mimetype: c.mimetype, name: c.fileName, size, ptt: c.ptt };
      message = { [`${kind}Message`]: { url: 'https://mmg.whatsapp.net/fake', mimetype: c.mimetype, caption: c.caption, fileName: c.fileName, fileLength: size, contextInfo } };
    } else if (c.edit) message = { protocolMessage: { key: c.edit, type: 14, editedMessage: { conversation: c.text } } };
    else if (c.delete) message = { protocolMessage: { key: c.delete, type: 0 } };
    else if (c.react) message = { reactionMessage: { key: c.react.key, text: c.react.text } };
    else message = contextInfo ? { extendedTextMessage: { text: c.text, contextInfo } } : { conversation: c.text };
    const m = { key, message, messageTimestamp: Math.floor(Date.now() / 1000), status: Status.PENDING } as WAMessage;
    this.wa.sent.push({ jid, content, options, message: m, body, media });
    // Baileys emits our own sends back (emitOwnEvents), then the server ack.
    this.emit('messages.upsert', { messages: [m], type: 'append' });
    setTimeout(() => this.emit('messages.update', [{ key, update: { status: Status.SERVER_ACK } }]), 5);
    return m;
  }

  async fetchMessageHistory(count: number, oldestMsgKey: WAMessageKey, oldestMsgTimestamp: number): Promise<string> {
    if (!this.isOpen) throw boom('Not authenticated', 401);
    const id = randomBytes(6).toString('hex');
    this.wa.historyRequests.push({ chat: oldestMsgKey.remoteJid!, count });
    const older = this.wa.phoneHistory
      .filter((m) => m.key.remoteJid === oldestMsgKey.remoteJid && Number(m.messageTimestamp) * 1000 < oldestMsgTimestamp)
      .sort((a, b) => Number(b.messageTimestamp) - Number(a.messageTimestamp))
      .slice(0, count);
    setTimeout(() => this.emit('messaging-history.set', { chats: [], contacts: [], messages: older, syncType: 6, peerDataRequestSessionId: id, isLatest: false, progress: 100 }), 10);
    return id;
  }

  async updateMediaMessage(_message: WAMessage): Promise<WAMessage> {
    // The phone no longer has the file either.
    throw boom('media not found on the phone', 404);
  }

  async logout(): Promise<void> {
    if (!this.isOpen) throw boom('Connection Closed', 428);
    if (this.me) this.wa.linked.delete(this.me.id);
    await this.end(boom('Intentional Logout', 401));
  }

  async end(error: Error | undefined): Promise<void> {
    if (this.closed) return;
    if (this.qrTimer) clearTimeout(this.qrTimer);
    this.isOpen = false;
    this.emitter.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
    this.closed = true;
    this.emitter.removeAllListeners();
  }
}
