/**
 * B1 ingest: signed sandbox webhooks from 100 tenants through dedup, contact
 * and ticket upsert, message row and the event to a subscribed agent socket.
 *   npm run bench -- ingest [--seconds 20] [--connections 32]
 * Phase 1 pushes as fast as it can (throughput, ack p99); phase 2 holds
 * 500 msg/s and measures webhook → agent socket latency (see _ingest-harness.ts).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { runIngestBench } from './_ingest-harness.ts';

const PATH_PREFIX = process.argv.includes('--path') ? process.argv[process.argv.indexOf('--path') + 1] : 'sandbox';

const ok = await runIngestBench({
  label: 'B1',
  database: 'atende_bench_b1',
  channelType: 'sandbox',
  secretsSql: `jsonb_build_object('webhookSecret', 'segredo-' || g)`,
  request: (ch) => {
    const contact = Math.floor(Math.random() * 2000);
    const body = JSON.stringify({ id: randomUUID(), from: { id: `c${contact}`, name: `Cliente ${contact}` }, body: `Olá t=${Date.now()}` });
    const sig = `sha256=${createHmac('sha256', `segredo-${ch.tenant_id}`).update(body).digest('hex')}`;
    return { path: `/api/plugins/channel-${PATH_PREFIX}/webhook/${ch.id}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': sig }, body };
  },
});
process.exit(ok ? 0 : 1);
