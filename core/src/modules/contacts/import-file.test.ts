import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { AppError } from '../../errors.ts';
import { parseImportFile } from './import-file.ts';
import { checkImportRow } from './import-job.ts';
import { csvField } from './export.ts';

const codeOf = async (p: Promise<unknown>) => p.then(() => undefined, (err) => (err as AppError).code);

describe('import file parsing', () => {
  it('reads a comma CSV with Nome/Numero/Email, keeping spreadsheet row numbers and skipping blank lines', async () => {
    const rows = await parseImportFile(Buffer.from('Nome,Numero,Email\nAna,5511987654321,ana@x.com\n\n"Silva, João",+55 21 99876-5432,\n'), 'c.csv');
    expect(rows).toEqual([
      { row: 2, name: 'Ana', number: '5511987654321', email: 'ana@x.com' },
      { row: 4, name: 'Silva, João', number: '+55 21 99876-5432', email: '' },
    ]);
  });

  it('reads a semicolon CSV saved by Excel in Windows-1252 with accented headers and a BOM-less file', async () => {
    const latin1 = Buffer.from('Número;Nome\r\n5511987654321;José\r\n', 'latin1');
    expect(await parseImportFile(latin1, 'c.csv')).toEqual([{ row: 2, name: 'José', number: '5511987654321', email: '' }]);
  });

  it('accepts English headers and a UTF-8 BOM', async () => {
    const rows = await parseImportFile(Buffer.from('\uFEFFName,Number\nMary,14155552671\n'), 'c.csv');
    expect(rows[0]).toMatchObject({ name: 'Mary', number: '14155552671' });
  });

  it('refuses a file without the Nome and Numero columns, an empty file and other formats', async () => {
    expect(await codeOf(parseImportFile(Buffer.from('Cliente,Telefone\nAna,5511987654321\n'), 'c.csv'))).toBe('ERR_IMPORT_COLUMNS');
    expect(await codeOf(parseImportFile(Buffer.from('Nome,Numero\n'), 'c.csv'))).toBe('ERR_IMPORT_EMPTY');
    expect(await codeOf(parseImportFile(Buffer.from('MZ\x00\x00', 'latin1'), 'c.exe'))).toBe('ERR_FILE_REJECTED');
    expect(await codeOf(parseImportFile(Buffer.from('not a zip'), 'c.xlsx'))).toBe('ERR_FILE_REJECTED');
  });

  it('reads the first sheet of an XLSX, numeric cells without exponent', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Plan1');
    ws.addRow(['Nome', 'Numero', 'Email']);
    ws.addRow(['Ana', 5511987654321, 'ana@x.com']);
    ws.addRow([]);
    ws.addRow([{ richText: [{ text: 'Bea' }, { text: 'triz' }] }, '5521998765432', null]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await parseImportFile(buf, 'contatos.xlsx')).toEqual([
      { row: 2, name: 'Ana', number: '5511987654321', email: 'ana@x.com' },
      { row: 4, name: 'Beatriz', number: '5521998765432', email: '' },
    ]);
  });
});

describe('import row rules', () => {
  it('imports the first occurrence of a number and reports the others, and names every other problem', () => {
    const seen = new Map<string, number>();
    const r = (row: number, name: string, number: string, email = '') => checkImportRow({ row, name, number, email }, seen);
    expect(r(2, 'Ana', '+55 11 98765-4321')).toEqual({ ok: true, row: 2, name: 'Ana', number: '5511987654321', email: null });
    expect(r(3, 'Ana de novo', '5511987654321')).toMatchObject({ ok: false, code: 'duplicate_in_file', firstRow: 2 });
    expect(r(4, '', '5511987654322')).toMatchObject({ ok: false, code: 'missing_name' });
    expect(r(5, 'Bia', '')).toMatchObject({ ok: false, code: 'missing_number' });
    expect(r(6, 'Caio', '11987654321')).toMatchObject({ ok: false, code: 'invalid_number' });
    expect(r(7, 'Duda', '5511987654323', 'não-é-email')).toMatchObject({ ok: false, code: 'invalid_email' });
  });
});

describe('CSV export fields', () => {
  it('quotes separators and neutralises spreadsheet formulas', () => {
    expect(csvField('Silva, João')).toBe('"Silva, João"');
    expect(csvField('diz "oi"')).toBe('"diz ""oi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('5511987654321')).toBe('5511987654321');
  });
});
