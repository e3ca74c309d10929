/**
 * B2 (ticket list at 1M tickets) and B3 (long ticket), against the data set
 * of `seed-tickets.ts` (database `atende_bench`; seeded when missing).
 * Server time is measured with `app.inject`, which runs routing, auth,
 * validation, the queries and serialisation without the network.
 *   npm run bench -- tickets [--runs 200]
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import pino from 'pino';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openSession } from '../src/modules/identity/sessions.ts';
import { benchDbUrl, databaseExists, percentile, report } from './_bench-db.ts';

const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 200;
if (!(await databaseExists('atende_bench'))) {
  console.log('seeding atende_bench (1M tickets, 10M messages) — this takes several minutes…');
  execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'seed-tickets.ts')], { stdio: 'inherit' });
}
const url = benchDbUrl('atende_bench');
const app = await buildApp({ ...loadConfig({ ATENDE_RATE_LIMIT_TENANT: '10000000', ATENDE_RATE_LIMIT_IP: '10000000', ATENDE_LOG_LEVEL: 'silent' }), databaseUrl: url, redisUrl: process.env.REDIS_URL, namespace: 'atende-bench' }, { logger: pino({ level: 'silent' }), workers: false });
const pool = new pg.Pool({ connectionString: url, max: 2 });
const login = async (profile: string) => {
  const u = (await pool.query(`SELECT id, tenant_id, profile FROM users WHERE tenant_id = 2 AND profile = $1 ORDER BY id LIMIT 1`, [profile])).rows[0];
  return (await openSession(app, { id: u.id, tenantId: u.tenant_id, profile: u.profile, tokenVersion: 0 })).token;
};
const admin = await login('admin');
const agent = (await pool.query(`SELECT id FROM users WHERE tenant_id = 2 AND profile = 'user' AND queues <> '[]' ORDER BY id LIMIT 1`)).rows[0];
const agentToken = (await openSession(app, { id: agent.id, tenantId: 2, profile: 'user', tokenVersion: 0 })).token;

async function time(url: string, token: string): Promise<{ ms: number; bytes: number; body: any }> {
  const s = process.hrtime.bigint();
  const r = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const ms = Number(process.hrtime.bigint() - s) / 1e6;
  if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
  return { ms, bytes: r.rawPayload.length, body: r.json() };
}

async function p95(url: string, token: string) {
  for (let i = 0; i < 20; i++) await time(url, token);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push((await time(url, token)).ms);
  return percentile(xs, 95);
}

// Query count per page: the list is a fixed number of statements whatever the page size.
let queries = 0;
const orig = app.kernel.db.pool.query.bind(app.kernel.db.pool);
(app.kernel.db.pool as unknown as { query: typeof orig }).query = ((...a: Parameters<typeof orig>) => {
  queries++;
  return orig(...a);
}) as typeof orig;

await time('/api/tickets?showAll=true', admin);
const q0 = queries;
await time('/api/tickets?showAll=true', admin);
const perPage = queries - q0;

const page1 = await p95('/api/tickets?showAll=true', admin);
const byQueue = await p95('/api/tickets?showAll=true&queuesIds=2', admin);
const byUser = await p95(`/api/tickets?showAll=true&selectedUser=${agent.id}&status=open,pending,closed`, admin);
const agentView = await p95('/api/tickets', agentToken);
const closed = await p95('/api/tickets?showAll=true&status=closed', admin);
// Keyset page 1,000 deep (50,000 rows in): the cursor of row 50,000 of the closed list.
const deepRow = (await pool.query(`SELECT last_message_at, id FROM tickets WHERE tenant_id = 2 AND status = 'closed' ORDER BY last_message_at DESC, id DESC OFFSET 49999 LIMIT 1`)).rows[0];
const cursor = Buffer.from(`${deepRow.last_message_at.toISOString()}|${deepRow.id}`).toString('base64url');
const deep = await p95(`/api/tickets?showAll=true&status=closed&cursor=${cursor}`, admin);

// B3: latest 50 of the 50k-message ticket, then scrolling back.
const latest = await time('/api/messages/2', admin);
const b3First = await p95('/api/messages/2', admin);
let before = latest.body.messages[0].id as string;
const scroll: number[] = [];
let maxBytes = latest.bytes;
for (let i = 0; i < runs; i++) {
  const r = await time(`/api/messages/2?before=${before}`, admin);
  scroll.push(r.ms);
  maxBytes = Math.max(maxBytes, r.bytes);
  before = r.body.messages[0]?.id ?? before;
}
const b3Scroll = percentile(scroll, 95);

const ok = report([
  { name: 'B2 first page (open+pending, showAll)', value: page1, unit: 'ms p95', target: '< 15', ok: page1 < 15 },
  { name: 'B2 queue filter', value: byQueue, unit: 'ms p95', target: '< 15', ok: byQueue < 15 },
  { name: 'B2 user filter, all statuses', value: byUser, unit: 'ms p95', target: '< 15', ok: byUser < 15 },
  { name: 'B2 agent view (queue-restricted)', value: agentView, unit: 'ms p95', target: '< 15', ok: agentView < 15 },
  { name: 'B2 closed tab', value: closed, unit: 'ms p95', target: '< 15', ok: closed < 15 },
  { name: 'B2 keyset page 1,000 deep / closed page 1', value: deep / closed, unit: 'x', target: '<= 1.2', ok: deep <= closed * 1.2 || deep < 15 },
  { name: 'B2 queries per page', value: perPage, unit: 'stmts', target: 'fixed (2 + auth 1)', ok: perPage <= 3 },
  { name: 'B3 latest 50 of 50k messages', value: b3First, unit: 'ms p95', target: '< 20', ok: b3First < 20 },
  { name: 'B3 scroll back', value: b3Scroll, unit: 'ms p95', target: '< 20', ok: b3Scroll < 20 },
  { name: 'B3 largest page payload', value: maxBytes / 1024, unit: 'KB', target: '< 200', ok: maxBytes < 200 * 1024 },
]);
await pool.end();
await app.close();
process.exit(ok ? 0 : 1);
