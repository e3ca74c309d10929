import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '@atende/core/testing';
import { FakeGraphApi } from './fake-graph-api.ts';

/**
 * An agent sends a WhatsApp message template on a ticket (the only thing
 * WhatsApp delivers outside the 24-hour window): through the real routes,
 * the send job and the WABA adapter, against the local Graph API.
 */

let t: TestApp;
let admin: TestUser;
let api: FakeGraphApi;
let otherApi: FakeGraphApi;
let callback: string;
let channelId: number;
let ticketId: number;
const customer = '5511987650077';

const wabaInput = (g: FakeGraphApi) => ({
  type: 'waba',
  name: 'WhatsApp oficial',
  secrets: { accessToken: g.token, appSecret: g.appSecret },
  config: { phoneNumberId: g.phoneNumberId, businessAccountId: g.businessAccountId, graphBaseUrl: g.url, healthIntervalMs: 60_000 },
});

/** Creates a WABA channel for `as` and waits until it is connected and its templates are synced. */
async function wabaChannel(as: TestUser, g: FakeGraphApi): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/channels', headers: as.headers, payload: wabaInput(g) });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  await until(async () => {
    const r = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${id}/templates?status=all`, headers: as.headers })).json();
    return r.templates?.length === g.templates.length;
  });
  return id;
}

const send = (payload: Record<string, unknown>, id = ticketId, as = admin) => t.app.inject({ method: 'POST', url: `/api/messages/${id}`, headers: as.headers, payload });
const messageCount = async () => (await t.sql.query('SELECT count(*)::int AS n FROM messages')).rows[0].n as number;

beforeAll(async () => {
  api = await FakeGraphApi.start();
  otherApi = await FakeGraphApi.start();
  api.addTemplate({ name: 'pedido_enviado', category: 'UTILITY', components: [{ type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} saiu para entrega.' }, { type: 'FOOTER', text: 'Loja Exemplo' }] });
  api.addTemplate({
    name: 'retomar_contato',
    language: 'pt_BR',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
      { type: 'BODY', text: 'Oi {{nome}}, ainda precisa de ajuda com {{assunto}}?' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver pedido', url: 'https://loja.example/p/{{1}}' }, { type: 'QUICK_REPLY', text: 'Falar com atendente' }] },
    ],
  });
  api.addTemplate({ name: 'em_analise', status: 'PENDING' });
  api.addTemplate({ name: 'com_imagem', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Veja a foto' }] });
  otherApi.addTemplate({ name: 'exclusivo_outra_empresa', components: [{ type: 'BODY', text: 'Segredo {{1}}' }] });

  t = await createTestApp({ plugins: ['channel-waba', 'channel-sandbox'] });
  admin = await t.loginAs('admin');
  channelId = await wabaChannel(admin, api);
  callback = `${await t.baseUrl()}/api/plugins/channel-waba/webhook/${channelId}`;
  expect((await api.deliver(callback, api.inboundMessage({ from: customer, name: 'Ana Souza', text: 'Oi, e meu pedido?' }))).status).toBe(200);
  ticketId = (await t.sql.query('SELECT ticket_id FROM messages WHERE channel_id = $1 ORDER BY id LIMIT 1', [channelId])).rows[0].ticket_id;
});
afterAll(async () => {
  await t?.close();
  await api?.close();
  await otherApi?.close();
});

describe('sending a WABA template from a ticket', () => {
  it('reaches Graph with the name, language and parameters, is stored with its filled-in text, and follows the acks', async () => {
    const res = await send({ template: { name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana', '4521'] }] } });
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json();
    expect(saved).toMatchObject({ type: 'templates', fromMe: true, status: 'pending', body: 'Olá Ana, seu pedido 4521 saiu para entrega.\n\nLoja Exemplo', template: { name: 'pedido_enviado', language: 'pt_BR' } });

    const out = await until(async () => api.sent.find((s) => s.type === 'template' && s.template?.name === 'pedido_enviado'));
    expect(out.to).toBe(customer);
    expect(out.template).toEqual({ name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '4521' }] }] });

    const row = await until(async () => {
      const r = (await t.sql.query('SELECT status, provider_id, data FROM messages WHERE id = $1', [saved.id])).rows[0];
      return r.status === 'sent' ? r : undefined;
    });
    expect(row.provider_id).toBe(out.providerId);
    expect(row.data.template.name).toBe('pedido_enviado');
    // The ticket list shows the text the customer got, not the template's name.
    expect((await t.app.inject({ method: 'GET', url: `/api/tickets/${ticketId}`, headers: admin.headers })).json().lastMessage).toMatch(/^Olá Ana, seu pedido 4521/);

    for (const status of ['delivered', 'read'] as const) {
      expect((await api.deliver(callback, api.statusUpdate(out.providerId, status, customer))).status).toBe(200);
      await until(async () => {
        const shown = (await t.app.inject({ method: 'GET', url: `/api/messages/${ticketId}`, headers: admin.headers })).json();
        return shown.messages.find((m: { id: string; status: string }) => m.id === saved.id && m.status === status);
      });
    }
  });

  it('fills header, named body placeholders and a URL button', async () => {
    const res = await send({
      template: {
        name: 'retomar_contato',
        language: 'pt_BR',
        components: [
          { type: 'header', parameters: ['4521'] },
          { type: 'body', parameters: ['Ana', 'a troca'] },
          { type: 'button', subType: 'url', index: 0, parameters: ['4521'] },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().body).toBe('Pedido 4521\n\nOi Ana, ainda precisa de ajuda com a troca?\n\n[Ver pedido] [Falar com atendente]');
    const out = await until(async () => api.sent.find((s) => s.template?.name === 'retomar_contato'));
    expect(out.template!.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: '4521' }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Ana', parameter_name: 'nome' }, { type: 'text', text: 'a troca', parameter_name: 'assunto' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '4521' }] },
    ]);
  });

  it('the template list tells a picker which values each template needs', async () => {
    const list = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-waba/channels/${channelId}/templates`, headers: admin.headers })).json();
    const byName = Object.fromEntries(list.templates.map((x: { name: string }) => [x.name, x]));
    expect(byName.em_analise).toBeUndefined();
    expect(byName.pedido_enviado.variables).toEqual({ header: [], body: ['1', '2'], buttons: [], mediaHeader: null });
    expect(byName.retomar_contato.variables).toEqual({ header: ['1'], body: ['nome', 'assunto'], buttons: [{ index: 0, subType: 'url', text: 'Ver pedido', variables: ['1'] }], mediaHeader: null });
  });

  it('refuses missing, empty or multi-line values, unapproved, unknown and media-header templates, storing nothing', async () => {
    const before = await messageCount();
    const sentBefore = api.sent.length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana'] }] }, /pede 2 variáveis \(\{\{1\}\}, \{\{2\}\}\); foram informadas 1/],
      [{ name: 'pedido_enviado', language: 'pt_BR' }, /pede 2 variáveis/],
      [{ name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana', '  '] }] }, /preencha a variável \{\{2\}\} do corpo/],
      [{ name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana', 'linha 1\nlinha 2'] }] }, /quebras de linha/],
      [{ name: 'retomar_contato', language: 'pt_BR', components: [{ type: 'header', parameters: ['1'] }, { type: 'body', parameters: ['Ana', 'x'] }] }, /botão "Ver pedido".*pede 1 valor/],
      [{ name: 'em_analise', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana'] }] }, /não está aprovado pela Meta \(situação: PENDING\)/],
      [{ name: 'nao_existe', language: 'pt_BR' }, /não encontrado neste canal/],
      [{ name: 'pedido_enviado', language: 'en_US', components: [{ type: 'body', parameters: ['Ana', '1'] }] }, /não encontrado neste canal/],
      [{ name: 'com_imagem', language: 'pt_BR' }, /cabeçalho de imagem/],
      [{ name: 'Pedido Enviado', language: 'pt_BR' }, /nome de modelo inválido/],
    ];
    for (const [template, message] of cases) {
      const res = await send({ template });
      expect(res.statusCode, JSON.stringify(template)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
      expect(res.json().message, JSON.stringify(template)).toMatch(message);
    }
    // A template goes alone: not as an internal note.
    const note = await send({ isNote: true, template: { name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana', '1'] }] } });
    expect(note.statusCode).toBe(400);
    expect(await messageCount()).toBe(before);
    expect(api.sent.length).toBe(sentBefore);
  });

  it('a ticket on a channel without templates refuses, storing nothing', async () => {
    const ch = (await t.app.inject({ method: 'POST', url: '/api/channels', headers: admin.headers, payload: { type: 'sandbox', name: 'Site' } })).json();
    const inbound = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/channels/${ch.id}/simulate`, headers: admin.headers, payload: { from: { id: 'visitante-1', name: 'Visitante' }, body: 'Olá' } });
    expect(inbound.statusCode, inbound.body).toBe(200);
    const before = await messageCount();
    const res = await send({ template: { name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana', '1'] }] } }, inbound.json().ticketId);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringMatching(/não envia modelos/) });
    expect(await messageCount()).toBe(before);
  });

  it('another tenant\'s templates are never usable, and its agents cannot send on this ticket', async () => {
    const otherAdmin = await t.loginAs('admin', await t.createTenant({ name: 'Outra empresa' }));
    await wabaChannel(otherAdmin, otherApi);
    const before = await messageCount();
    // Tenant A's ticket with tenant B's template: unknown on A's channel.
    const res = await send({ template: { name: 'exclusivo_outra_empresa', language: 'pt_BR', components: [{ type: 'body', parameters: ['x'] }] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/não encontrado neste canal/);
    // Tenant B's agent on tenant A's ticket: the ticket does not exist for them.
    const cross = await send({ template: { name: 'pedido_enviado', language: 'pt_BR', components: [{ type: 'body', parameters: ['Ana', '1'] }] } }, ticketId, otherAdmin);
    expect(cross.statusCode).toBe(404);
    expect(await messageCount()).toBe(before);
    expect(otherApi.sent).toHaveLength(0);
  });
});
