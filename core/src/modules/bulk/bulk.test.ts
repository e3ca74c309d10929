import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../testing/index.ts';
import { bulkSendFor } from './service.ts';
import type { BulkSendPort } from '../../sdk/types.ts';

let t: TestApp;
let admin: TestUser;
let other: TestUser;
let bulk: BulkSendPort;

const sandbox = async (who: TestUser, name: string, config: Record<string, unknown> = {}) => {
  const r = await t.app.inject({ method: 'POST', url: '/api/channels', headers: who.headers, payload: { type: 'sandbox', name, config } });
  expect(r.statusCode).toBe(201);
  return r.json().id as number;
};
const outbox = async (channelId: number) =>
  (await t.sql.query<{ idempotency_key: string; recipient: string; body: string; attempts: number; at: number }>(`SELECT idempotency_key, recipient, body, attempts, extract(epoch FROM created_at) * 1000 AS at FROM channel_sandbox_outbox WHERE channel_id = $1 ORDER BY id`, [channelId])).rows;

beforeAll(async () => {
  t = await createTestApp({ plugins: ['channel-sandbox'] });
  admin = await t.loginAs('admin');
  other = await t.loginAs('admin');
  bulk = bulkSendFor(t.app.kernel, 'campaigns');
});
afterAll(async () => t?.close());

