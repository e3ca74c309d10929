import { Queue, Worker, withBackend, createPostgresBackend, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { JobDefinitionOptions, JobHandler, JobOptions, JobsPort } from '../sdk/types.ts';

type AnyQueue = Queue<any, any, string, any, any, string, any, any>;
type AnyWorker = Worker<any, any, string, any, any, any>;

export type JobBackendConfig =
  | { kind: 'redis'; url: string; prefix: string }
  | { kind: 'postgres'; url: string; prefix: string };

interface Definition {
  handler: JobHandler<any>;
  opts: JobDefinitionOptions;
}

/**
 * BullMQ behind the JobsPort: Redis in production, BullMQ's own PostgreSQL
 * backend in the embedded default. Same code path either way; only the
 * constructors differ. Queues are one per job name so each gets its own
 * concurrency and rate limit.
 */
export class BullJobs implements JobsPort {
  private readonly queues = new Map<string, AnyQueue>();
  private readonly workers = new Map<string, AnyWorker>();
  private readonly defs = new Map<string, Definition>();
  private readonly classes: { Queue: any; Worker: any };
  private readonly connection: unknown;
  private running = false;
  private closed = false;

  constructor(private readonly cfg: JobBackendConfig, private readonly logger: Logger) {
    if (cfg.kind === 'postgres') {
      this.classes = withBackend(createPostgresBackend) as any;
      this.connection = { connectionString: cfg.url, migrate: true, max: 4 };
    } else {
      this.classes = { Queue, Worker };
      const u = new URL(cfg.url);
      this.connection = {
        host: u.hostname,
        port: Number(u.port || 6379),
        username: u.username || undefined,
        password: u.password ? decodeURIComponent(u.password) : undefined,
        db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
        tls: u.protocol === 'rediss:' ? {} : undefined,
        maxRetriesPerRequest: null,
      };
    }
  }

  private queueName(name: string) {
    // BullMQ forbids ':' in queue names; job names are dotted (`channel.send`).
    return name.replace(/[^a-zA-Z0-9_.-]/g, '_');
  }

  private queue(name: string): AnyQueue {
    let q = this.queues.get(name);
    if (!q) {
      q = new this.classes.Queue(this.queueName(name), { connection: this.connection, prefix: this.cfg.prefix }) as AnyQueue;
      q.on('error', (err: Error) => this.logger.warn({ err: err.message, queue: name }, 'job queue error'));
      this.queues.set(name, q);
    }
    return q;
  }

  define<T>(name: string, handler: JobHandler<T>, opts: JobDefinitionOptions = {}): void {
    if (this.defs.has(name)) throw new Error(`job ${name} defined twice`);
    this.defs.set(name, { handler: handler as JobHandler<any>, opts });
    if (this.running) this.startWorker(name);
  }

  /** Starts consuming every defined job (worker role). */
  start(): void {
    this.running = true;
    for (const name of this.defs.keys()) this.startWorker(name);
  }

  private startWorker(name: string) {
    if (this.workers.has(name) || this.closed) return;
    const def = this.defs.get(name)!;
    const w = new this.classes.Worker(
      this.queueName(name),
      async (job: Job) =>
        def.handler(job.data, {
          id: String(job.id),
          attempt: job.attemptsMade + 1,
          progress: (p) => job.updateProgress(p as any),
          logger: this.logger.child({ job: name, jobId: job.id }),
        }),
      {
        connection: this.connection,
        prefix: this.cfg.prefix,
        concurrency: def.opts.concurrency ?? 4,
        limiter: def.opts.rateLimit ? { max: def.opts.rateLimit.max, duration: def.opts.rateLimit.durationMs } : undefined,
      },
    ) as AnyWorker;
    w.on('failed', (job, err) => this.logger.warn({ job: name, jobId: job?.id, err: err.message }, 'job failed'));
    w.on('error', (err) => this.logger.warn({ job: name, err: err.message }, 'job worker error'));
    this.workers.set(name, w);
  }

  async enqueue<T>(name: string, data: T, opts: JobOptions = {}): Promise<string> {
    if (!this.defs.has(name)) throw new Error(`unknown job ${name}`);
    const job = await this.queue(name).add(name, data, {
      jobId: opts.jobId,
      delay: opts.delayMs,
      attempts: opts.attempts ?? 3,
      backoff: { type: 'exponential', delay: opts.backoffMs ?? 1000 },
      priority: opts.priority,
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
    return String(job.id);
  }

  async schedule<T>(name: string, key: string, repeat: { pattern?: string; everyMs?: number; tz?: string }, data: T): Promise<void> {
    await this.queue(name).upsertJobScheduler(key, { pattern: repeat.pattern, every: repeat.everyMs, tz: repeat.tz }, { name, data });
  }

  /** Every job name defined on this node (the metrics endpoint reports each queue's depth). */
  definedNames(): string[] {
    return [...this.defs.keys()];
  }

  async counts(name: string): Promise<Record<string, number>> {
    return this.queue(name).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
  }

  async health(): Promise<boolean> {
    try {
      const q = this.queue('kernel.health');
      await Promise.race([q.getJobCounts('waiting'), new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 2000))]);
      return true;
    } catch {
      return false;
    }
  }

  /** Stops taking new jobs and waits for running ones up to `timeoutMs`. */
  async close(timeoutMs = 10_000): Promise<void> {
    this.closed = true;
    const all = [...this.workers.values()].map((w) => w.close());
    await Promise.race([Promise.allSettled(all), new Promise((r) => setTimeout(r, timeoutMs))]);
    // Workers still busy after the bound are force-closed; their jobs return to the queue as stalled.
    await Promise.allSettled([...this.workers.values()].map((w) => w.close(true)));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
  }
}
