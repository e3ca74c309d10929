import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { SqlQuery } from '@atende/core/sdk';
import type { ContactRow, TicketRow, UserStatsRow } from './contract.ts';
import type { Listing } from './queries.ts';

/** A sheet's columns: the header (Portuguese, as the screen) and the cell of a row. */
export type Sheet<R> = { title: string; columns: [string, (r: R) => string | number | null][] };

const ST: Record<string, string> = { open: 'Em atendimento', pending: 'Pendente', closed: 'Resolvido', schedule: 'Agendado' };

export const TICKET_SHEET: Sheet<TicketRow> = {
  title: 'Atendimentos',
  columns: [
    ['Observações', (r) => r.notes],
    ['ID', (r) => r.id],
    ['Status', (r) => ST[r.status] ?? r.status],
    ['Nome', (r) => r.name],
    ['Número', (r) => r.number],
    ['Conexão', (r) => r.connection],
    ['Última mensagem', (r) => r.lastMessage],
    ['Não lidas', (r) => r.unreadMessages],
    ['Demanda', (r) => r.demand],
    ['Filas', (r) => r.queue],
    ['Canal', (r) => r.channel],
    ['Valor', (r) => r.value],
    ['Data de criação', (r) => r.createdAt],
  ],
};

export const USER_SHEET: Sheet<UserStatsRow> = {
  title: 'Resumo por usuário',
  columns: [
    ['Nome', (r) => r.name],
    ['E-mail', (r) => r.email],
    ['Pendentes', (r) => r.pending],
    ['Em atendimento', (r) => r.open],
    ['Resolvidos', (r) => r.closed],
    ['Total', (r) => r.total],
  ],
};

export const CONTACT_SHEET: Sheet<ContactRow> = {
  title: 'Contatos',
  columns: [
    ['Nome', (r) => r.name],
    ['WhatsApp', (r) => r.number],
    ['E-mail', (r) => r.email],
    ['Carteiras', (r) => r.wallets.join(', ')],
    ['Estado', (r) => r.state],
    ['Etiquetas', (r) => r.tags.join(', ')],
    ['Informações adicionais', (r) => r.extraInfo],
  ],
};

/** Text that a spreadsheet would read as a formula stays text (a leading quote-like guard). */
const cell = (v: string | number | null): string | number => (v == null ? '' : typeof v === 'number' ? v : /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/**
 * Writes rows with exceljs's streaming writer, batch by batch (each row is
 * committed as it is written, so memory holds one batch), and reports progress.
 */
export async function writeXlsx<R>(
  sheet: Sheet<R>,
  batches: AsyncIterable<R[]>,
  onBatch: (written: number) => Promise<void>,
): Promise<{ file: Buffer; rows: number }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet(sheet.title);
  ws.addRow(sheet.columns.map(([h]) => h)).commit();
  let rows = 0;
  for await (const batch of batches) {
    for (const r of batch) ws.addRow(sheet.columns.map(([, f]) => cell(f(r)))).commit();
    rows += batch.length;
    await onBatch(rows);
  }
  ws.commit();
  await wb.commit();
  await ended;
  return { file: Buffer.concat(chunks), rows };
}

/** A listing's rows in pages of `size` (offset paging on the listing's stable order). */
export async function* listingBatches<R>(query: <T>(q: SqlQuery) => Promise<T[]>, l: Listing<R>, size = 1000): AsyncIterable<R[]> {
  for (let offset = 0; ; offset += size) {
    const rows = (await query<Record<string, unknown>>(l.rows(size, offset))).map(l.map);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}