describe('paced bulk send', () => {
  it('stores the batch and one ledger row per recipient, sends each exactly once at the pace and reports progress live', async () => {
    const channelId = await sandbox(admin, 'Envio em massa');
    const socket = await t.openSocket(admin.token);
    await socket.next((f) => f.event === 'hello');
    const recipients = Array.from({ length: 12 }, (_, i) => ({ to: `55119000000${String(i).padStart(2, '0')}`, name: `Cliente ${i}` }));
    const started = await bulk.start({ tenantId: admin.tenantId, channelId, recipients: [...recipients, recipients[0]], message: { body: 'Promoção de novembro' }, pacing: { perSecond: 20 }, reference: 'camp-1' });
    expect(started).toMatchObject({ total: 12, status: 'running', reference: 'camp-1', channelId });
    const done = await until(async () => {
      const s = await bulk.status(admin.tenantId, started.id);
      return s?.status === 'done' ? s : undefined;
    });
    expect(done).toMatchObject({ total: 12, sent: 12, failed: 0, pending: 0 });
    const sent = await outbox(channelId);
    expect(sent.map((s) => s.recipient).sort()).toEqual(recipients.map((r) => r.to).sort());
    expect(new Set(sent.map((s) => s.idempotency_key)).size).toBe(12);
    expect(sent.every((s) => s.body === 'Promoção de novembro' && s.attempts === 1)).toBe(true);
    // 20 per second on one number: consecutive provider calls start at least 50 ms apart (timer precision aside)…
    const starts = (await t.sql.query<{ at: number }>(`SELECT extract(epoch FROM started_at) * 1000 AS at FROM bulk_recipients WHERE batch_id = $1 ORDER BY started_at`, [started.id])).rows.map((r) => Number(r.at));
    const gaps = starts.slice(1).map((at, i) => at - starts[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(49);
    // …and the provider saw them arrive no faster than the pace on average.
    expect((sent[sent.length - 1].at - sent[0].at) / (sent.length - 1)).toBeGreaterThanOrEqual(45);
    const rows = await bulk.recipients(admin.tenantId, started.id, { limit: 100 });
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.state === 'sent' && r.providerId && r.attempts === 1)).toBe(true);
    const finished = await socket.next((f) => f.event === 'bulk.finished' && f.data.batch.id === started.id);
    expect(finished.data.batch).toMatchObject({ sent: 12, status: 'done' });
    expect(socket.frames.some((f) => f.event === 'bulk.progress' && f.data.batch.id === started.id)).toBe(true);
    await socket.close();
  });

  it('uses each recipient’s own text and fails recipients the provider refuses, as a final state', async () => {
    const channelId = await sandbox(admin, 'Textos próprios', { failWhenBodyContains: 'RECUSAR' });
    const s = await bulk.start({
      tenantId: admin.tenantId,
      channelId,
      recipients: [
        { to: '5511911110001', body: 'Olá Ana, feliz aniversário!' },
        { to: '5511911110002', body: 'RECUSAR este' },
      ],
      pacing: { minSeconds: 0, maxSeconds: 0 },
    });
    const done = await until(async () => ((await bulk.status(admin.tenantId, s.id))?.status === 'done' ? bulk.status(admin.tenantId, s.id) : undefined));
    expect(done).toMatchObject({ sent: 1, failed: 1 });
    const failed = await bulk.recipients(admin.tenantId, s.id, { state: 'failed' });
    expect(failed).toMatchObject([{ to: '5511911110002', state: 'failed', error: 'O provedor simulado recusou a mensagem' }]);
    expect((await outbox(channelId)).map((o) => o.body)).toEqual(['Olá Ana, feliz aniversário!']);
  });

  it('cancels: recipients not yet handed to the provider end cancelled and are never sent', async () => {
    const channelId = await sandbox(admin, 'Cancelar');
    const s = await bulk.start({ tenantId: admin.tenantId, channelId, recipients: ['5511922220001', '5511922220002', '5511922220003'].map((to) => ({ to })), message: { body: 'Lento' }, pacing: { minSeconds: 30, maxSeconds: 30 } });
    await until(async () => (await outbox(channelId)).length === 1);
    expect(await bulk.cancel(admin.tenantId, s.id)).toBe(true);
    expect(await bulk.cancel(admin.tenantId, s.id)).toBe(false);
    expect(await bulk.status(admin.tenantId, s.id)).toMatchObject({ status: 'cancelled', sent: 1, cancelled: 2, pending: 0 });
    expect(await outbox(channelId)).toHaveLength(1);
  });

  it('resumes after a node died mid-send: the row left `sending` is sent again with the same key and the provider keeps one copy', async () => {
    const channelId = await sandbox(admin, 'Retomada');
    const s = await bulk.start({ tenantId: admin.tenantId, channelId, recipients: ['5511933330001', '5511933330002', '5511933330003'].map((to) => ({ to })), message: { body: 'Retomar' }, pacing: { minSeconds: 3600, maxSeconds: 3600 } });
    await until(async () => (await outbox(channelId)).length === 1);
    await until(async () => ((await t.sql.query(`SELECT owner FROM bulk_pacers WHERE channel_id = $1`, [channelId])).rows[0]?.owner === null ? true : undefined));
    // What a node killed during the provider call leaves behind: the second recipient `sending`, the provider holding it, the lease still its own.
    const second = (await t.sql.query<{ id: string }>(`UPDATE bulk_recipients SET state = 'sending', attempts = 1 WHERE batch_id = $1 AND recipient = '5511933330002' RETURNING id`, [s.id])).rows[0];
    await t.sql.query(
      `INSERT INTO channel_sandbox_outbox (tenant_id, channel_id, idempotency_key, provider_id, recipient, body, type) VALUES ($1, $2, $3, 'sbx-out-dead', '5511933330002', 'Retomar', 'chat')`,
      [admin.tenantId, channelId, `bulk-${s.id}-${second.id}`],
    );
    await t.sql.query(`UPDATE bulk_pacers SET owner = 'node-morto', lease_until = now() + interval '1 second', next_at = now() WHERE channel_id = $1`, [channelId]);
    const resumed = await until(async () => {
      const r = await bulk.recipients(admin.tenantId, s.id, { state: 'sent' });
      return r.length === 2 ? r : undefined;
    }, 20_000);
    expect(resumed.map((r) => r.to)).toEqual(['5511933330001', '5511933330002']);
    const rows = await outbox(channelId);
    expect(rows.filter((r) => r.recipient === '5511933330002')).toMatchObject([{ attempts: 2 }]);
    expect(await bulk.status(admin.tenantId, s.id)).toMatchObject({ sent: 2, pending: 1, status: 'running' });
    await bulk.cancel(admin.tenantId, s.id);
  });

  it('refuses another tenant’s channel, an empty list and a bad pacing; a batch is visible only to its tenant and its source', async () => {
    const mine = await sandbox(admin, 'Meu canal');
    await expect(bulk.start({ tenantId: other.tenantId, channelId: mine, recipients: [{ to: '5511900000000' }], message: { body: 'x' }, pacing: { perSecond: 1 } })).rejects.toMatchObject({ code: 'ERR_NO_WAPP_FOUND' });
    await expect(bulk.start({ tenantId: admin.tenantId, channelId: mine, recipients: [], message: { body: 'x' }, pacing: { perSecond: 1 } })).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    await expect(bulk.start({ tenantId: admin.tenantId, channelId: mine, recipients: [{ to: '5511900000000' }], message: { body: 'x' }, pacing: { minSeconds: 10, maxSeconds: 5 } })).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    const s = await bulk.start({ tenantId: admin.tenantId, channelId: mine, recipients: [{ to: '5511900000000' }], message: { body: 'x' }, pacing: { perSecond: 1 } });
    expect(await bulk.status(other.tenantId, s.id)).toBeUndefined();
    expect(await bulk.recipients(other.tenantId, s.id)).toEqual([]);
    expect(await bulk.cancel(other.tenantId, s.id)).toBe(false);
    expect(await bulkSendFor(t.app.kernel, 'birthdays').status(admin.tenantId, s.id)).toBeUndefined();
  });
});
