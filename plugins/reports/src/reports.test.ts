import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '@atende/core/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ plugins: ['reports'] });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const one = async <R = any>(text: string, params: unknown[]): Promise<R> => (await t.sql.query(text, params)).rows[0];

/**
 * A known data set in one tenant (São Paulo time): two queues, a channel, two tags, four contacts
 * (one in a group) and five tickets on 2026-11-10 and 2026-11-12.
 */
async function seed(admin: TestUser, agent: TestUser) {
  const tid = admin.tenantId;
  const sales = (await one(`INSERT INTO queues (tenant_id, name) VALUES ($1, 'Vendas') RETURNING id`, [tid])).id;
  const support = (await one(`INSERT INTO queues (tenant_id, name) VALUES ($1, 'Suporte') RETURNING id`, [tid])).id;
  const ch = (await one(`INSERT INTO channels (tenant_id, type, name, number) VALUES ($1, 'sandbox', 'Loja', '5511900000000') RETURNING id`, [tid])).id;
  const vip = (await one(`INSERT INTO tags (tenant_id, name) VALUES ($1, 'VIP') RETURNING id`, [tid])).id;
  const late = (await one(`INSERT INTO tags (tenant_id, name) VALUES ($1, 'Atrasado') RETURNING id`, [tid])).id;
  const contact = async (name: string, number: string, state: string | null, isGroup = false) =>
    (await one(`INSERT INTO contacts (tenant_id, name, number, email, state, is_group, extra_info) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, [
      tid, name, number, `${number}@ex.com`, state, isGroup, JSON.stringify(name === 'Ana' ? [{ name: 'CPF', value: '123' }] : []),
    ])).id as number;
  const ana = await contact('Ana', '5511900000001', 'SP');
  const bia = await contact('Bia', '5511900000002', 'RJ');
  const caio = await contact('Caio', '5511900000003', null);
  await contact('Grupo da loja', '120363000000000001', 'SP', true);
  await t.sql.query(`INSERT INTO contact_tags (tenant_id, contact_id, tag_id) VALUES ($1, $2, $3), ($1, $2, $4), ($1, $5, $4)`, [tid, ana, vip, late, bia]);
  await t.sql.query(`INSERT INTO contact_wallets (tenant_id, contact_id, user_id) VALUES ($1, $2, $3)`, [tid, bia, agent.id]);
  const ticket = async (contactId: number, queueId: number, status: string, userId: number | null, at: string, extra: { demand?: string; value?: number; notes?: string } = {}) =>
    (await one(
      `INSERT INTO tickets (tenant_id, contact_id, channel_id, queue_id, user_id, status, created_at, last_message, unread_messages, demand, value, notes, closed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'oi', 2, $8, $9, $10, CASE WHEN $6 = 'closed' THEN $7::timestamptz END) RETURNING id`,
      [tid, contactId, ch, queueId, userId, status, at, extra.demand ?? null, extra.value ?? null, extra.notes ?? null],
    )).id as number;
  // 2026-11-10 23:30 in São Paulo is 2026-11-11 02:30 UTC: it belongs to the 10th.
  const t1 = await ticket(ana, sales, 'closed', agent.id, '2026-11-11T02:30:00Z', { demand: 'Boleto', value: 150.5, notes: 'pagou' });
  const t2 = await ticket(bia, sales, 'open', agent.id, '2026-11-12T15:00:00Z');
  const t3 = await ticket(caio, support, 'pending', null, '2026-11-12T16:00:00Z');
  const t4 = await ticket(ana, support, 'open', admin.id, '2026-11-12T17:00:00Z', { demand: 'Troca' });
  const t5 = await ticket(bia, sales, 'closed', admin.id, '2026-11-20T12:00:00Z');
  return { sales, support, ch, vip, late, ana, bia, caio, t1, t2, t3, t4, t5 };
}

const get = (who: TestUser, path: string) => t.app.inject({ method: 'GET', url: `/api/plugins/reports${path}`, headers: who.headers });

it('tickets by parameters: dates and queues required, the spec’s columns, filters, pages, and the tenant’s day boundaries', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const sup = await t.loginAs('super', admin.tenantId);
  const d = await seed(admin, agent);

  for (const q of ['', `?from=2026-11-10&to=2026-11-12`, `?queueIds=${d.sales}`, `?from=2026-11-10&queueIds=${d.sales}`]) {
    const r = await get(sup, `/tickets${q}`);
    expect(r.statusCode, q).toBe(400);
    expect(r.json()).toEqual({ error: 'ERR_REPORT_DATES_QUEUES', message: 'Informe as datas e as filas do relatório' });
  }
  expect((await get(sup, `/tickets?from=2026-11-12&to=2026-11-10&queueIds=${d.sales}`)).json().error).toBe('ERR_INVALID_DATE');

  const both = `/tickets?from=2026-11-10&to=2026-11-12&queueIds=${d.sales},${d.support}`;
  const all = (await get(sup, both)).json();
  expect(all.count).toBe(4);
  expect(all.rows.map((r: { id: number }) => r.id)).toEqual([d.t4, d.t3, d.t2, d.t1]);
  expect(all.rows[3]).toEqual({
    notes: 'pagou', id: d.t1, status: 'closed', name: 'Ana', number: '5511900000001', connection: 'Loja', lastMessage: 'oi', unreadMessages: 2,
    demand: 'Boleto', queue: 'Vendas', channel: 'sandbox', value: 150.5, createdAt: '2026-11-11T02:30:00.000Z',
  });
  // The 10th alone (tenant's zone) holds t1 only; the 11th holds nothing.
  expect((await get(sup, `/tickets?from=2026-11-10&to=2026-11-10&queueIds=${d.sales}`)).json().rows.map((r: { id: number }) => r.id)).toEqual([d.t1]);
  expect((await get(sup, `/tickets?from=2026-11-11&to=2026-11-11&queueIds=${d.sales}`)).json().count).toBe(0);

  const ids = async (extra: string) => (await get(sup, `${both}${extra}`)).json().rows.map((r: { id: number }) => r.id);
  expect(await ids(`&status=open`)).toEqual([d.t4, d.t2]);
  expect(await ids(`&userId=${agent.id}`)).toEqual([d.t2, d.t1]);
  expect(await ids(`&tagId=${d.late}`)).toEqual([d.t4, d.t2, d.t1]);
  expect(await ids(`&demand=Troca`)).toEqual([d.t4]);
  expect(await ids(`&channelId=${d.ch}`)).toHaveLength(4);
  expect((await get(sup, `/tickets?from=2026-11-10&to=2026-11-12&queueIds=${d.support}`)).json().count).toBe(2);
  const p2 = (await get(sup, `${both}&limit=3&pageNumber=2`)).json();
  expect(p2).toMatchObject({ count: 4, hasMore: false });
  expect(p2.rows.map((r: { id: number }) => r.id)).toEqual([d.t1]);

  // Regular agents have no reports menu: refused, whatever their tickets.
  expect((await get(agent, both)).statusCode).toBe(403);
  // Another tenant asking with this tenant's queue ids sees nothing of it.
  const other = await t.loginAs('admin');
  expect((await get(other, both)).json()).toEqual({ rows: [], count: 0, hasMore: false });
});

it('per-user statistics: pending, in service, resolved and total per user, with the totals', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const d = await seed(admin, agent);
  const r = (await get(admin, '/users?from=2026-11-01&to=2026-11-30')).json();
  const byId = new Map(r.rows.map((x: { userId: number }) => [x.userId, x]));
  expect(byId.get(agent.id)).toMatchObject({ email: agent.email, pending: 0, open: 1, closed: 1, total: 2 });
  expect(byId.get(admin.id)).toMatchObject({ email: admin.email, pending: 0, open: 1, closed: 1, total: 2 });
  // The unassigned pending ticket belongs to no user; totals add the rows.
  expect(r.totals).toEqual({ pending: 0, open: 2, closed: 2, total: 4 });
  const narrow = (await get(admin, `/users?from=2026-11-01&to=2026-11-15&queueIds=${d.sales}`)).json();
  expect(narrow.totals).toEqual({ pending: 0, open: 1, closed: 1, total: 2 });
  const other = await t.loginAs('admin');
  expect((await get(other, '/users')).json().rows.map((x: { userId: number }) => x.userId)).toEqual([other.id]);
});

it('contact reports: the general list, and by tag, state or wallet with at least one selected', async () => {
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const d = await seed(admin, agent);
  const names = async (path: string) => (await get(admin, path)).json().rows.map((r: { name: string }) => r.name);

  const list = (await get(admin, '/contacts/lista-contatos')).json();
  expect(list.count).toBe(3); // groups are not contacts of a report
  expect(list.rows[0]).toEqual({ id: d.ana, name: 'Ana', number: '5511900000001', email: '5511900000001@ex.com', state: 'SP', tags: ['Atrasado', 'VIP'], wallets: [], extraInfo: 'CPF: 123' });
  expect(await names('/contacts/lista-contatos?search=bi')).toEqual(['Bia']);

  for (const kind of ['contatos-por-etiquetas', 'contatos-por-estado', 'contatos-por-carteira']) {
    const r = await get(admin, `/contacts/${kind}`);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: 'ERR_REPORT_SELECTION', message: 'Selecione ao menos uma carteira, estado, etiqueta ou kanban' });
  }
  expect(await names(`/contacts/contatos-por-etiquetas?tagIds=${d.late}`)).toEqual(['Ana', 'Bia']);
  expect(await names(`/contacts/contatos-por-etiquetas?tagIds=${d.vip}`)).toEqual(['Ana']);
  expect(await names('/contacts/contatos-por-estado?states=RJ,SP')).toEqual(['Ana', 'Bia']);
  const wallet = (await get(admin, `/contacts/contatos-por-carteira?walletIds=${agent.id}`)).json();
  expect(wallet.rows).toEqual([expect.objectContaining({ name: 'Bia', wallets: [expect.any(String)] })]);

  const other = await t.loginAs('admin');
  expect((await get(other, `/contacts/contatos-por-etiquetas?tagIds=${d.late}`)).json().count).toBe(0);
  expect((await get(other, '/contacts/lista-contatos')).json().count).toBe(0);
  const opts = (await get(admin, '/options')).json();
  expect(opts).toMatchObject({ states: ['RJ', 'SP'], demands: ['Boleto', 'Troca'], channels: [{ id: d.ch, name: 'Loja' }] });
  expect(opts.queues.map((q: { name: string }) => q.name)).toEqual(['Suporte', 'Vendas']);
});

it('exports a report to Excel as a job with progress: the same rows and columns as the screen, only to who asked', async () => {
  const ExcelJS = (await import('exceljs')).default;
  const admin = await t.loginAs('admin');
  const agent = await t.loginAs('user', admin.tenantId);
  const d = await seed(admin, agent);
  const post = (who: TestUser, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/plugins/reports/exports', headers: who.headers, payload });

  // The required filters are checked before anything is queued.
  const bad = await post(admin, { report: 'atendimentos-por-parametros', query: { from: '2026-11-10', to: '2026-11-12' } });
  expect(bad.json().error).toBe('ERR_REPORT_DATES_QUEUES');
  expect((await post(admin, { report: 'contatos-por-estado', query: {} })).json().error).toBe('ERR_REPORT_SELECTION');
  expect((await post(agent, { report: 'lista-contatos', query: {} })).statusCode).toBe(403);

  const started = await post(admin, { report: 'atendimentos-por-parametros', query: { from: '2026-11-10', to: '2026-11-12', queueIds: `${d.sales},${d.support}` } });
  expect(started.statusCode, started.body).toBe(201);
  const { id } = started.json();
  await expect.poll(async () => (await get(admin, `/exports/${id}`)).json(), { timeout: 20_000 }).toMatchObject({ status: 'done', progress: 100, rows: 4 });

  const file = await get(admin, `/exports/${id}/file`);
  expect(file.headers['content-type']).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
  expect(values(1)).toEqual(['Observações', 'ID', 'Status', 'Nome', 'Número', 'Conexão', 'Última mensagem', 'Não lidas', 'Demanda', 'Filas', 'Canal', 'Valor', 'Data de criação']);
  expect(ws.rowCount).toBe(5);
  expect(values(5)).toEqual(['pagou', d.t1, 'Resolvido', 'Ana', '5511900000001', 'Loja', 'oi', 2, 'Boleto', 'Vendas', 'sandbox', 150.5, '2026-11-11T02:30:00.000Z']);

  // Someone else, in the tenant or outside it, cannot read this export.
  const sup = await t.loginAs('super', admin.tenantId);
  expect((await get(sup, `/exports/${id}/file`)).statusCode).toBe(404);
  const other = await t.loginAs('admin');
  expect((await get(other, `/exports/${id}`)).statusCode).toBe(404);

  const contacts = (await post(admin, { report: 'contatos-por-etiquetas', query: { tagIds: String(d.late) } })).json();
  await expect.poll(async () => (await get(admin, `/exports/${contacts.id}`)).json().status, { timeout: 20_000 }).toBe('done');
  const wb2 = new ExcelJS.Workbook();
  await wb2.xlsx.load((await get(admin, `/exports/${contacts.id}/file`)).rawPayload as unknown as ArrayBuffer);
  expect(wb2.worksheets[0]!.getColumn(1).values.slice(1)).toEqual(['Nome', 'Ana', 'Bia']);
});
