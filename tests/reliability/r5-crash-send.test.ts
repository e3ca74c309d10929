/**
 * R5 crash mid-send (docs/reliability.md): a 10,000-recipient bulk send through the
 * sandbox channel; the worker node sending it is killed with SIGKILL halfway
 * and started again. Every recipient reaches the provider exactly once (one
 * row per recipient in the sandbox's outbox, which records what it was
 * handed, keyed by the idempotency key) and every recipient ends `sent`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { bulkSendFor } from '../../core/src/modules/bulk/service.ts';
import { AtendeNode, namespaceFor, until } from '../multinode/cluster.ts';

const RECIPIENTS = 10_000;
const NS = namespaceFor('r5');
let t: TestApp;
let admin: TestUser;
let worker: AtendeNode;

beforeAll(async () => {
  t = await createTestApp({ workers: false, plugins: ['channel-sandbox'], config: { role: 'api', namespace: NS } });
  admin = await t.loginAs('admin');
  worker = new AtendeNode('r5-worker', { role: 'worker', databaseUrl: t.databaseUrl, redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', namespace: NS });
  await worker.start();
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

describe('R5 kill -9 during a 10k-recipient bulk send', () => {
  it('sends every recipient exactly once and all reach a final state after the restart', async () => {
    const ch = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'R5 massa' } });
    expect(ch.statusCode).toBe(201);
    const channelId = ch.json().id as number;
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ to: `5511${String(900000000 + i)}` }));
    const batch = await bulkSendFor(t.app.kernel, 'r5').start({ tenantId: admin.tenantId, channelId, recipients, message: { body: 'Oferta R5' }, pacing: { perSecond: 1000 } });
    expect(batch.total).toBe(RECIPIENTS);
    const count = async (sql: string) => (await t.sql.query<{ n: number }>(sql, [channelId])).rows[0].n;
    const sentByProvider = () => count(`SELECT count(*)::int AS n FROM channel_sandbox_outbox WHERE channel_id = $1`);

    // Killed while sending: some recipients done, most still to go.
    await until('a first share of the batch sent', async () => (await sentByProvider()) >= 300, 120_000, 50);
    await worker.kill('SIGKILL');
    const atKill = await sentByProvider();
    expect(atKill).toBeLessThan(RECIPIENTS);
    await worker.start();

    await until('batch finished after the restart', async () => (await t.sql.query(`SELECT status FROM bulk_batches WHERE id = $1`, [batch.id])).rows[0].status === 'done', 180_000, 500);
    const outbox = (await t.sql.query<{ n: number; keys: number; recipients: number; resent: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keys, count(DISTINCT recipient)::int AS recipients, count(*) FILTER (WHERE attempts > 1)::int AS resent FROM channel_sandbox_outbox WHERE channel_id = $1`,
      [channelId],
    )).rows[0];
    expect(outbox).toMatchObject({ n: RECIPIENTS, keys: RECIPIENTS, recipients: RECIPIENTS });
    // Only the round in flight at the kill (at most 50 recipients at this pace) may have been handed over twice; same key, so the provider kept one copy.
    expect(outbox.resent).toBeLessThanOrEqual(50);
    const states = (await t.sql.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM bulk_recipients WHERE batch_id = $1 GROUP BY state`, [batch.id])).rows;
    expect(states).toEqual([{ state: 'sent', n: RECIPIENTS }]);
    expect(await bulkSendFor(t.app.kernel, 'r5').status(admin.tenantId, batch.id)).toMatchObject({ status: 'done', sent: RECIPIENTS, failed: 0, pending: 0 });
  }, 360_000);
});
