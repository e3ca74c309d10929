import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane. */
const PARAMS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

type Job = { op: 'hash'; plain: string } | { op: 'verify'; plain: string; stored: string };

/**
 * Hashing runs in a small pool of worker threads, one per core, each at a
 * lower scheduling priority than the event loop (B7: a burst of logins must
 * not add event-loop lag on a 2-core machine shared with PostgreSQL). If the
 * threads cannot start, hashing falls back to libuv's thread pool.
 */
class HashPool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: { job: Job; resolve: (v: unknown) => void; reject: (e: Error) => void }[] = [];
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; worker: Worker }>();
  private seq = 0;
  broken = false;

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.spawn();
  }

  private spawn() {
    const w = new Worker(new URL('./hash-worker.mjs', import.meta.url));
    w.unref();
    w.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
      this.release(w);
    });
    w.on('error', () => this.retire(w));
    w.on('exit', () => this.retire(w));
    this.all.push(w);
    this.idle.push(w);
  }

  /** A dead thread fails its job, is replaced, and the pool gives up (falls back) if threads keep dying at birth. */
  private retire(w: Worker) {
    const i = this.all.indexOf(w);
    if (i < 0) return;
    this.all.splice(i, 1);
    const j = this.idle.indexOf(w);
    if (j >= 0) this.idle.splice(j, 1);
    for (const [id, p] of this.pending) {
      if (p.worker !== w) continue;
      this.pending.delete(id);
      p.reject(new Error('hash worker exited'));
    }
    if (this.all.length === 0) {
      this.broken = true;
      for (const q of this.queue.splice(0)) q.reject(new Error('hash workers unavailable'));
    }
  }

  private release(w: Worker) {
    const next = this.queue.shift();
    if (next) this.dispatch(w, next.job, next.resolve, next.reject);
    else {
      w.unref();
      this.idle.push(w);
    }
  }

  private dispatch(w: Worker, job: Job, resolve: (v: unknown) => void, reject: (e: Error) => void) {
    const id = ++this.seq;
    this.pending.set(id, { resolve, reject, worker: w });
    // Referenced while busy so a pending hash keeps the process alive.
    w.ref();
    w.postMessage({ id, ...job, params: PARAMS });
  }

  run<T>(job: Job): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const w = this.idle.pop();
      if (w) this.dispatch(w, job, resolve as (v: unknown) => void, reject);
      else this.queue.push({ job, resolve: resolve as (v: unknown) => void, reject });
    });
  }
}

let pool: HashPool | undefined;
function hashPool(): HashPool | undefined {
  if (pool?.broken) return undefined;
  try {
    return (pool ??= new HashPool(Math.max(1, Math.min(os.availableParallelism(), 8))));
  } catch {
    return undefined;
  }
}

export async function hashPassword(plain: string): Promise<string> {
  const p = hashPool();
  if (p) {
    try {
      return await p.run<string>({ op: 'hash', plain });
    } catch (err) {
      if (!p.broken) throw err;
    }
  }
  return hash(plain, PARAMS);
}

export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  const p = hashPool();
  try {
    if (p) return await p.run<boolean>({ op: 'verify', plain, stored });
    return await verify(stored, plain);
  } catch {
    // A malformed stored hash (or a dead worker) never logs anyone in.
    return false;
  }
}

/** A hash of a random value, verified against when the account does not exist so timing does not reveal it. */
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword(`dummy-${Math.random()}`));

/** Spec §5: at least 7 characters with letters, numbers and a special character (the rule the screens use too). */
export { isStrongPassword } from '../../validation/index.ts';
