import type { WebSocket } from 'ws';
import type { Logger } from 'pino';
import type { ClusterPort } from '../events/cluster.ts';
import { formatError } from '../errors.ts';
import type { DeliveredEvent, EventBusPort, Principal, RealtimePort } from '../sdk/types.ts';

export interface Recipient extends Principal {
  queues: number[];
  sid?: string;
}

interface Conn {
  ws: WebSocket;
  who: Recipient;
  rooms: Set<string>;
  alive: boolean;
}

type VisibilityFilter = (recipient: Recipient, data: any) => boolean | Promise<boolean>;
/** What a recipient gets instead of an event it may not see (e.g. `ticket.removed` so its list drops the row). */
type RejectFrame = (data: any) => { event: string; data: unknown } | undefined;
type RoomAuthorizer = (recipient: Recipient, id: string) => Promise<boolean>;

/**
 * Re-reads, for open sockets, what their visibility depends on (profile, queues, menus, settings):
 * the new view of each user of the tenant (all of them when `userIds` is undefined); a user
 * missing from the answer may no longer see anything (deleted, disabled).
 */
export type RecipientReloader = (tenantId: number, userIds: number[] | undefined) => Promise<Map<number, Omit<Recipient, 'sid'>>>;

/**
 * Events after which open sockets re-read who they belong to (X1-5): a socket must not keep the
 * queues or profile it had at connect once an admin changed them, nor outlive a queue or setting.
 * `user.*` events concern one user (`data.id`); the others the whole tenant.
 */
const RELOAD_ON = new Set(['user.updated', 'user.deleted', 'queue.updated', 'queue.deleted', 'settings.updated', 'tenant.updated', 'plugin.settings_updated']);

/** Close code of a socket refused because its session or user already holds the most allowed (X1-17). */
export const TOO_MANY_SOCKETS_CODE = 4008;

/** Cluster topic: end some sockets on every node (a session revoked, a user deactivated). */
const SESSION_ENDED_TOPIC = '_kernel:session_ended';

interface SessionEnded {
  tenantId: number;
  sid?: string;
  userId?: number;
}

/**
 * Real-time fan-out: every node subscribes to the bus and delivers each event to
 * its own sockets of that tenant, in the event's rooms, after the visibility
 * filters for that event name have accepted the recipient.
 */
export class RealtimeHub implements RealtimePort {
  private readonly byTenant = new Map<number, Set<Conn>>();
  private readonly filters = new Map<string, VisibilityFilter[]>();
  private readonly rejectFrames = new Map<string, RejectFrame>();
  private readonly roomAuthorizers = new Map<string, RoomAuthorizer>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;
  /** Open sockets per `tenant:user` on this node, and the pending "went offline" checks (see presence.ts). */
  private readonly userSockets = new Map<string, number>();
  private readonly offlineTimers = new Map<string, NodeJS.Timeout>();
  private reloader?: RecipientReloader;
  private limits = { perSession: Number.MAX_SAFE_INTEGER, perUser: Number.MAX_SAFE_INTEGER };
  private presence?: { set(tenantId: number, userId: number, sockets: number): Promise<void> };
  private offlineGraceMs = 3000;
  private delivering: Promise<void> = Promise.resolve();
  /** Sockets whose writes are held until the end of the current turn (see `write`). */
  private readonly corked = new Set<import('node:net').Socket>();
  /** Rewrites a frame's JSON for the tenant it goes to (stored media URLs into expiring ones); set by the app. */
  private frameText: (json: string, tenantId: number) => string = (json) => json;

  constructor(
    private readonly bus: EventBusPort,
    private readonly cluster: ClusterPort,
    private readonly logger: Logger,
  ) {
    // Deliveries are chained: visibility filters may await, and a later event must never reach a socket before an earlier one.
    this.unsubscribe = bus.subscribe((e) => {
      this.delivering = this.delivering.then(() => this.deliver(e)).catch((err) => this.logger.warn({ err: (err as Error).message }, 'event delivery failed'));
    });
    cluster.on(SESSION_ENDED_TOPIC, (data) => this.endHere(data as SessionEnded));
    this.heartbeat = setInterval(() => this.ping(), 30_000);
    this.heartbeat.unref();
  }

