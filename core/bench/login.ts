/**
 * B7 login (docs/performance.md): logins per second through the real HTTP route with
 * argon2id at OWASP parameters (19 MiB, t=2, p=1, hashed on libuv's thread
 * pool, off the event loop), and the server's event-loop lag meanwhile.
 * The load generator runs in a worker thread so its own work does not count
 * as the server's lag. The captcha is off (it is not what is measured).
 *   npm run bench -- login [--seconds 15] [--concurrency 8] [--users 20]
 */
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { hashPassword } from '../src/modules/identity/passwords.ts';
import { ensurePlatformTenant } from '../src/modules/identity/bootstrap.ts';
import { recreateDatabase, report } from './_bench-db.ts';

const arg = (name: string, dflt: number) => (process.argv.includes(`--${name}`) ? Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) : dflt);
const seconds = arg('seconds', 15);
const concurrency = arg('concurrency', 8);
const userCount = arg('users', 20);
const PASSWORD = 'Bench#Senha1';

const url = await recreateDatabase('atende_bench_login');
const app = await buildApp(
  { ...loadConfig({ ATENDE_RATE_LIMIT_TENANT: '10000000', ATENDE_RATE_LIMIT_IP: '10000000', ATENDE_LOG_LEVEL: 'silent', ATENDE_CAPTCHA: 'off' }), databaseUrl: url, redisUrl: process.env.REDIS_URL, namespace: `atende-bench-login-${process.pid}` },
  { logger: pino({ level: 'silent' }), workers: false },
);
await ensurePlatformTenant(app.kernel);
const pool = new pg.Pool({ connectionString: url, max: 2 });
await pool.query('UPDATE tenants SET terms_accepted_at = now() WHERE id = 1');
const tenant = (await pool.query<{ id: number }>(`INSERT INTO tenants (name, max_users) VALUES ('Bench', 1000) RETURNING id`)).rows[0].id;
const hash = await hashPassword(PASSWORD);
const emails: string[] = [];
for (let i = 0; i < userCount; i++) {
  const email = `agente${i}@bench.test`;
  emails.push(email);
  await pool.query(`INSERT INTO users (tenant_id, name, email, password_hash, profile) VALUES ($1, $2, $3, $4, 'user')`, [tenant, `Agente ${i}`, email, hash]);
}
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, emails, password, concurrency, warmupMs, seconds } = workerData;
let ok = 0, failed = 0, measuring = false, i = 0;
const lat = [];
async function loop(end) {
  while (Date.now() < end) {
    const email = emails[i++ % emails.length];
    const s = performance.now();
    try {
      const r = await fetch(base + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      await r.arrayBuffer();
      if (measuring) { if (r.status === 200) { ok++; lat.push(performance.now() - s); } else failed++; }
    } catch { if (measuring) failed++; }
  }
}
(async () => {
  const end = Date.now() + warmupMs + seconds * 1000;
  setTimeout(() => { measuring = true; parentPort.postMessage({ phase: 'measuring' }); }, warmupMs);
  await Promise.all(Array.from({ length: concurrency }, () => loop(end)));
  parentPort.postMessage({ phase: 'done', ok, failed, lat });
})();`;

// Node's histogram records the time between its samples, so an idle loop reads about
// the resolution itself; the lag is what exceeds it.
const RESOLUTION_MS = 10;
const lag = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
const result = await new Promise<{ ok: number; failed: number; lat: number[] }>((resolve, reject) => {
  const w = new Worker(LOAD, { eval: true, workerData: { base, emails, password: PASSWORD, concurrency, warmupMs: 2000, seconds } });
  w.on('message', (m: { phase: string; ok: number; failed: number; lat: number[] }) => {
    if (m.phase === 'measuring') lag.enable();
    else {
      lag.disable();
      resolve(m);
      void w.terminate();
    }
  });
  w.on('error', reject);
});

const rate = result.ok / seconds;
const sorted = [...result.lat].sort((a, b) => a - b);
const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
const lagP99 = Math.max(0, lag.percentile(99) / 1e6 - RESOLUTION_MS);
const lagMean = Math.max(0, lag.mean / 1e6 - RESOLUTION_MS);
console.log(`B7 login: ${result.ok} logins in ${seconds} s, ${concurrency} concurrent clients, ${userCount} accounts, ${result.failed} failed; UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`);
console.log(`login latency p95 ${p95.toFixed(1)} ms; event-loop lag mean ${lagMean.toFixed(2)} ms, p99 ${lagP99.toFixed(2)} ms, max ${Math.max(0, lag.max / 1e6 - RESOLUTION_MS).toFixed(2)} ms (beyond the ${RESOLUTION_MS} ms sampling interval); load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const ok = report([
  { name: 'logins per second (argon2id 19 MiB, t=2, p=1)', value: rate, unit: '/s', target: '>= 60', ok: rate >= 60 },
  { name: 'event-loop lag p99 during the run', value: lagP99, unit: 'ms', target: '< 20', ok: lagP99 < 20 },
  { name: 'failed logins', value: result.failed, unit: '', target: '= 0', ok: result.failed === 0 },
]);
await app.close();
await pool.end();
process.exit(ok ? 0 : 1);
