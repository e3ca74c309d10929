import i18next from 'i18next';
import { atom } from 'jotai';
import { useEffect, useRef } from 'react';
import { api, endSessionAndRedirect, ensureFreshToken } from './api.ts';
import { queryClient } from './query.ts';
import { getAccessToken } from './session.ts';
import { atendeStore } from './store.ts';

/** One real-time frame: `{seq, epoch, event, data}`. */
export interface RealtimeFrame<T = unknown> {
  seq?: number;
  epoch?: string;
  event: string;
  data?: T;
}

/**
 * - `idle`: not started (logged out);
 * - `connecting`: first attempt, nothing shown yet;
 * - `open`: the socket is live;
 * - `polling`: the socket keeps failing, `GET /api/events` carries the events;
 * - `reconnecting`: nothing is flowing, the banner is shown.
 */
export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'polling' | 'reconnecting';

export const realtimeStatusAtom = atom<RealtimeStatus>('idle');

export type RealtimeHandler<T = unknown> = (data: T, frame: RealtimeFrame<T>) => void;

type PollAnswer = { epoch: string; seq?: number; events: RealtimeFrame[] } | { resync: true; epoch: string; seq: number };

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
const POLL_EVERY_MS = 3000;
/** Close code of a socket the server refused because the user or session already has the most it allows. */
const TOO_MANY_SOCKETS = 4008;
const FAILURES_BEFORE_POLLING = 3;

/**
 * WebSocket client of `GET /api/ws` with resume (`epoch` + `since`), jittered
 * exponential reconnect and a polling fallback on `GET /api/events`.
 * Events are dispatched to `on(event)` subscribers; `*` receives all.
 */
export class RealtimeClient {
  private ws: WebSocket | undefined;
  private epoch: string | undefined;
  private seq: number | undefined;
  private started = false;
  private failures = 0;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private polling = false;
  private readonly handlers = new Map<string, Set<RealtimeHandler<any>>>();
  /** Extra rooms (e.g. `ticket:42`) joined on top of the tenant room; re-joined after each reconnect. */
  private readonly rooms = new Map<string, number>();

  /** Connects (idempotent). The shell calls it when a session exists. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.setStatus('connecting');
    void this.connect();
  }

  /** Disconnects and forgets the position (logout). */
  stop(): void {
    this.started = false;
    clearTimeout(this.reconnectTimer);
    this.stopPolling();
    const ws = this.ws;
    this.ws = undefined;
    ws?.close(1000);
    this.epoch = undefined;
    this.seq = undefined;
    this.failures = 0;
    this.attempt = 0;
    this.setStatus('idle');
  }

  /** Subscribes to an event name (`*` for all); returns the unsubscribe function. */
  on<T = unknown>(event: string, handler: RealtimeHandler<T>): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /**
   * Joins a room (`ticket:<id>`, `queue:<id>`…) while the returned function is
   * not called. Reference-counted, so two screens can share a room.
   */
  join(room: string): () => void {
    const n = this.rooms.get(room) ?? 0;
    this.rooms.set(room, n + 1);
    if (n === 0) this.sendControl({ type: 'join', room });
    return () => {
      const left = (this.rooms.get(room) ?? 1) - 1;
      if (left > 0) this.rooms.set(room, left);
      else {
        this.rooms.delete(room);
        this.sendControl({ type: 'leave', room });
      }
    };
  }

  private sendControl(msg: { type: string; room?: string }): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Last position received, for diagnostics and tests. */
  position(): { epoch?: string; seq?: number } {
    return { epoch: this.epoch, seq: this.seq };
  }

  private setStatus(s: RealtimeStatus): void {
    atendeStore.set(realtimeStatusAtom, s);
  }

  private url(token: string): string {
    const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const qs = new URLSearchParams({ token });
    if (this.epoch !== undefined) qs.set('epoch', this.epoch);
    if (this.seq !== undefined) qs.set('since', String(this.seq));
    return `${proto}://${window.location.host}/api/ws?${qs.toString()}`;
  }

