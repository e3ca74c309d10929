/**
 * Real `atende start` processes for the multi-node and fault suites: each
 * node is `node --import tsx cli/src/bin.ts start --role <role> --port <p>`
 * with its environment, exactly as an operator would run it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const METRICS_TOKEN = 'multinode-scrape-token-0123456789';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Polls until `fn` returns a truthy value; fails with `what` after `ms`. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false | null> | T | undefined | false | null, ms = 30_000, everyMs = 100): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface NodeOptions {
  role: 'api' | 'worker' | 'all';
  databaseUrl: string;
  redisUrl: string;
  namespace: string;
  env?: Record<string, string>;
  port?: number;
}

export class AtendeNode {
  readonly output: string[] = [];
  proc!: ChildProcess;
  exited!: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly dataDir: string;
  port = 0;

  constructor(readonly name: string, readonly opts: NodeOptions) {
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `atende-${name}-`));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.proc.pid!;
  }

  /** Starts the process and resolves once it prints its address (migrations done, listening). */
  async start(timeoutMs = 300_000): Promise<this> {
    this.port = this.opts.port ?? (this.port || (await freePort()));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATABASE_URL: this.opts.databaseUrl,
      REDIS_URL: this.opts.redisUrl,
      ATENDE_NAMESPACE: this.opts.namespace,
      ATENDE_DATA_DIR: this.dataDir,
      HOST: '127.0.0.1',
      ATENDE_CAPTCHA: 'off',
      ATENDE_LOG_LEVEL: 'warn',
      ATENDE_METRICS_TOKEN: METRICS_TOKEN,
      ATENDE_SHUTDOWN_TIMEOUT_MS: '5000',
      // Load generators run from one address; the limit itself is tested in core/src/http/rate-limit.test.ts.
      ATENDE_RATE_LIMIT_TENANT: '0',
      ATENDE_RATE_LIMIT_IP: '0',
      ...this.opts.env,
    };
    this.proc = spawn(process.execPath, ['--import', 'tsx', 'cli/src/bin.ts', 'start', '--role', this.opts.role, '--port', String(this.port)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        for (const line of text.split('\n')) if (line.trim()) this.output.push(line);
        if (this.output.length > 400) this.output.splice(0, this.output.length - 400);
        if (text.includes('Atende em ')) resolve();
      };
      this.proc.stdout!.on('data', onData);
      this.proc.stderr!.on('data', onData);
      void this.exited.then((e) => reject(new Error(`${this.name} exited before ready (${e.code ?? e.signal}):\n${this.output.slice(-30).join('\n')}`)));
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ready, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${this.name} not ready within ${timeoutMs} ms:\n${this.output.slice(-30).join('\n')}`)), timeoutMs)))]).finally(() => clearTimeout(timer));
    return this;
  }

  /** Sends a signal and waits for the process to end. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill(signal);
    return this.exited;
  }

  async stop(): Promise<void> {
    if (!this.proc || this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill('SIGTERM');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(t);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  async request(method: string, url: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; json: any; text: string }> {
    const res = await fetch(`${this.url}${url}`, {
      method,
      headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }

  /** One series of this node's /api/metrics (summed over label sets that contain `labels`). */
  async metric(name: string, labels: Record<string, string> = {}): Promise<number> {
    const { text } = await this.request('GET', '/api/metrics', { token: METRICS_TOKEN });
    let sum = 0;
    for (const line of text.split('\n')) {
      if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
      if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum;
  }
}

/** The id prefix the kernel gives a process in lease tables (`<host>-<pid>-…`). */
export const leaseOwnerOf = (node: AtendeNode) => `${os.hostname().replace(/[^a-zA-Z0-9_.-]/g, '_')}-${node.pid}-`;

export function namespaceFor(prefix: string): string {
  return `${prefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
