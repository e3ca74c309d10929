import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/index.ts';
import { multipartFile } from '../catalog/test-helpers.ts';
import { runImport } from './import-job.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const call = (who: TestUser, method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...who.headers, ...headers }, payload: payload as never });

const upload = (who: TestUser, name: string, type: string, content: Buffer, headers: Record<string, string> = {}) => {
  const mp = multipartFile(name, type, content);
  return t.app.inject({ method: 'POST', url: '/api/contacts/import', payload: mp.payload, headers: { ...mp.headers, ...who.headers, ...headers } });
};

async function waitFinished(who: TestUser, jobId: string) {
  for (let i = 0; i < 100; i++) {
    const r = (await call(who, 'GET', `/api/contacts/import/${jobId}`)).json();
    if (r.status === 'finished' || r.status === 'failed') return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('import did not finish');
}

const CSV = [
  'Nome;Numero;Email',
  'Ana Lima;+55 11 98765-0001;ana@lima.com',
  ';5511987650002;',
  'Bruno;11987650003;',
  'Carla;5511987650004;carla@',
  'Ana de novo;5511987650001;',
  'Daniel;5511987650005;',
  'Existente;5511987650006;',
  '',
  'Érica;351912345678;erica@pt.pt',
].join('\r\n');

describe('import', () => {
  it('imports good rows and rejects bad ones with a reason per row, reporting progress on the user socket', async () => {
    const admin = await t.loginAs('admin');
    const colleague = await t.loginAs('user', admin.tenantId);
    await call(admin, 'POST', '/api/contacts', { name: 'Já cadastrado', number: '5511987650006' });
    const mine = await t.openSocket(admin.token);
    const theirs = await t.openSocket(colleague.token);
    await mine.next((f) => f.event === 'hello');
    await theirs.next((f) => f.event === 'hello');

    const res = await upload(admin, 'contatos.csv', 'text/csv', Buffer.from(CSV, 'utf8'));
    expect(res.statusCode).toBe(202);
    // The worker counts the rows as it reads the file; the first progress frame carries the total.
    const { jobId } = res.json();

    const finished = await mine.next((f) => f.event === 'contacts.import_finished' && f.data.jobId === jobId, 15_000);
    // The tenant is Brazilian (its time zone): Bruno's national number is read with +55.
    expect(finished.data).toMatchObject({ status: 'finished', total: 8, processed: 8, imported: 4, rejected: 4 });
    expect(finished.data.errors).toEqual([
      { row: 3, code: 'missing_name', reason: 'nome ausente' },
      { row: 5, code: 'invalid_email', reason: 'e-mail inválido' },
      { row: 6, code: 'duplicate_in_file', reason: 'duplicado no arquivo (linha 2)' },
      { row: 8, code: 'exists', reason: 'já existe' },
    ]);
    const progress = mine.frames.filter((f) => f.event === 'contacts.import_progress' && f.data.jobId === jobId);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[progress.length - 1].data).toMatchObject({ processed: 8, total: 8, imported: 4, rejected: 4 });
    expect(progress[0].data).toMatchObject({ processed: 0, total: 8 });
    // Progress goes to the user who imported, not to the whole tenant.
    await theirs.next((f) => f.event === 'contacts.imported');
    expect(theirs.frames.some((f) => f.event.startsWith('contacts.import_'))).toBe(false);

    const polled = (await call(admin, 'GET', `/api/contacts/import/${jobId}`)).json();
    expect(polled).toMatchObject({ jobId, status: 'finished', fileName: 'contatos.csv', imported: 4, rejected: 4 });
    expect(polled.errors).toHaveLength(4);

    const list = (await call(admin, 'GET', '/api/contacts')).json();
    // Where accented names sort depends on the database collation; the set is what matters here.
    expect(list.contacts.map((c: { name: string; number: string }) => `${c.name}:${c.number}`).sort()).toEqual([
      'Ana Lima:5511987650001',
      'Bruno:5511987650003',
      'Daniel:5511987650005',
      'Já cadastrado:5511987650006',
      'Érica:351912345678',
    ]);
    const ana = list.contacts[0];
    expect(ana.email).toBe('ana@lima.com');
    const identity = await t.sql.query(`SELECT contact_id FROM contact_identities WHERE tenant_id = $1 AND kind = 'whatsapp' AND external_id = '5511987650001'`, [admin.tenantId]);
    expect(identity.rows).toEqual([{ contact_id: ana.id }]);
  });

  it('a company outside Brazil gets national numbers refused, with the reason', async () => {
    const admin = await t.loginAs('admin');
    await t.sql.query(`UPDATE tenants SET timezone = 'Europe/Lisbon' WHERE id = $1`, [admin.tenantId]);
    const res = await upload(admin, 'c.csv', 'text/csv', Buffer.from('Nome;Numero\nBruno;11987650003\nInês;+351 912 345 679\n'));
    const result = await waitFinished(admin, res.json().jobId);
    expect(result).toMatchObject({ imported: 1, rejected: 1, errors: [{ row: 2, code: 'invalid_number', reason: 'número inválido (inclua o código do país)' }] });
  });

  it('imports an XLSX with English headers and answers reasons in English', async () => {
    const agent = await t.loginAs('user');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['Name', 'Number']);
    ws.addRow(['Mary', 14155552671]);
    ws.addRow(['', 14155552672]);
    ws.addRow(['Paul', '+44 20 7946 0958']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(agent, 'contacts.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buf, { 'accept-language': 'en-US' });
    expect(res.statusCode).toBe(202);
    const result = await waitFinished(agent, res.json().jobId);
    expect(result).toMatchObject({ status: 'finished', imported: 2, rejected: 1, errors: [{ row: 3, code: 'missing_name', reason: 'missing name' }] });
    const numbers = (await call(agent, 'GET', '/api/contacts')).json().contacts.map((c: { number: string }) => c.number);
    expect(numbers).toEqual(['14155552671', '442079460958']);
  });

  it('refuses at once a file without the Nome/Numero columns, another format or a non-multipart body, queuing nothing', async () => {
    const admin = await t.loginAs('admin');
    const noColumns = await upload(admin, 'c.csv', 'text/csv', Buffer.from('Cliente,Telefone\nAna,5511987654321\n'));
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json()).toEqual({ error: 'ERR_IMPORT_COLUMNS', message: 'O arquivo deve ter as colunas Nome e Numero' });
    expect((await upload(admin, 'c.pdf', 'application/pdf', Buffer.from('%PDF-1.4'))).json().error).toBe('ERR_FILE_REJECTED');
    const huge = await upload(admin, 'c.csv', 'text/csv', Buffer.concat([Buffer.from('Nome,Numero\n'), Buffer.alloc(10 * 1024 * 1024 + 1, 'a')]));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('ERR_FILE_TOO_LARGE');
    const json = await call(admin, 'POST', '/api/contacts/import', { rows: [] });
    expect(json.statusCode).toBe(415);
    const imports = await t.sql.query('SELECT count(*)::int AS n FROM contact_imports WHERE tenant_id = $1', [admin.tenantId]);
    expect(imports.rows[0].n).toBe(0);
  });

  it('resumes an interrupted import after its last committed chunk, without reporting its own rows as existing', async () => {
    const admin = await t.loginAs('admin');
    const id = '00000000-0000-4000-8000-000000000001';
    const rows = [
      { row: 2, name: 'Antes da queda', number: '5511987652001', email: '' },
      { row: 3, name: 'Depois', number: '5511987652002', email: '' },
      { row: 4, name: 'Repetido', number: '5511987652001', email: '' },
    ];
    // State left by a worker that died after committing the first row's chunk.
    await t.sql.query('INSERT INTO contacts (tenant_id, name, number) VALUES ($1, $2, $3)', [admin.tenantId, rows[0].name, rows[0].number]);
    await t.sql.query(
      `INSERT INTO contact_imports (id, tenant_id, user_id, file_name, status, total, processed, imported, rows) VALUES ($1, $2, $3, 'c.csv', 'running', 3, 1, 1, $4)`,
      [id, admin.tenantId, admin.id, JSON.stringify(rows)],
    );
    const progress: unknown[] = [];
    await runImport(t.app.kernel, { importId: id, tenantId: admin.tenantId }, { id: 'x', attempt: 2, progress: async (p) => void progress.push(p), logger: t.app.log as never });
    const result = (await call(admin, 'GET', `/api/contacts/import/${id}`)).json();
    expect(result).toMatchObject({ status: 'finished', processed: 3, imported: 2, rejected: 1 });
    expect(result.errors).toEqual([{ row: 4, code: 'duplicate_in_file', reason: 'duplicado no arquivo (linha 2)' }]);
    expect(progress[0]).toMatchObject({ processed: 1 });
    // Running it again (a duplicate delivery) changes nothing.
    await runImport(t.app.kernel, { importId: id, tenantId: admin.tenantId }, { id: 'x', attempt: 3, progress: async () => undefined, logger: t.app.log as never });
    expect((await call(admin, 'GET', '/api/contacts')).json().count).toBe(2);
  });

  it("does not show an import to another tenant", async () => {
    const a = await t.loginAs('admin');
    const b = await t.loginAs('admin');
    const res = await upload(a, 'c.csv', 'text/csv', Buffer.from('Nome,Numero\nZé,5511987650099\n'));
    const { jobId } = res.json();
    await waitFinished(a, jobId);
    const foreign = await call(b, 'GET', `/api/contacts/import/${jobId}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NOT_FOUND');
    expect((await call(b, 'GET', '/api/contacts')).json().count).toBe(0);
  });
});

describe('export', () => {
  let source: TestUser;
  beforeAll(async () => {
    source = await t.loginAs('admin');
    const tag = (await call(source, 'POST', '/api/tags', { name: 'VIP' })).json().id;
    await call(source, 'POST', '/api/contacts', { name: 'Silva, João', number: '5511987651001', email: 'joao@silva.com', birthday: '05/04/1985', tags: [tag] });
    await call(source, 'POST', '/api/contacts', { name: 'Maria', number: '5521987651002', identity: '529.982.247-25' });
    await call(source, 'POST', '/api/contacts', { name: '=1+1', number: '5531987651003' });
  });

  it('exports CSV with a Nome;Numero;Email header (";" for Portuguese spreadsheets) that imports back into another tenant unchanged', async () => {
    const csv = await call(source, 'GET', '/api/contacts/export?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="contatos.csv"');
    const text = csv.body;
    expect(text.startsWith('\uFEFFNome;Numero;Email;CPF/CNPJ;Aniversario')).toBe(true);
    const rows = parse(text, { bom: true, columns: true, delimiter: ';' }) as Record<string, string>[];
    expect(rows).toEqual([
      expect.objectContaining({ Nome: 'Silva, João', Numero: '5511987651001', Email: 'joao@silva.com', Aniversario: '05/04/1985', Etiquetas: 'VIP', Bloqueado: 'não' }),
      expect.objectContaining({ Nome: 'Maria', Numero: '5521987651002', 'CPF/CNPJ': '529.982.247-25' }),
      expect.objectContaining({ Nome: "'=1+1", Numero: '5531987651003' }),
    ]);

    const target = await t.loginAs('admin');
    expect((await call(target, 'GET', '/api/contacts/export')).body).toBe('\uFEFFNome;Numero;Email;CPF/CNPJ;Aniversario;Primeiro nome;Sobrenome;Empresa;Estado;Etiquetas;Carteira;Bloqueado\r\n');
    // English spreadsheets split on commas; German ones, like Portuguese, on semicolons.
    expect((await call(target, 'GET', '/api/contacts/export', undefined, { 'accept-language': 'en-US,en;q=0.9' })).body.split('\r\n')[0]).toBe('\uFEFFName,Number,Email,CPF/CNPJ,Birthday,First name,Last name,Business name,State,Tags,Wallets,Blocked');
    expect((await call(target, 'GET', '/api/contacts/export', undefined, { 'accept-language': 'de-DE' })).body.split('\r\n')[0]).toContain('Name;Number;Email');
    const imported = await upload(target, 'contatos.csv', 'text/csv', csv.rawPayload);
    const result = await waitFinished(target, imported.json().jobId);
    expect(result).toMatchObject({ imported: 3, rejected: 0 });
    const back = (await call(target, 'GET', '/api/contacts')).json().contacts.map((c: { name: string; number: string; email: string | null }) => [c.name, c.number, c.email]);
    expect(back).toEqual([
      ["'=1+1", '5531987651003', null],
      ['Maria', '5521987651002', null],
      ['Silva, João', '5511987651001', 'joao@silva.com'],
    ]);
  });

  it('exports XLSX with text cells, in English for English clients', async () => {
    const res = await call(source, 'GET', '/api/contacts/export?format=xlsx', undefined, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="contacts.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1, 6);
    expect(values(1)).toEqual(['Name', 'Number', 'Email', 'CPF/CNPJ', 'Birthday']);
    // An empty field is an empty cell.
    expect(values(2)).toEqual(['Silva, João', '5511987651001', 'joao@silva.com', undefined, '04/05/1985']);
    expect(values(4)[0]).toBe('=1+1');
    expect(ws.rowCount).toBe(4);
  });

  it('refuses an unknown format', async () => {
    expect((await call(source, 'GET', '/api/contacts/export?format=pdf')).json().error).toBe('ERR_VALIDATION');
  });
});
