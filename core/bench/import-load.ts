/**
 * X1 item 2 (one upload must not stall every tenant): an 800k-row XLSX and a
 * 10 MiB CSV imported at once by one tenant, while a client polls
 * /api/health. Measures the server's RSS growth over its idle baseline and the
 * health check's p99 latency during the imports. The load generator runs in a
 * worker thread so its own work does not count as the server's.
 *   npm run bench -- import-load [--rows 800000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import pino from 'pino';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { hashPassword } from '../src/modules/identity/passwords.ts';
import { ensurePlatformTenant } from '../src/modules/identity/bootstrap.ts';
import { percentile, recreateDatabase, report } from './_bench-db.ts';

const arg = (name: string, dflt: number) => (process.argv.includes(`--${name}`) ? Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) : dflt);
const ROWS = arg('rows', 800_000);
const PASSWORD = 'Bench#Senha1';

/** The probe's file: 800k short rows under 10 MiB (a repeated name, so one shared string), cached across runs. */
async function xlsxFile(): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `atende-bench-import-${ROWS}.xlsx`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const ws = wb.addWorksheet('Plan1');
  ws.addRow(['Nome', 'Numero']).commit();
  for (let i = 0; i < ROWS; i++) ws.addRow(['Cliente', 5511900000000 + i]).commit();
  ws.commit();
  await wb.commit();
  const buf = Buffer.concat(chunks);
  fs.writeFileSync(file, buf);
  return buf;
}

function csvFile(): Buffer {
  const lines = ['Nome;Numero;Email'];
  let size = 0;
  for (let i = 0; size < 10 * 1024 * 1024 - 100; i++) {
    const line = `Contato ${i};55119${String(80000000 + i)};c${i}@x.co`;
    size += line.length + 1;
    lines.push(line);
  }
  return Buffer.from(lines.join('\n')).subarray(0, 10 * 1024 * 1024);
}

const xlsx = await xlsxFile();
const csv = csvFile();
const url = await recreateDatabase('atende_bench_import');
const app = await buildApp(
  { ...loadConfig({ ATENDE_RATE_LIMIT_TENANT: '10000000', ATENDE_RATE_LIMIT_IP: '10000000', ATENDE_LOG_LEVEL: 'silent', ATENDE_CAPTCHA: 'off' }), databaseUrl: url, redisUrl: process.env.REDIS_URL, namespace: `atende-bench-import-${process.pid}` },
  { logger: pino({ level: 'silent' }) },
);
await ensurePlatformTenant(app.kernel);
const pool = new pg.Pool({ connectionString: url, max: 2 });
await pool.query('UPDATE tenants SET terms_accepted_at = now() WHERE id = 1');
const tenant = (await pool.query<{ id: number }>(`INSERT INTO tenants (name, max_users, timezone) VALUES ('Bench', 10, 'America/Sao_Paulo') RETURNING id`).catch(() =>
  pool.query<{ id: number }>(`INSERT INTO tenants (name, max_users) VALUES ('Bench', 10) RETURNING id`),
)).rows[0].id;
await pool.query(`INSERT INTO users (tenant_id, name, email, password_hash, profile) VALUES ($1, 'Agente', 'agente@bench.test', $2, 'user')`, [tenant, await hashPassword(PASSWORD)]);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'agente@bench.test', password: PASSWORD }) })).json();
const auth = { authorization: `Bearer ${login.token}` };

const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false, lat = [];
parentPort.on('message', () => { stop = true; });
(async () => {
  while (!stop) {
    const s = performance.now();
    try { const r = await fetch(workerData.base + '/api/health'); await r.arrayBuffer(); lat.push(performance.now() - s); } catch { lat.push(60000); }
    await new Promise((r) => setTimeout(r, 20));
  }
  parentPort.postMessage(lat);
})();`;

/** The same polling with no import running: on a shared machine the figure during the imports means little without it. */
async function idleP99(ms: number): Promise<number> {
  const lat: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const s = performance.now();
    await (await fetch(`${base}/api/health`)).arrayBuffer();
    lat.push(performance.now() - s);
    await new Promise((r) => setTimeout(r, 20));
  }
  return percentile(lat, 99);
}
const idle = await idleP99(5000);

global.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const load = new Worker(LOAD, { eval: true, workerData: { base } });
const started = Date.now();

const upload = async (name: string, type: string, buf: Buffer) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(buf)], { type }), name);
  const r = await fetch(`${base}/api/contacts/import`, { method: 'POST', headers: auth, body: form });
  return { status: r.status, body: await r.json() };
};
const tUp0 = Date.now();
const jobs: { status: number; body: { jobId: string } }[] = await Promise.all([upload('grande.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xlsx), upload('grande.csv', 'text/csv', csv)]);
const tUp1 = Date.now();
let maxGap = 0, gapAt = 0, last = Date.now();
// The longest the server's event loop went without a turn while the jobs ran (GC pauses included).
const gapTimer = setInterval(() => { const n = Date.now(); if (n - last > maxGap) { maxGap = n - last; gapAt = n - tUp0; } last = n; }, 5);
const results: { status: string; error?: string; total: number }[] = [];
for (const j of jobs) {
  if (j.status !== 202) throw new Error(`upload refused: ${j.status} ${JSON.stringify(j.body)}`);
  for (;;) {
    const s = await (await fetch(`${base}/api/contacts/import/${j.body.jobId}`, { headers: auth })).json();
    if (s.status === 'finished' || s.status === 'failed') {
      results.push(s);
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
const lat = await new Promise<number[]>((resolve) => {
  load.once('message', resolve);
  load.postMessage('stop');
});
clearInterval(sampler);
clearInterval(gapTimer);
console.log(`uploads answered in ${tUp1 - tUp0} ms; longest event-loop gap while the jobs ran ${maxGap} ms (at +${gapAt} ms)`);
await load.terminate();
const growth = (peak - baseline) / 1024 / 1024;
const p99 = percentile(lat, 99);
console.log(
  `import-load: ${(xlsx.length / 1024 / 1024).toFixed(1)} MiB XLSX of ${ROWS} rows and ${(csv.length / 1024 / 1024).toFixed(1)} MiB CSV, uploads answered ${jobs.map((j) => j.status).join('/')}, ` +
    `imports ${results.map((r) => `${r.status}${r.error ? ` ${r.error}` : ''}`).join(' / ')} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${lat.length} health checks; health p99 with no import ${idle.toFixed(0)} ms; RSS ${(baseline / 1048576).toFixed(0)} → peak ${(peak / 1048576).toFixed(0)} MiB; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`,
);
const ok = report([
  { name: 'server RSS growth during the imports', value: growth, unit: 'MiB', target: '< 150', ok: growth < 150 },
  { name: '/api/health p99 during the imports', value: p99, unit: 'ms', target: '< 200', ok: p99 < 200 },
]);
await app.close();
await pool.end();
process.exit(ok ? 0 : 1);
