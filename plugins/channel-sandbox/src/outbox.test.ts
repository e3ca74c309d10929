import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelAdapter, ChannelRecord, OutboundMessage } from '@atende/core/sdk';
import { createTestApp, type TestApp } from '@atende/core/testing';

/**
 * The simulated provider records sends that arrive together in one INSERT;
 * what a sender sees must not change: each message recorded once under its
 * key, a retried key answered with the first provider id and counted as one
 * more attempt, even when the retry shares the group with the first call.
 */
let t: TestApp;
let channel: ChannelRecord;
let adapter: ChannelAdapter;

const msg = (key: string, to: string, body = 'Olá'): OutboundMessage => ({ messageId: key, to: { kind: 'sandbox', externalId: to, number: to, isGroup: false }, type: 'chat', body });

beforeAll(async () => {
  t = await createTestApp({ plugins: ['channel-sandbox'] });
  const admin = await t.loginAs('admin');
  const res = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Sandbox lote' } });
  expect(res.statusCode).toBe(201);
  const id = res.json().id as number;
  channel = { id, tenantId: admin.tenantId, type: 'sandbox', name: 'Sandbox lote', number: null, status: 'connected', config: {}, secrets: {} };
  adapter = (t.app as unknown as { kernel: { channelAdapters: Map<string, ChannelAdapter> } }).kernel.channelAdapters.get('sandbox')!;
});

afterAll(async () => {
  await t?.close();
});

describe('sandbox outbox', () => {
  it('records a burst of sends once each, a key repeated inside the burst counting its attempts', async () => {
    const calls = [
      ...Array.from({ length: 30 }, (_, i) => adapter.send(channel, msg(`k-${i}`, `5511900000${String(i).padStart(3, '0')}`, `mensagem ${i}`))),
      adapter.send(channel, msg('k-7', '5511900000007', 'mensagem 7')),
      adapter.send(channel, msg('k-7', '5511900000007', 'mensagem 7')),
    ];
    const results = await Promise.all(calls);
    const rows = (await t.sql.query(`SELECT idempotency_key, provider_id, recipient, body, attempts FROM channel_sandbox_outbox WHERE channel_id = $1 ORDER BY id`, [channel.id])).rows;
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.idempotency_key)).size).toBe(30);
    const seven = rows.find((r) => r.idempotency_key === 'k-7')!;
    expect(seven.attempts).toBe(3);
    expect(seven.body).toBe('mensagem 7');
    // Every call for the repeated key got the provider id that was recorded.
    expect([results[7], results[30], results[31]].map((r) => r.providerId)).toEqual([seven.provider_id, seven.provider_id, seven.provider_id]);
    expect(rows.find((r) => r.idempotency_key === 'k-12')!.recipient).toBe('5511900000012');
  });

  it('answers a later retry with the first provider id and one more attempt', async () => {
    const again = await adapter.send(channel, msg('k-3', '5511900000003', 'mensagem 3'));
    const row = (await t.sql.query(`SELECT provider_id, attempts FROM channel_sandbox_outbox WHERE channel_id = $1 AND idempotency_key = 'k-3'`, [channel.id])).rows[0];
    expect(again.providerId).toBe(row.provider_id);
    expect(row.attempts).toBe(2);
  });

  it('keeps buttons as sent', async () => {
    const buttons = [{ label: 'Sim, "quero"', value: 'sim' }, { label: 'Não, obrigado', value: 'nao' }];
    await adapter.send(channel, { ...msg('k-buttons', '5511900000099', 'Confirma?'), buttons });
    const row = (await t.sql.query(`SELECT buttons FROM channel_sandbox_outbox WHERE channel_id = $1 AND idempotency_key = 'k-buttons'`, [channel.id])).rows[0];
    expect(row.buttons).toEqual(buttons);
  });
});
