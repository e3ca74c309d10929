/**
 * B6 mass send (docs/performance.md): 100k recipients through the kernel's bulk-send
 * job and the sandbox channel (the fake provider), spread over 20 numbers
 * paced at 50/s each, while customer messages arrive at 100 msg/s.
 * Figures: time to store and schedule every batch; pace per number (gap
 * between consecutive provider calls on one number, never under the gap);
 * duplicates at the provider; webhook ack p99 with the send running against
 * the same load without it.
 *   npm run bench -- mass-send [--recipients 100000] [--numbers 20] [--rate 50] [--ingest 100]
 */
import { fork } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { recreateDatabase, percentile, report } from './_bench-db.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { bulkSendFor } from '../src/modules/bulk/service.ts';

const arg = (k: string, d: number) => (process.argv.includes(`--${k}`) ? Number(process.argv[process.argv.indexOf(`--${k}`) + 1]) : d);
const RECIPIENTS = arg('recipients', 100_000);
const NUMBERS = arg('numbers', 20);
const RATE = arg('rate', 50);
const INGEST = arg('ingest', 100);
const BASELINE_S = arg('baseline', 10);
const MAX_S = arg('max-seconds', 900);
const namespace = `atende-bench-b6-${process.pid}`;

const url = await recreateDatabase('atende_bench_b6');
const pool = new pg.Pool({ connectionString: url, max: 4 });
await pool.query(`INSERT INTO tenants (id, name, max_users, max_connections, terms_accepted_at) VALUES (1, 'Plataforma', 10, 10, now()), (2, 'Loja', 100, 100, now())`);
await pool.query(`SELECT setval('tenants_id_seq', 2)`);
const inbox = (await pool.query<{ id: number }>(`INSERT INTO channels (tenant_id, type, name, status, secrets) VALUES (2, 'sandbox', 'Atendimento', 'connected', '{"webhookSecret":"segredo-b6"}') RETURNING id`)).rows[0].id;
const numbers = (await pool.query<{ id: number }>(`INSERT INTO channels (tenant_id, type, name, status, secrets) SELECT 2, 'sandbox', 'Número ' || g, 'connected', '{"webhookSecret":"x"}' FROM generate_series(1, ${NUMBERS}) g RETURNING id`)).rows.map((r) => r.id);

const dataDir = fs.mkdtempSync('/tmp/atende-b6-');
const child = fork(path.join(import.meta.dirname, '_server.ts'), [], {
  execArgv: ['--import', 'tsx', ...(process.env.ATENDE_BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.ATENDE_BENCH_PROF] : [])],
  env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', ATENDE_DATA_DIR: dataDir, ATENDE_NAMESPACE: namespace, ATENDE_ADMIN_EMAIL: 'root@bench.local', ATENDE_ADMIN_PASSWORD: 'Bench#2026x' },
});
const base = await new Promise<string>((resolve) => child.on('message', (m: { url: string }) => resolve(m.url)));
// The caller of the bulk-send service (as a campaign plugin would be), on the server's queues; it runs no workers.
const caller = await buildApp({ ...loadConfig({ ATENDE_RATE_LIMIT_TENANT: '10000000', ATENDE_RATE_LIMIT_IP: '10000000', ATENDE_LOG_LEVEL: 'silent' }), databaseUrl: url, redisUrl: process.env.REDIS_URL, namespace, role: 'api', plugins: ['channel-sandbox'] }, { logger: pino({ level: 'silent' }), workers: false, migrate: false });
const bulk = bulkSendFor(caller.kernel, 'bench');

