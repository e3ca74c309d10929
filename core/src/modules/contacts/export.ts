import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type pg from 'pg';
import { formatBirthday, type DateOrder } from './birthday.ts';

export type ExportFormat = 'csv' | 'xlsx';

interface ExportRow {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  identity: string | null;
  birthday: string | null;
  first_name: string | null;
  last_name: string | null;
  business_name: string | null;
  state: string | null;
  tags: string | null;
  wallets: string | null;
  blocked: boolean;
}

/**
 * Column headers. The first three are what the importer reads back (Nome,
 * Numero, Email in Portuguese; Name, Number, Email otherwise), so an export
 * re-imports as is.
 */
const HEADERS: Record<'pt' | 'en', string[]> = {
  pt: ['Nome', 'Numero', 'Email', 'CPF/CNPJ', 'Aniversario', 'Primeiro nome', 'Sobrenome', 'Empresa', 'Estado', 'Etiquetas', 'Carteira', 'Bloqueado'],
  en: ['Name', 'Number', 'Email', 'CPF/CNPJ', 'Birthday', 'First name', 'Last name', 'Business name', 'State', 'Tags', 'Wallets', 'Blocked'],
};

const BATCH = 1000;

/** The tenant's contacts (groups aside) in id order, a batch at a time, so memory stays flat at any size. */
async function* contactBatches(pool: pg.Pool, tenantId: number): AsyncGenerator<ExportRow[]> {
  for (let after = 0; ; ) {
    const r = await pool.query<ExportRow>(
      `SELECT c.id, c.name, c.number, c.email, c.identity, to_char(c.birthday, 'YYYY-MM-DD') AS birthday,
              c.first_name, c.last_name, c.business_name, c.state, c.blocked,
              (SELECT string_agg(t.name, '; ' ORDER BY lower(t.name)) FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id AND t.tenant_id = ct.tenant_id
                WHERE ct.tenant_id = c.tenant_id AND ct.contact_id = c.id) AS tags,
              (SELECT string_agg(u.name, '; ' ORDER BY lower(u.name)) FROM contact_wallets cw JOIN users u ON u.id = cw.user_id AND u.tenant_id = cw.tenant_id
                WHERE cw.tenant_id = c.tenant_id AND cw.contact_id = c.id) AS wallets
         FROM contacts c
        WHERE c.tenant_id = $1 AND NOT c.is_group AND c.id > $2
        ORDER BY c.id LIMIT ${BATCH}`,
      [tenantId, after],
    );
    if (!r.rowCount) return;
    yield r.rows;
    after = r.rows[r.rows.length - 1].id;
  }
}

function cells(r: ExportRow, lang: 'pt' | 'en', order: DateOrder): string[] {
  const yes = lang === 'pt' ? 'sim' : 'yes';
  const no = lang === 'pt' ? 'não' : 'no';
  return [
    r.name,
    r.number ?? '',
    r.email ?? '',
    r.identity ?? '',
    r.birthday ? formatBirthday(r.birthday, order) : '',
    r.first_name ?? '',
    r.last_name ?? '',
    r.business_name ?? '',
    r.state ?? '',
    r.tags ?? '',
    r.wallets ?? '',
    r.blocked ? yes : no,
  ];
}

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR at
 * the start) is prefixed with an apostrophe: contact names come from customers.
 */
export function neutralizeFormula(v: string): string {
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

export function csvField(v: string): string {
  const safe = neutralizeFormula(v);
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Languages that write decimals with a comma: their spreadsheets (Excel's list separator) split CSV columns on `;`. */
const DECIMAL_COMMA = new Set(['pt', 'es', 'de', 'fr', 'it', 'pl', 'ru']);

/** The CSV column separator for the client's language: `;` for Portuguese (no Accept-Language is Portuguese) and the other decimal-comma languages, `,` otherwise. */
export function csvSeparator(acceptLanguage: string | undefined): ',' | ';' {
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  const lang = first.split(/[-;]/)[0] ?? '';
  return !lang || lang === '*' || DECIMAL_COMMA.has(lang) ? ';' : ',';
}

/** CSV with a UTF-8 BOM (so Excel reads accents correctly), CRLF lines, columns split by `separator` (see `csvSeparator`). */
export function exportCsv(pool: pg.Pool, tenantId: number, lang: 'pt' | 'en', order: DateOrder, separator: ',' | ';' = ';'): Readable {
  return Readable.from(
    (async function* () {
      yield '\uFEFF' + HEADERS[lang].join(separator) + '\r\n';
      for await (const batch of contactBatches(pool, tenantId)) yield batch.map((r) => cells(r, lang, order).map(csvField).join(separator) + '\r\n').join('');
    })(),
  );
}

/** XLSX written with exceljs's streaming writer: rows are committed as they are read. */
export function exportXlsx(pool: pg.Pool, tenantId: number, lang: 'pt' | 'en', order: DateOrder): Readable {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet(lang === 'pt' ? 'Contatos' : 'Contacts');
  void (async () => {
    ws.addRow(HEADERS[lang]).commit();
    for await (const batch of contactBatches(pool, tenantId))
      // Every cell is a string cell (never a formula, whatever it starts with); numbers stay text so a
      // spreadsheet does not show 5.51E+12.
      for (const r of batch) ws.addRow(cells(r, lang, order)).commit();
    ws.commit();
    await wb.commit();
  })().catch((err) => out.destroy(err as Error));
  return out;
}