  private async connect(): Promise<void> {
    if (!this.started) return;
    // The upgrade is authenticated once: bring a token that is not about to expire.
    await ensureFreshToken().catch(() => undefined);
    if (!this.started) return;
    const token = getAccessToken();
    if (!token) return this.stop();
    let opened = false;
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url(token));
    } catch {
      return this.onClosed(false);
    }
    this.ws = ws;
    ws.onopen = () => {
      opened = true;
      this.failures = 0;
      this.attempt = 0;
      this.stopPolling();
      this.setStatus('open');
      for (const room of this.rooms.keys()) this.sendControl({ type: 'join', room });
    };
    ws.onmessage = (ev: MessageEvent) => {
      try {
        this.handleFrame(JSON.parse(String(ev.data)) as RealtimeFrame);
      } catch {
        // A malformed frame is dropped; the next resync repairs any gap.
      }
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return; // replaced or stopped
      this.ws = undefined;
      if (ev.code === TOO_MANY_SOCKETS) {
        // The server holds as many sockets of this user as it allows (other tabs): poll, and try again only slowly.
        this.failures = FAILURES_BEFORE_POLLING;
        this.attempt = Math.max(this.attempt, 10);
        return this.onClosed(false);
      }
      this.onClosed(opened);
    };
  }

  private onClosed(wasOpen: boolean): void {
    if (!this.started) return;
    if (!wasOpen) this.failures += 1;
    if (this.failures >= FAILURES_BEFORE_POLLING) this.startPolling();
    if (!this.polling) this.setStatus('reconnecting');
    const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** this.attempt);
    // Full jitter in the upper half: spreads reconnect storms after a server restart.
    const delay = Math.max(MIN_DELAY_MS, base / 2 + Math.random() * (base / 2));
    this.attempt += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }

  private startPolling(): void {
    if (this.polling) return;
    this.polling = true;
    const tick = async () => {
      if (!this.polling) return;
      try {
        const answer = await api.get<PollAnswer>('/events', {
          background: true,
          query: { epoch: this.epoch, since: this.seq },
        });
        if (!this.polling) return;
        if ('resync' in answer && answer.resync) this.handleFrame({ event: 'resync', epoch: answer.epoch, seq: answer.seq });
        else if ('events' in answer) {
          for (const f of answer.events) this.handleFrame(f);
          this.epoch = answer.epoch;
          if (typeof answer.seq === 'number' && (this.seq === undefined || answer.seq > this.seq)) this.seq = answer.seq;
        }
        if (this.ws?.readyState !== WebSocket.OPEN) this.setStatus('polling');
      } catch {
        if (this.polling) this.setStatus('reconnecting');
      }
      if (this.polling) this.pollTimer = setTimeout(tick, POLL_EVERY_MS);
    };
    void tick();
  }

  private stopPolling(): void {
    this.polling = false;
    clearTimeout(this.pollTimer);
  }

  private handleFrame(f: RealtimeFrame): void {
    if (!f || typeof f.event !== 'string') return;
    if (f.event === 'resync') {
      // The server no longer has what we missed: refetch everything.
      if (f.epoch !== undefined) this.epoch = String(f.epoch);
      if (typeof f.seq === 'number') this.seq = f.seq;
      void queryClient.invalidateQueries();
      this.dispatch(f);
      return;
    }
    if (f.event === 'session.ended') {
      this.stop();
      endSessionAndRedirect(i18next.t('errors.ERR_SESSION_EXPIRED'));
      return;
    }
    if (typeof f.seq === 'number') {
      const sameEpoch = f.epoch === undefined || f.epoch === this.epoch;
      // The socket and a late poll can both carry an event: keep the first.
      if (sameEpoch && this.seq !== undefined && f.seq <= this.seq) return;
      this.seq = f.seq;
    }
    if (f.epoch !== undefined) this.epoch = String(f.epoch);
    this.dispatch(f);
  }

  private dispatch(f: RealtimeFrame): void {
    for (const key of [f.event, '*']) {
      for (const h of this.handlers.get(key) ?? []) {
        try {
          h(f.data, f);
        } catch (e) {
          console.error(`realtime handler for ${f.event} failed`, e);
        }
      }
    }
  }
}

/** The page's real-time connection (a singleton through the SDK). */
export const realtime = new RealtimeClient();

/** Keeps the connection joined to `room` while the component is mounted (undefined = none). */
export function useRealtimeRoom(room: string | undefined): void {
  useEffect(() => (room ? realtime.join(room) : undefined), [room]);
}

/**
 * Runs `handler` for each real-time event named `event` while the component
 * is mounted. The latest handler is always used, so inline closures are fine.
 */
export function useRealtime<T = unknown>(event: string, handler: RealtimeHandler<T>): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => realtime.on<T>(event, (data, frame) => ref.current(data, frame)), [event]);
}
