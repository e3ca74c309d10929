import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../errors.ts';

/** Most rows one import may carry; bigger files are split by the user. */
export const IMPORT_MAX_ROWS = 50_000;
/** Largest import file accepted. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** One data row of an import file, as typed (validation happens in the job, row by row). */
export interface ImportRow {
  /** The row number a spreadsheet shows (the header is row 1). */
  row: number;
  name: string;
  number: string;
  email: string;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .toLowerCase();

/** Accepted header names: Nome/Numero in Portuguese, Name/Number in other locales (spec §5), E-mail optional. */
const HEADERS: Record<'name' | 'number' | 'email', string[]> = {
  name: ['nome', 'name'],
  number: ['numero', 'number'],
  email: ['email', 'e-mail'],
};

function columnsOf(header: string[]): { name: number; number: number; email: number } {
  const folded = header.map((h) => fold(h ?? ''));
  const find = (names: string[]) => folded.findIndex((h) => names.includes(h));
  const cols = { name: find(HEADERS.name), number: find(HEADERS.number), email: find(HEADERS.email) };
  if (cols.name < 0 || cols.number < 0) throw new AppError('ERR_IMPORT_COLUMNS');
  return cols;
}

function toRows(records: { row: number; cells: string[] }[], header: string[]): ImportRow[] {
  const cols = columnsOf(header);
  const cell = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
  const rows: ImportRow[] = [];
  for (const r of records) {
    if (r.cells.every((c) => !c || !c.trim())) continue;
    rows.push({ row: r.row, name: cell(r.cells, cols.name), number: cell(r.cells, cols.number), email: cell(r.cells, cols.email) });
    if (rows.length > IMPORT_MAX_ROWS) throw new AppError('ERR_IMPORT_TOO_MANY_ROWS', { max: IMPORT_MAX_ROWS });
  }
  if (!rows.length) throw new AppError('ERR_IMPORT_EMPTY');
  return rows;
}

/** Text of a CSV file: UTF-8 when it is valid UTF-8, otherwise Windows-1252 (what Excel in Portuguese saves). */
export function decodeText(buf: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf);
  } catch {
    return new TextDecoder('windows-1252').decode(buf);
  }
}

/** The separator of the header line: Excel in Portuguese writes `;`, most tools `,`. */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const count = (d: string) => first.split(d).length - 1;
  return [';', '\t', ','].reduce((best, d) => (count(d) > count(best) ? d : best), ',');
}

export function parseCsv(buf: Buffer): ImportRow[] {
  const text = decodeText(buf);
  let records: string[][];
  try {
    records = parse(text, { delimiter: delimiterOf(text), bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, trim: false });
  } catch {
    throw new AppError('ERR_FILE_REJECTED');
  }
  if (!records.length) throw new AppError('ERR_IMPORT_EMPTY');
  const [header, ...data] = records;
  return toRows(
    data.map((cells, i) => ({ row: i + 2, cells })),
    header,
  );
}

/** What a spreadsheet cell shows, whatever its type (numbers without exponent, rich text joined). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return '';
}

export async function parseXlsx(buf: Buffer): Promise<ImportRow[]> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw new AppError('ERR_FILE_REJECTED');
  }
  const ws = wb.worksheets[0];
  if (!ws || ws.rowCount === 0) throw new AppError('ERR_IMPORT_EMPTY');
  const textsOf = (r: ExcelJS.Row) => {
    const out: string[] = [];
    r.eachCell({ includeEmpty: true }, (c, col) => (out[col - 1] = cellText(c.value)));
    return Array.from(out, (v) => v ?? '');
  };
  const header = textsOf(ws.getRow(1));
  const records: { row: number; cells: string[] }[] = [];
  ws.eachRow({ includeEmpty: false }, (r, n) => {
    if (n > 1) records.push({ row: n, cells: textsOf(r) });
  });
  return toRows(records, header);
}

const isZip = (buf: Buffer) => buf.length > 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;

/** Reads an uploaded CSV or XLSX into rows; the format is decided by name and confirmed by content. */
export async function parseImportFile(buf: Buffer, fileName: string): Promise<ImportRow[]> {
  const ext = fileName.toLowerCase().split('.').pop();
  if (ext === 'xlsx') {
    if (!isZip(buf)) throw new AppError('ERR_FILE_REJECTED');
    return parseXlsx(buf);
  }
  if (ext === 'csv' || ext === 'txt') {
    if (buf.includes(0)) throw new AppError('ERR_FILE_REJECTED');
    return parseCsv(buf);
  }
  throw new AppError('ERR_FILE_REJECTED');
}
