import ExcelJS from 'exceljs';
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse as csvParse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
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

/**
 * Collects data rows while they are read: blank rows are skipped and the row
 * cap is enforced on the fly, so an 800k-row file stops at row 50,001 instead
 * of being held whole in memory first.
 */
class RowSink {
  readonly rows: ImportRow[] = [];
  private cols?: { name: number; number: number; email: number };
  header(cells: string[]) {
    this.cols = columnsOf(cells);
  }
  get hasHeader() {
    return this.cols !== undefined;
  }
  add(row: number, cells: string[]) {
    const cols = this.cols!;
    if (cells.every((c) => !c || !c.trim())) return;
    const cell = (i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    this.rows.push({ row, name: cell(cols.name), number: cell(cols.number), email: cell(cols.email) });
    if (this.rows.length > IMPORT_MAX_ROWS) throw new AppError('ERR_IMPORT_TOO_MANY_ROWS', { max: IMPORT_MAX_ROWS });
  }
  done(): ImportRow[] {
    if (!this.rows.length) throw new AppError('ERR_IMPORT_EMPTY');
    return this.rows;
  }
}

/** Bytes the parsers are fed at a time. */
const SLICE = 16 * 1024;
/** Rows read between two hand-backs of the event loop (a compressed slice of XLSX holds thousands). */
const ROWS_PER_TURN = 500;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The file in slices, handing the event loop back between them (a macrotask,
 * not a microtask), so other requests are served while a big file is parsed
 * in the same process.
 */
async function* slices(buf: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < buf.length; at += SLICE) {
    if (at) await nextTurn();
    yield buf.subarray(at, at + SLICE);
  }
}

/** The separator of the header line: Excel in Portuguese writes `;`, most tools `,`. */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const count = (d: string) => first.split(d).length - 1;
  return [';', '\t', ','].reduce((best, d) => (count(d) > count(best) ? d : best), ',');
}

/** The decoder of a CSV file: UTF-8 when it is valid UTF-8, otherwise Windows-1252 (what Excel in Portuguese saves). */
const decoderFor = (buf: Buffer) => new TextDecoder(isUtf8(buf) ? 'utf-8' : 'windows-1252', { ignoreBOM: false });

/** The first line of a CSV file, decoded (looked at within its first 64 KiB only). */
function csvHeaderLine(buf: Buffer): string {
  const head = decoderFor(buf).decode(buf.subarray(0, 64 * 1024), { stream: true });
  return head.slice(0, head.search(/\r?\n|$/));
}

const csvOptions = (delimiter: string) => ({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, trim: false });

/** Reads a CSV file as a stream of records; the row cap stops the reading. */
export async function parseCsv(buf: Buffer): Promise<ImportRow[]> {
  const header = csvHeaderLine(buf);
  const decoder = decoderFor(buf);
  async function* text() {
    for await (const chunk of slices(buf)) yield decoder.decode(chunk, { stream: true });
    const rest = decoder.decode();
    if (rest) yield rest;
  }
  const sink = new RowSink();
  const parser = Readable.from(text()).pipe(csvParse(csvOptions(delimiterOf(header))));
  let n = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      n++;
      if (n % ROWS_PER_TURN === 0) await nextTurn();
      if (n === 1) sink.header(cells);
      else sink.add(n, cells);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_FILE_REJECTED');
  } finally {
    parser.destroy();
  }
  if (!sink.hasHeader) throw new AppError('ERR_IMPORT_EMPTY');
  return sink.done();
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

/** Reads the first sheet of an XLSX file row by row (exceljs streaming reader); the row cap stops the reading. */
export async function parseXlsx(buf: Buffer): Promise<ImportRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(slices(buf)), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const sink = new RowSink();
  let sheets = 0;
  let n = 0;
  try {
    for await (const ws of reader) {
      if (sheets++) break;
      for await (const row of ws as AsyncIterable<ExcelJS.Row>) {
        if (++n % ROWS_PER_TURN === 0) await nextTurn();
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        const cells = Array.from(values, (v) => cellText(v as ExcelJS.CellValue));
        if (!sink.hasHeader) {
          // Rows before the header row (none in a normal file) count as the header's row.
          sink.header(cells);
        } else sink.add(row.number, cells);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_FILE_REJECTED');
  }
  if (!sink.hasHeader) throw new AppError('ERR_IMPORT_EMPTY');
  return sink.done();
}

const isZip = (buf: Buffer) => buf.length > 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;

/**
 * What the request itself checks before queuing an import: the format by name
 * and content, and for a CSV its header line. Nothing else of the file is
 * parsed on the request: the rows are read by the job worker.
 */
export function checkImportFile(buf: Buffer, fileName: string): 'csv' | 'xlsx' {
  const ext = fileName.toLowerCase().split('.').pop();
  if (ext === 'xlsx') {
    if (!isZip(buf)) throw new AppError('ERR_FILE_REJECTED');
    return 'xlsx';
  }
  if (ext === 'csv' || ext === 'txt') {
    if (buf.includes(0)) throw new AppError('ERR_FILE_REJECTED');
    const header = csvHeaderLine(buf);
    if (!header.trim()) throw new AppError('ERR_IMPORT_EMPTY');
    let cells: string[][];
    try {
      cells = parseSync(header, csvOptions(delimiterOf(header)));
    } catch {
      throw new AppError('ERR_FILE_REJECTED');
    }
    columnsOf(cells[0] ?? []);
    return 'csv';
  }
  throw new AppError('ERR_FILE_REJECTED');
}

/** Reads an uploaded CSV or XLSX into rows; the format is decided by name and confirmed by content. */
export async function parseImportFile(buf: Buffer, fileName: string): Promise<ImportRow[]> {
  return checkImportFile(buf, fileName) === 'xlsx' ? parseXlsx(buf) : parseCsv(buf);
}