  setFrameText(fn: (json: string, tenantId: number) => string): void {
    this.frameText = fn;
  }

  get size(): number {
    let n = 0;
    for (const s of this.byTenant.values()) n += s.size;
    return n;
  }

  async emit<T>(tenantId: number, event: string, data: T, rooms?: string[]): Promise<void> {
    await this.bus.publish({ tenantId, event, data, rooms });
  }

  addVisibilityFilter(event: string, filter: VisibilityFilter, onReject?: RejectFrame): void {
    const list = this.filters.get(event) ?? [];
    list.push(filter);
    this.filters.set(event, list);
    if (onReject) this.rejectFrames.set(event, onReject);
  }

  /** Tells `presence` when a user's first socket opens on this node and, after a grace period, when the last one closed. */
  setPresence(presence: { set(tenantId: number, userId: number, sockets: number): Promise<void> }, offlineGraceMs: number): void {
    this.presence = presence;
    this.offlineGraceMs = offlineGraceMs;
  }

  private countSocket(who: Recipient, delta: 1 | -1): void {
    const key = `${who.tenantId}:${who.userId}`;
    const n = (this.userSockets.get(key) ?? 0) + delta;
    if (n > 0) this.userSockets.set(key, n);
    else this.userSockets.delete(key);
    const pending = this.offlineTimers.get(key);
    if (delta > 0 && pending) {
      clearTimeout(pending);
      this.offlineTimers.delete(key);
    }
    if (!this.presence) return;
    if (delta > 0 && n === 1) void this.presence.set(who.tenantId, who.userId, n);
    if (n === 0 && !this.offlineTimers.has(key)) {
      const timer = setTimeout(() => {
        this.offlineTimers.delete(key);
        if (!this.userSockets.has(key)) void this.presence?.set(who.tenantId, who.userId, 0);
      }, this.offlineGraceMs);
      timer.unref();
      this.offlineTimers.set(key, timer);
    }
  }

  /** Caps on open sockets per session and per user on this node (X1-17). */
  setLimits(limits: { perSession: number; perUser: number }): void {
    this.limits = { ...limits };
  }

  setReloader(fn: RecipientReloader): void {
    this.reloader = fn;
  }

  private static baseRooms(who: Recipient): string[] {
    return ['tenant', `user:${who.userId}`, ...who.queues.map((q) => `queue:${q}`)];
  }

  /**
   * Brings the open sockets concerned by a change up to date before the change's own event
   * (and any later one) is delivered: their principal, their queue rooms, and the rooms they
   * joined, which are authorized again. A socket whose user is gone is ended.
   */
  private async reload(e: DeliveredEvent): Promise<void> {
    const set = this.byTenant.get(e.tenantId);
    if (!set || !this.reloader) return;
    const userId = e.event.startsWith('user.') ? Number((e.data as { id?: unknown })?.id) : undefined;
    if (userId !== undefined && !Number.isInteger(userId)) return;
    const conns = [...set].filter((c) => userId === undefined || c.who.userId === userId);
    if (!conns.length) return;
    const fresh = await this.reloader(e.tenantId, userId === undefined ? undefined : [userId]);
    for (const c of conns) {
      const now = fresh.get(c.who.userId);
      if (!now) {
        this.send(c, { event: 'session.ended' });
        c.ws.close(4001, 'session ended');
        set.delete(c);
        continue;
      }
      const oldBase = new Set(RealtimeHub.baseRooms(c.who));
      c.who = { ...c.who, ...now, sid: c.who.sid };
      const joined = [...c.rooms].filter((r) => !oldBase.has(r));
      c.rooms = new Set(RealtimeHub.baseRooms(c.who));
      for (const room of joined) {
        const [kind, id] = room.split(':');
        const auth = this.roomAuthorizers.get(kind);
        if (auth && id && (await auth(c.who, id).catch(() => false))) c.rooms.add(room);
        else this.send(c, { event: 'left', room });
      }
    }
  }

  /** Lets a module decide who may join rooms of a kind (e.g. `ticket`). */
  addRoomAuthorizer(kind: string, fn: RoomAuthorizer): void {
    this.roomAuthorizers.set(kind, fn);
  }

