import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ingestInbound } from '../src/modules/conversations/ingest.ts';
import { benchDbUrl } from './_bench-db.ts';

const app = await buildApp({ ...loadConfig({ ATENDE_LOG_LEVEL: 'silent' }), databaseUrl: benchDbUrl('atende_bench_b1'), redisUrl: process.env.REDIS_URL, namespace: 'probe' }, { logger: pino({ level: 'silent' }), workers: false, migrate: false });
const k = app.kernel;
const orig = k.db.pool.query.bind(k.db.pool);
const times = new Map<string, number[]>();
(k.db.pool as any).query = async (...a: any[]) => { const s = performance.now(); try { return await (orig as any)(...a); } finally { const key = String(a[0]).slice(0, 50).replace(/\s+/g, ' '); (times.get(key) ?? times.set(key, []).get(key)!).push(performance.now() - s); } };
const N = 200;
const s = performance.now();
for (let i = 0; i < N; i++) {
  await ingestInbound(k, { tenantId: 2, channelId: 1, providerMessageId: `probe-${Date.now()}-${i}`, from: { kind: 'sandbox', externalId: `pc${i % 50}`, name: 'X' }, body: 'oi' });
}
console.log('per ingest ms', ((performance.now() - s) / N).toFixed(2));
for (const [k2, v] of times) console.log(k2.padEnd(52), v.length, (v.reduce((a, b) => a + b, 0) / v.length).toFixed(2));
await app.close();