/** Customer messages at a steady rate; returns each webhook's ack time. */
async function ingest(seconds: number, stop?: () => boolean) {
  const acks: number[] = [];
  let bad = 0;
  const inflight: Promise<void>[] = [];
  const start = Date.now();
  for (let i = 0; i < INGEST * seconds && !stop?.(); i++) {
    const wait = start + (i * 1000) / INGEST - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const body = JSON.stringify({ id: randomUUID(), from: { id: `c${i % 1000}`, name: 'Cliente' }, body: 'Olá' });
    const sig = `sha256=${createHmac('sha256', 'segredo-b6').update(body).digest('hex')}`;
    const t0 = performance.now();
    inflight.push(
      fetch(`${base}/api/plugins/channel-sandbox/webhook/${inbox}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-signature': sig }, body }).then(
        async (r) => {
          await r.text();
          acks.push(performance.now() - t0);
          if (r.status !== 200) bad++;
        },
        () => void bad++,
      ),
    );
  }
  await Promise.all(inflight);
  return { acks, bad };
}

// Unmeasured warm-up: the first requests of a fresh server pay for JIT compilation, lazy module loads
// and new pool connections; on a slow machine they alone set the baseline's p99 (600 ms against 15).
console.log('warm-up: 3 s of ingest, not measured…');
await ingest(3);
console.log(`baseline: ${INGEST} msg/s for ${BASELINE_S} s without the mass send…`);
const baseline = await ingest(BASELINE_S);

const perNumber = Math.ceil(RECIPIENTS / NUMBERS);
const lists = numbers.map((_, n) => Array.from({ length: Math.min(perNumber, RECIPIENTS - n * perNumber) }, (_, i) => ({ to: `55${String(11_900_000_000 + n * perNumber + i)}`, name: `Cliente ${i}` })));
console.log(`scheduling ${RECIPIENTS} recipients on ${NUMBERS} numbers at ${RATE}/s each…`);
const t0 = Date.now();
const batches = await Promise.all(numbers.map((channelId, n) => bulk.start({ tenantId: 2, channelId, recipients: lists[n], message: { body: 'Black Friday: 30% de desconto hoje' }, pacing: { perSecond: RATE } })));
const scheduledS = (Date.now() - t0) / 1000;
console.log(`scheduled in ${scheduledS.toFixed(2)} s; sending with ingest at ${INGEST} msg/s…`);

let finished = false;
const during = ingest(MAX_S, () => finished);
const sendStart = Date.now();
let lastLog = 0;
while (!finished && Date.now() - sendStart < MAX_S * 1000) {
  await new Promise((r) => setTimeout(r, 1000));
  const r = (await pool.query<{ sent: number; failed: number; running: number }>(`SELECT sum(sent)::int AS sent, sum(failed)::int AS failed, count(*) FILTER (WHERE status = 'running')::int AS running FROM bulk_batches WHERE source = 'bench'`)).rows[0];
  if (Date.now() - lastLog > 10_000) {
    lastLog = Date.now();
    console.log(`  ${r.sent + r.failed}/${RECIPIENTS} after ${((Date.now() - sendStart) / 1000).toFixed(0)} s`);
  }
  finished = r.running === 0;
}
const sendS = (Date.now() - sendStart) / 1000;
const withSend = await during;

const dup = (await pool.query<{ rows: number; distinct_recipients: number; resent: number }>(
  `SELECT count(*)::int AS rows, count(DISTINCT (channel_id, recipient))::int AS distinct_recipients, count(*) FILTER (WHERE attempts > 1)::int AS resent FROM channel_sandbox_outbox WHERE channel_id = ANY($1::int[])`,
  [numbers],
)).rows[0];
const sentRows = Number((await pool.query(`SELECT count(*) FROM bulk_recipients WHERE state = 'sent'`)).rows[0].count);
// Pace per number: gaps between consecutive provider-call starts on the same channel.
const pace = (await pool.query<{ min_gap: number; mean_rate: number }>(
  `SELECT min(gap)::float8 AS min_gap, max(rate)::float8 AS mean_rate FROM (
     SELECT b.channel_id, extract(epoch FROM r.started_at - lag(r.started_at) OVER (PARTITION BY b.channel_id ORDER BY r.started_at)) * 1000 AS gap,
            (count(*) OVER (PARTITION BY b.channel_id) - 1) / NULLIF(extract(epoch FROM max(r.started_at) OVER (PARTITION BY b.channel_id) - min(r.started_at) OVER (PARTITION BY b.channel_id)), 0) AS rate
       FROM bulk_recipients r JOIN bulk_batches b ON b.id = r.batch_id WHERE b.source = 'bench' AND r.state = 'sent') g`,
)).rows[0];
const gapMs = Math.round(1000 / RATE);
const p99Base = percentile(baseline.acks, 99);
const p99With = percentile(withSend.acks, 99);
const degrade = (100 * (p99With - p99Base)) / p99Base;

const ok = report([
  { name: `B6 scheduled (${RECIPIENTS} recipients stored, pumps queued)`, value: scheduledS, unit: 's', target: '< 5', ok: scheduledS < 5 },
  { name: 'B6 recipients sent', value: sentRows, unit: 'count', target: `${RECIPIENTS}`, ok: sentRows === RECIPIENTS },
  { name: 'B6 duplicates at the provider', value: dup.rows - dup.distinct_recipients, unit: 'count', target: '0', ok: dup.rows === dup.distinct_recipients && dup.rows === RECIPIENTS },
  { name: 'B6 recipients handed over twice (same key)', value: dup.resent, unit: 'count', target: '0', ok: dup.resent === 0 },
  { name: `B6 min gap between calls on one number (pace ${gapMs} ms)`, value: pace.min_gap, unit: 'ms', target: `>= ${gapMs - 1}`, ok: pace.min_gap >= gapMs - 1 },
  { name: 'B6 fastest number mean rate', value: pace.mean_rate, unit: '/s', target: `<= ${RATE}`, ok: pace.mean_rate <= RATE * 1.001 },
  { name: 'B6 total send time', value: sendS, unit: 's', target: `(≈ ${(perNumber / RATE).toFixed(0)} at pace)`, ok: true },
  { name: 'B6 webhook ack p99 without the send', value: p99Base, unit: 'ms', target: '(baseline)', ok: true },
  { name: 'B6 webhook ack p99 during the send', value: p99With, unit: 'ms', target: `<= ${(p99Base * 1.2).toFixed(1)}`, ok: degrade <= 20 },
  { name: 'B6 ingest non-2xx', value: baseline.bad + withSend.bad, unit: 'count', target: '0', ok: baseline.bad + withSend.bad === 0 },
]);
console.log(`batches: ${batches.length}; ingest during send: ${withSend.acks.length} messages`);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await caller.close();
await pool.end();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