  /** Ends the sockets of a session or of every session of a user, on every node. */
  async endSessions(tenantId: number, target: { sid?: string; userId?: number }): Promise<void> {
    this.endHere({ tenantId, ...target });
    await this.cluster.broadcast(SESSION_ENDED_TOPIC, { tenantId, ...target } satisfies SessionEnded);
  }

  /** Closes this node's sockets of the session or user, after the events already on their way to them. */
  private endHere(t: SessionEnded): void {
    this.delivering = this.delivering.then(() => {
      for (const c of this.byTenant.get(t.tenantId) ?? []) {
        if ((t.sid && c.who.sid === t.sid) || (t.userId && c.who.userId === t.userId)) {
          this.send(c, { event: 'session.ended' });
          c.ws.close(4001, 'session ended');
        }
      }
    }).catch((err) => this.logger.warn({ err: (err as Error).message }, 'ending sockets failed'));
  }

  async attach(ws: WebSocket, who: Recipient, resume: { epoch?: string; since?: number }): Promise<void> {
    // Counted and registered in one synchronous step, so concurrent upgrades cannot all slip under the cap.
    let perSession = 0;
    let perUser = 0;
    for (const c of this.byTenant.get(who.tenantId) ?? []) {
      if (c.who.userId !== who.userId) continue;
      perUser += 1;
      if (who.sid && c.who.sid === who.sid) perSession += 1;
    }
    if (perSession >= this.limits.perSession || perUser >= this.limits.perUser) {
      this.logger.warn({ event: 'realtime.too_many_sockets', tenant: who.tenantId, user: who.userId, perSession, perUser }, 'socket refused: too many open');
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event: 'error', error: 'ERR_TOO_MANY_SOCKETS', message: formatError('ERR_TOO_MANY_SOCKETS', 'pt') }));
      ws.close(TOO_MANY_SOCKETS_CODE, 'too many sockets');
      return;
    }
    const conn: Conn = { ws, who, rooms: new Set(RealtimeHub.baseRooms(who)), alive: true };
    let set = this.byTenant.get(who.tenantId);
    if (!set) this.byTenant.set(who.tenantId, (set = new Set()));
    set.add(conn);
    this.countSocket(who, 1);
    ws.on('pong', () => (conn.alive = true));
    ws.on('close', () => {
      set!.delete(conn);
      if (set!.size === 0) this.byTenant.delete(who.tenantId);
      this.countSocket(who, -1);
    });
    ws.on('message', (raw) => void this.onClientMessage(conn, raw.toString()));
    const state = await this.bus.since(who.tenantId, resume.epoch, resume.since ?? Number.MAX_SAFE_INTEGER);
    if ('resync' in state) {
      // A client that brings no position starts at the current one without a resync.
      if (resume.since === undefined) this.send(conn, { event: 'hello', epoch: state.epoch, seq: state.seq });
      else this.send(conn, { event: 'resync', epoch: state.epoch, seq: state.seq });
      return;
    }
    if (resume.since === undefined) {
      const seq = state.events.length ? state.events[state.events.length - 1].seq : 0;
      this.send(conn, { event: 'hello', epoch: state.epoch, seq });
      return;
    }
    this.send(conn, { event: 'hello', epoch: state.epoch, seq: resume.since });
    for (const e of state.events) if (await this.accepts(conn, e)) this.sendEvent(conn, e);
  }

  private async onClientMessage(conn: Conn, raw: string) {
    let msg: { type?: string; room?: string };
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if ((msg.type === 'join' || msg.type === 'leave') && typeof msg.room === 'string') {
      const [kind, id] = msg.room.split(':');
      const auth = this.roomAuthorizers.get(kind);
      if (msg.type === 'leave') {
        conn.rooms.delete(msg.room);
        return;
      }
      const ok = auth && id ? await auth(conn.who, id).catch(() => false) : false;
      if (ok) conn.rooms.add(msg.room);
      this.send(conn, { event: ok ? 'joined' : 'join_refused', room: msg.room });
    } else if (msg.type === 'ping') {
      this.send(conn, { event: 'pong' });
    }
  }

  private async accepts(conn: Conn, e: DeliveredEvent): Promise<boolean> {
    const rooms = e.rooms ?? ['tenant'];
    if (!rooms.some((r) => conn.rooms.has(r))) return false;
    for (const f of this.filters.get(e.event) ?? []) {
      try {
        if (!(await f(conn.who, e.data))) return false;
      } catch (err) {
        this.logger.warn({ err: (err as Error).message, event: e.event }, 'visibility filter failed; event withheld');
        return false;
      }
    }
    return true;
  }

  private async deliver(e: DeliveredEvent) {
    if (!this.byTenant.get(e.tenantId)) return;
    if (RELOAD_ON.has(e.event)) {
      await this.reload(e).catch((err) => {
        // Unsure what they may see now: the sockets concerned reconnect, which authenticates them afresh.
        this.logger.warn({ err: (err as Error).message, event: e.event }, 'reloading socket principals failed; sockets asked to reconnect');
        const userId = e.event.startsWith('user.') ? Number((e.data as { id?: unknown })?.id) : undefined;
        for (const c of this.byTenant.get(e.tenantId) ?? []) if (userId === undefined || c.who.userId === userId) c.ws.close(1012, 'reconnect');
      });
    }
    const set = this.byTenant.get(e.tenantId);
    if (!set) return;
    const reject = this.rejectFrames.get(e.event);
    // One serialisation and one UTF-8 encoding per event, however many sockets receive it.
    let frame: Buffer | undefined;
    for (const c of set) {
      if (await this.accepts(c, e)) {
        frame ??= Buffer.from(this.frameText(JSON.stringify({ seq: e.seq, epoch: e.epoch, event: e.event, data: e.data }), e.tenantId));
        this.write(c, frame);
      }
      else if (reject && (e.rooms ?? ['tenant']).some((r) => c.rooms.has(r))) {
        const f = reject(e.data);
        if (f) this.send(c, { seq: e.seq, epoch: e.epoch, ...f });
      }
    }
  }

  private sendEvent(c: Conn, e: DeliveredEvent) {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(this.frameText(JSON.stringify({ seq: e.seq, epoch: e.epoch, event: e.event, data: e.data }), e.tenantId));
  }

  private send(c: Conn, frame: unknown) {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(frame));
  }

  /**
   * Sends one text frame, holding the socket's writes until the end of this turn of the
   * event loop: the events of one inbound message (message.created, ticket.updated) reach
   * an agent in one write instead of one system call each — with hundreds of agents per
   * tenant the system calls, not our code, were most of the server's time.
   */
  private write(c: Conn, frame: Buffer) {
    if (c.ws.readyState !== c.ws.OPEN) return;
    // `_socket` is ws's underlying net.Socket; ws corks it around each frame too, and cork nests.
    const socket = (c.ws as unknown as { _socket?: import('node:net').Socket })._socket;
    if (socket && !this.corked.has(socket)) {
      socket.cork();
      this.corked.add(socket);
      if (this.corked.size === 1) setImmediate(() => this.uncorkAll());
    }
    c.ws.send(frame, { binary: false });
  }

  private uncorkAll() {
    for (const socket of this.corked) socket.uncork();
    this.corked.clear();
  }

  private ping() {
    for (const set of this.byTenant.values())
      for (const c of set) {
        if (!c.alive) {
          c.ws.terminate();
          continue;
        }
        c.alive = false;
        c.ws.ping();
      }
  }

  /** On shutdown: tell every client to reconnect (to another node) and close. */
  closeAll(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    this.presence = undefined;
    for (const timer of this.offlineTimers.values()) clearTimeout(timer);
    this.offlineTimers.clear();
    for (const set of this.byTenant.values())
      for (const c of set) {
        this.send(c, { event: 'server.restarting' });
        c.ws.close(1012, 'restarting');
      }
  }

  /** Filters a list of stored events for one recipient (polling fallback). */
  async filterFor(who: Recipient, events: DeliveredEvent[]): Promise<DeliveredEvent[]> {
    const conn = { ws: undefined as unknown as WebSocket, who, rooms: new Set(RealtimeHub.baseRooms(who)), alive: true };
    const out: DeliveredEvent[] = [];
    for (const e of events) if (await this.accepts(conn, e)) out.push(e);
    return out;
  }
}
