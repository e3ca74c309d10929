/**
 * B8 jobs (docs/performance.md): the kernel's job runner (BullMQ on Redis, as in
 * production) doing what a send job does: call a fake provider over HTTP,
 * then update one row. Jobs are queued first, then the workers start; the
 * figure is completed jobs per second, with the stalled-job count (a job
 * whose lock lapsed and ran again) that must stay zero.
 *   npm run bench -- jobs [--jobs 20000] [--concurrency 64]
 */
import http from 'node:http';
import { QueueEvents } from 'bullmq';
import pg from 'pg';
import pino from 'pino';
import { BullJobs } from '../src/jobs/bullmq.ts';
import { recreateDatabase, report } from './_bench-db.ts';

const arg = (k: string, d: number) => (process.argv.includes(`--${k}`) ? Number(process.argv[process.argv.indexOf(`--${k}`) + 1]) : d);
const JOBS = arg('jobs', 20_000);
const CONCURRENCY = arg('concurrency', 64);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `atende-bench-b8-${process.pid}`;

const url = await recreateDatabase('atende_bench_b8');
const pool = new pg.Pool({ connectionString: url, max: 16 });
await pool.query(`CREATE TABLE bench_sends (id integer PRIMARY KEY, state text NOT NULL DEFAULT 'pending', provider_id text, updated_at timestamptz)`);
await pool.query(`INSERT INTO bench_sends (id) SELECT generate_series(1, ${JOBS})`);

// The fake provider: answers each send with a provider id, like a messaging API.
let providerCalls = 0;
const provider = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    providerCalls++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id: `prov-${providerCalls}` }));
  });
});
// Longer than the client's idle time, so a kept-alive connection is never closed under a request in flight.
provider.keepAliveTimeout = 60_000;
await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
const providerUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}/send`;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const callProvider = (id: number) =>
  new Promise<string>((resolve, reject) => {
    const req = http.request(providerUrl, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(JSON.parse(body).id));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ id, text: 'Olá' }));
  });

const jobs = new BullJobs({ kind: 'redis', url: redisUrl, prefix }, pino({ level: 'warn' }));
let done = 0;
let finishedAt = 0;
jobs.define<{ id: number }>(
  'bench.send',
  async ({ id }) => {
    const providerId = await callProvider(id);
    await pool.query(`UPDATE bench_sends SET state = 'sent', provider_id = $2, updated_at = now() WHERE id = $1`, [id, providerId]);
    if (++done === JOBS) finishedAt = Date.now();
    return { providerId };
  },
  { concurrency: CONCURRENCY },
);

let stalled = 0;
const u = new URL(redisUrl);
const events = new QueueEvents('bench.send', { connection: { host: u.hostname, port: Number(u.port || 6379) }, prefix });
events.on('stalled', () => stalled++);
await events.waitUntilReady();

console.log(`queueing ${JOBS} jobs…`);
for (let i = 0; i < JOBS; i += 500) await Promise.all(Array.from({ length: Math.min(500, JOBS - i) }, (_, k) => jobs.enqueue('bench.send', { id: i + k + 1 }, { jobId: `b8-${i + k + 1}` })));
console.log(`running with concurrency ${CONCURRENCY}…`);
const start = Date.now();
jobs.start();
while (!finishedAt && Date.now() - start < 300_000) await new Promise((r) => setTimeout(r, 100));
const seconds = ((finishedAt || Date.now()) - start) / 1000;
const rate = done / seconds;
const sent = Number((await pool.query(`SELECT count(*) FROM bench_sends WHERE state = 'sent'`)).rows[0].count);

const ok = report([
  { name: 'B8 jobs/s (fake provider call + one row update)', value: rate, unit: 'jobs/s', target: '>= 1000', ok: rate >= 1000 },
  { name: 'B8 stalled jobs', value: stalled, unit: 'count', target: '0', ok: stalled === 0 },
  { name: 'B8 rows updated / jobs', value: sent, unit: 'count', target: `${JOBS}`, ok: sent === JOBS },
  { name: 'B8 provider calls', value: providerCalls, unit: 'count', target: `${JOBS}`, ok: providerCalls === JOBS },
]);
await jobs.close(5000);
await events.close();
provider.close();
agent.destroy();
const { Redis } = await import('ioredis');
const redis = new Redis(redisUrl);
const keys = await redis.keys(`${prefix}*`);
if (keys.length) await redis.del(...keys);
redis.disconnect();
await pool.end();
process.exit(ok ? 0 : 1);
