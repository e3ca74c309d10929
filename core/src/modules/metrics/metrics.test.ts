import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';

const SCRAPE_TOKEN = 'scrape-token-0123456789abcdef';
let t: TestApp;
let superadmin: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ plugins: ['channel-sandbox'], config: { metricsToken: SCRAPE_TOKEN } });
  superadmin = await t.loginAs('superadmin');
  admin = await t.loginAs('admin');
});
afterAll(async () => t?.close());

const scrape = (authorization?: string) => t.app.inject({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });

/** The value of one series in Prometheus text format, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /api/metrics', () => {
  it('refuses a request without a token (401) and a wrong scrape token (401)', async () => {
    const none = await scrape();
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('ERR_LOGIN_REQUIRED');
    const wrong = await scrape('Bearer scrape-token-0123456789abcdeX');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('atende_');
  });

  it('answers a tenant admin exactly like a route that does not exist', async () => {
    const res = await scrape(admin.headers.authorization);
    const missing = await t.app.inject({ method: 'GET', url: '/api/metrics-nao-existe', headers: admin.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_ROUTE_NOT_FOUND');
    expect(res.json()).toEqual(missing.json());
  });

  it('gives the superadmin HTTP latency, event-loop lag, queue depths, sockets and channel status', async () => {
    const channel = await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Métricas' } });
    expect(channel.statusCode).toBe(201);
    const socket = await t.openSocket(admin.token);
    await socket.next((f) => f.event === 'hello');
    await t.app.inject({ method: 'GET', url: '/api/tickets', headers: admin.headers });

    const res = await scrape(superadmin.headers.authorization);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(sample(text, 'atende_http_request_duration_seconds_count', { route: '/api/tickets', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="\/api\/channels\/\d+/);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'atende_realtime_sockets')).toBe(1);
    expect(sample(text, 'atende_job_queue_jobs', { queue: 'channel.send', state: 'waiting' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'atende_job_queue_jobs', { queue: 'bulk.pump', state: 'failed' })).toBeGreaterThanOrEqual(0);
    const id = String(channel.json().id);
    expect(sample(text, 'atende_channel_status', { tenant: String(admin.tenantId), channel: id, type: 'sandbox', status: channel.json().status })).toBe(1);
    expect(sample(text, 'atende_dependency_up', { dependency: 'database' })).toBe(1);
    await socket.close();
  });

  it('counts ingested and sent messages', async () => {
    const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Contagem' } })).json();
    const before = (await scrape(`Bearer ${SCRAPE_TOKEN}`)).body;
    const inbound = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${ch.id}/simulate`, headers: admin.headers, payload: { from: { id: 'cli-1', name: 'Cliente' }, body: 'Olá' } });
    expect(inbound.statusCode).toBe(200);
    const reply = await t.app.inject({ method: 'POST', url: `/api/messages/${inbound.json().ticketId}`, headers: admin.headers, payload: { body: 'Bom dia' } });
    expect(reply.statusCode).toBeLessThan(300);
    const deadline = Date.now() + 10_000;
    let after = '';
    while (Date.now() < deadline) {
      after = (await scrape(`Bearer ${SCRAPE_TOKEN}`)).body;
      if ((sample(after, 'atende_messages_outbound_total', { channel_type: 'sandbox', source: 'ticket', result: 'sent' }) ?? 0) >= 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(sample(after, 'atende_messages_ingested_total')! - (sample(before, 'atende_messages_ingested_total') ?? 0)).toBe(1);
    expect(sample(after, 'atende_messages_outbound_total', { channel_type: 'sandbox', source: 'ticket', result: 'sent' })).toBe(1);
  });
});
