/**
 * X1 item 2: one upload must not stall every tenant. The contacts import is
 * read as a stream by the job worker (never on the request), the 50k-row cap
 * stops the reading, and a tenant has a bounded number of imports in flight.
 * RSS and /api/health latency under a real 800k-row XLSX: core/bench/import-load.ts.
 */
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp, type TestUser } from '../../core/src/testing/index.ts';
import { multipartFile } from '../../core/src/modules/catalog/test-helpers.ts';

let t: TestApp;
let idle: TestApp;
beforeAll(async () => {
  t = await createTestApp({ plugins: [] });
  // No job workers: imports stay queued, so the in-flight bound is seen without racing the worker.
  idle = await createTestApp({ plugins: [], workers: false });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await idle?.close();
});

const upload = (app: TestApp, who: TestUser, name: string, content: Buffer) => {
  const mp = multipartFile(name, name.endsWith('.csv') ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content);
  return app.app.inject({ method: 'POST', url: '/api/contacts/import', payload: mp.payload, headers: { ...mp.headers, ...who.headers } });
};
const state = (who: TestUser, jobId: string) => t.app.inject({ method: 'GET', url: `/api/contacts/import/${jobId}`, headers: who.headers }).then((r) => r.json());
const finished = (who: TestUser, jobId: string) =>
  until(async () => {
    const s = await state(who, jobId);
    return s.status === 'finished' || s.status === 'failed' ? s : undefined;
  }, 60_000, `import ${jobId}`);

function bigCsv(rows: number): Buffer {
  const lines = ['Nome;Numero'];
  for (let i = 0; i < rows; i++) lines.push(`Contato ${i};55119${String(80000000 + i)}`);
  return Buffer.from(lines.join('\n'));
}

async function bigXlsx(rows: number): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
  const ws = wb.addWorksheet('Plan1');
  ws.addRow(['Nome', 'Numero']).commit();
  for (let i = 0; i < rows; i++) ws.addRow([`C${i}`, 5511980000000 + i]).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

describe('X1-2: contacts import', () => {
  it('X1-2: a file over the 50k-row cap is accepted at once and refused by the worker while reading, importing nothing', async () => {
    const admin = await t.loginAs('admin');
    const csv = await upload(t, admin, 'muitos.csv', bigCsv(60_000));
    // The request only stores the file: it neither counts nor parses the rows.
    expect(csv.statusCode).toBe(202);
    const csvResult = await finished(admin, csv.json().jobId);
    expect(csvResult).toMatchObject({ status: 'failed', error: 'ERR_IMPORT_TOO_MANY_ROWS', message: 'O arquivo tem mais de 50000 linhas; divida-o em partes', imported: 0 });

    const xlsx = await upload(t, admin, 'muitos.xlsx', await bigXlsx(50_050));
    expect(xlsx.statusCode).toBe(202);
    expect(await finished(admin, xlsx.json().jobId)).toMatchObject({ status: 'failed', error: 'ERR_IMPORT_TOO_MANY_ROWS', imported: 0 });
    const count = await t.sql.query('SELECT count(*)::int AS n FROM contacts WHERE tenant_id = $1', [admin.tenantId]);
    expect(count.rows[0].n).toBe(0);
    // The stored file is dropped once read.
    const files = await t.sql.query('SELECT count(*)::int AS n FROM contact_imports WHERE tenant_id = $1 AND file IS NOT NULL', [admin.tenantId]);
    expect(files.rows[0].n).toBe(0);
  }, 120_000);

  it('X1-2: an XLSX without the Nome/Numero columns fails with the catalogue reason; a good one right after imports', async () => {
    const agent = await t.loginAs('user');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').addRow(['Cliente', 'Telefone']);
    wb.worksheets[0].addRow(['Ana', '5511987654321']);
    const bad = await upload(t, agent, 'c.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(bad.statusCode).toBe(202);
    expect(await finished(agent, bad.json().jobId)).toMatchObject({ status: 'failed', error: 'ERR_IMPORT_COLUMNS', message: 'O arquivo deve ter as colunas Nome e Numero' });
    const good = await upload(t, agent, 'c.csv', bigCsv(300));
    expect(await finished(agent, good.json().jobId)).toMatchObject({ status: 'finished', total: 300, imported: 300 });
  }, 60_000);

  it('X1-2: five simultaneous uploads of one tenant put two imports in flight and refuse the rest; another tenant is not held up', async () => {
    const admin = await idle.loginAs('admin');
    const other = await idle.loginAs('admin');
    const file = bigCsv(1000);
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(idle, admin, 'c.csv', file)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([202, 202, 429, 429, 429]);
    expect(answers.find((a) => a.statusCode === 429)!.json()).toEqual({ error: 'ERR_IMPORT_BUSY', message: 'Já há 2 importações em andamento; aguarde uma terminar' });
    const stored = await idle.sql.query('SELECT count(*)::int AS n FROM contact_imports WHERE tenant_id = $1', [admin.tenantId]);
    expect(stored.rows[0].n).toBe(2);
    expect((await upload(idle, other, 'c.csv', file)).statusCode).toBe(202);
  }, 60_000);
});
