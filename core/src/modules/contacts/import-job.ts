import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import type { JobContext } from '../../sdk/types.ts';
import { lockKey, withTx } from '../../db/tx.ts';
import { AppError, catalogueEntry, formatError, type ErrorCode } from '../../errors.ts';
import { normalizeContactNumber } from './phone.ts';
import { IMPORT_MAX_ROWS, parseCsv, parseXlsx, type ImportRow } from './import-file.ts';
import type { Actor } from './service.ts';
import { tenantCountry } from '../tenancy/country.ts';

export const IMPORT_JOB = 'contacts.import';
/** Attempts of one import job; a retry resumes after the last committed chunk. */
const IMPORT_ATTEMPTS = 3;
/** Rows per transaction and per progress report. */
const CHUNK = 250;
/** Per-row reasons carried in the socket frame; the polling route has them all. */
const FRAME_ERRORS = 1000;

export type RowProblem = 'missing_name' | 'missing_number' | 'invalid_number' | 'invalid_email' | 'duplicate_in_file' | 'exists';

const REASONS: Record<'pt' | 'en', Record<RowProblem, string>> = {
  pt: {
    missing_name: 'nome ausente',
    missing_number: 'número ausente',
    invalid_number: 'número inválido (inclua o código do país)',
    invalid_email: 'e-mail inválido',
    duplicate_in_file: 'duplicado no arquivo (linha {row})',
    exists: 'já existe',
  },
  en: {
    missing_name: 'missing name',
    missing_number: 'missing number',
    invalid_number: 'invalid number (include the country code)',
    invalid_email: 'invalid email',
    duplicate_in_file: 'duplicate in file (row {row})',
    exists: 'already exists',
  },
};

export interface RowError {
  row: number;
  code: RowProblem;
  reason: string;
}

const emailSchema = z.email();

type Checked = { ok: true; row: number; name: string; number: string; email: string | null } | { ok: false; row: number; code: RowProblem; firstRow?: number };

/**
 * Validates one row. `seen` holds the numbers of earlier valid rows, so the
 * first occurrence of a number is imported and later ones are reported.
 */
export function checkImportRow(r: ImportRow, seen: Map<string, number>, nationalIn?: 'BR'): Checked {
  const name = r.name.trim().slice(0, 255);
  if (!name) return { ok: false, row: r.row, code: 'missing_name' };
  if (!r.number.trim()) return { ok: false, row: r.row, code: 'missing_number' };
  const n = normalizeContactNumber(r.number, { nationalIn });
  if (!n.ok) return { ok: false, row: r.row, code: 'invalid_number' };
  const email = r.email.trim();
  if (email && !emailSchema.safeParse(email).success) return { ok: false, row: r.row, code: 'invalid_email' };
  const first = seen.get(n.number);
  if (first !== undefined) return { ok: false, row: r.row, code: 'duplicate_in_file', firstRow: first };
  seen.set(n.number, r.row);
  return { ok: true, row: r.row, name, number: n.number, email: email || null };
}

const reasonFor = (lang: 'pt' | 'en', code: RowProblem, firstRow?: number) => REASONS[lang][code].replace('{row}', String(firstRow ?? ''));

/** Imports of one tenant that may be queued or running at once; more wait for one to finish. */
export const IMPORT_MAX_ACTIVE = 2;

/**
 * Stores the uploaded file and queues the job; answers the id clients poll and
 * match socket frames with. The rows are read by the worker, not here. A
 * tenant has at most IMPORT_MAX_ACTIVE imports in flight: the count and the
 * insert run under a per-tenant lock, so simultaneous uploads cannot all pass.
 */
export async function startImport(kernel: Kernel, actor: Actor, lang: 'pt' | 'en', fileName: string, kind: 'csv' | 'xlsx', file: Buffer): Promise<string> {
  const id = randomUUID();
  await withTx(kernel.db.pool, async (sql) => {
    await lockKey(sql, `contacts-import:${actor.tenantId}`);
    const active = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM contact_imports WHERE tenant_id = $1 AND status IN ('queued','running')`, [actor.tenantId]);
    if (active.rows[0].n >= IMPORT_MAX_ACTIVE) throw new AppError('ERR_IMPORT_BUSY', { max: IMPORT_MAX_ACTIVE });
    await sql.query('INSERT INTO contact_imports (id, tenant_id, user_id, file_name, lang, total, file, file_kind) VALUES ($1, $2, $3, $4, $5, 0, $6, $7)', [
      id,
      actor.tenantId,
      actor.userId,
      fileName.slice(-200),
      lang,
      file,
      kind,
    ]);
  });
  await kernel.jobs.enqueue(IMPORT_JOB, { importId: id, tenantId: actor.tenantId }, { jobId: `contacts-import-${id}`, attempts: IMPORT_ATTEMPTS });
  return id;
}

interface ImportState {
  id: string;
  tenant_id: number;
  user_id: number | null;
  lang: 'pt' | 'en';
  status: string;
  total: number;
  processed: number;
  imported: number;
  rejected: number;
  rows: ImportRow[] | null;
  file_kind: 'csv' | 'xlsx' | null;
}

/**
 * Reads the stored file into rows (streaming, the row cap enforced while
 * reading) and keeps them with their count; the file itself is dropped.
 * Answers the rows, or undefined when the file is refused (the import is then
 * marked failed with the catalogue code, and the job ends without retrying).
 */
async function readStoredFile(kernel: Kernel, imp: ImportState, emitFailure: (code: string, message: string) => Promise<void>): Promise<ImportRow[] | undefined> {
  const pool = kernel.db.pool;
  const f = await pool.query<{ file: Buffer | null }>('SELECT file FROM contact_imports WHERE id = $1', [imp.id]);
  const file = f.rows[0]?.file;
  if (!file || !imp.file_kind) return undefined;
  let rows: ImportRow[];
  try {
    rows = imp.file_kind === 'xlsx' ? await parseXlsx(file) : await parseCsv(file);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await pool.query(`UPDATE contact_imports SET status = 'failed', finished_at = now(), failure = $2, file = NULL WHERE id = $1`, [imp.id, err.code]);
    await emitFailure(err.code, formatError(err.code, imp.lang, err.params));
    return undefined;
  }
  await pool.query(`UPDATE contact_imports SET rows = $2, total = $3, file = NULL WHERE id = $1`, [imp.id, JSON.stringify(rows), rows.length]);
  imp.total = rows.length;
  return rows;
}

/**
 * The import job: validates and inserts the rows chunk by chunk. Each chunk's
 * contacts, identities and progress commit together, so a retry (or a job
 * re-delivered after a crash) resumes exactly after the last committed chunk
 * and never reports its own earlier rows as "already exists".
 */
export async function runImport(kernel: Kernel, data: { importId: string; tenantId: number }, ctx: JobContext): Promise<void> {
  const pool = kernel.db.pool;
  const loaded = await pool.query<ImportState>(
    'SELECT id, tenant_id, user_id, lang, status, total, processed, imported, rejected, rows, file_kind FROM contact_imports WHERE id = $1 AND tenant_id = $2',
    [data.importId, data.tenantId],
  );
  const imp = loaded.rows[0];
  if (!imp || imp.status === 'finished' || imp.status === 'failed') return;
  const tenantId = imp.tenant_id;
  const rooms = imp.user_id ? [`user:${imp.user_id}`] : [];
  const lang = imp.lang === 'en' ? 'en' : 'pt';
  imp.lang = lang;
  await pool.query(`UPDATE contact_imports SET status = 'running', started_at = COALESCE(started_at, now()) WHERE id = $1`, [imp.id]);
  const rows =
    imp.rows ??
    (await readStoredFile(kernel, imp, async (code, message) => {
      if (rooms.length)
        await kernel.realtime.emit(tenantId, 'contacts.import_finished', { jobId: imp.id, status: 'failed', total: 0, processed: 0, imported: 0, rejected: 0, errors: [], error: code, message }, rooms);
    }));
  if (!rows) return;
  const counters = { processed: imp.processed, imported: imp.imported, rejected: imp.rejected };
  const progress = async () => {
    const frame = { jobId: imp.id, total: imp.total, ...counters };
    await ctx.progress(frame);
    if (rooms.length) await kernel.realtime.emit(tenantId, 'contacts.import_progress', frame, rooms);
  };

  try {
    // A Brazilian company's spreadsheet often has numbers as (11) 98765-4321: read them with +55.
    const nationalIn = (await tenantCountry(pool, tenantId)) ?? undefined;
    const seen = new Map<string, number>();
    for (let i = 0; i < counters.processed; i++) checkImportRow(rows[i], seen, nationalIn);
    await progress();

    for (let start = counters.processed; start < rows.length; start += CHUNK) {
      const checked = rows.slice(start, start + CHUNK).map((r) => checkImportRow(r, seen, nationalIn));
      const good = checked.filter((c): c is Extract<Checked, { ok: true }> => c.ok);
      const errors: RowError[] = checked.filter((c): c is Extract<Checked, { ok: false }> => !c.ok).map((c) => ({ row: c.row, code: c.code, reason: reasonFor(lang, c.code, c.firstRow) }));
      let imported = 0;
      await withTx(pool, async (sql) => {
        if (good.length) {
          const ins = await sql.query<{ id: number; number: string }>(
            `INSERT INTO contacts (tenant_id, name, number, email)
             SELECT $1, v.name, v.number, v.email FROM unnest($2::text[], $3::text[], $4::text[]) AS v(name, number, email)
             ON CONFLICT (tenant_id, number) WHERE number IS NOT NULL DO NOTHING
             RETURNING id, number`,
            [tenantId, good.map((g) => g.name), good.map((g) => g.number), good.map((g) => g.email)],
          );
          const created = new Map(ins.rows.map((r) => [r.number, r.id]));
          for (const g of good) if (!created.has(g.number)) errors.push({ row: g.row, code: 'exists', reason: reasonFor(lang, 'exists') });
          imported = ins.rows.length;
          if (imported)
            await sql.query(
              `INSERT INTO contact_identities (tenant_id, kind, external_id, contact_id)
               SELECT $1, 'whatsapp', v.number, v.id FROM unnest($2::text[], $3::int[]) AS v(number, id)
               ON CONFLICT (tenant_id, kind, external_id) DO UPDATE SET contact_id = EXCLUDED.contact_id`,
              [tenantId, ins.rows.map((r) => r.number), ins.rows.map((r) => r.id)],
            );
        }
        errors.sort((a, b) => a.row - b.row);
        const step = await sql.query(
          `UPDATE contact_imports SET processed = processed + $2, imported = imported + $3, rejected = rejected + $4, errors = errors || $5::jsonb
            WHERE id = $1 AND processed = $6`,
          [imp.id, checked.length, imported, errors.length, JSON.stringify(errors), start],
        );
        // Someone else advanced this import meanwhile: roll back rather than count rows twice.
        if (step.rowCount !== 1) throw new Error(`import ${imp.id} advanced concurrently`);
      });
      counters.processed += checked.length;
      counters.imported += imported;
      counters.rejected += errors.length;
      await progress();
    }

    const done = await pool.query<{ errors: RowError[] }>(
      `UPDATE contact_imports SET status = 'finished', finished_at = now(), rows = NULL WHERE id = $1 RETURNING errors`,
      [imp.id],
    );
    const errors = done.rows[0]?.errors ?? [];
    if (rooms.length)
      await kernel.realtime.emit(
        tenantId,
        'contacts.import_finished',
        { jobId: imp.id, status: 'finished', total: imp.total, ...counters, errors: errors.slice(0, FRAME_ERRORS), errorsTruncated: errors.length > FRAME_ERRORS },
        rooms,
      );
    // One event for the whole batch: contact lists reload once instead of receiving thousands of frames.
    if (counters.imported) await kernel.realtime.emit(tenantId, 'contacts.imported', { jobId: imp.id, imported: counters.imported }, ['tenant']);
  } catch (err) {
    if (ctx.attempt >= IMPORT_ATTEMPTS) {
      await pool.query(`UPDATE contact_imports SET status = 'failed', finished_at = now(), failure = $2 WHERE id = $1`, [imp.id, (err as Error).message.slice(0, 500)]);
      if (rooms.length) await kernel.realtime.emit(tenantId, 'contacts.import_finished', { jobId: imp.id, status: 'failed', total: imp.total, ...counters, errors: [] }, rooms);
    }
    throw err;
  }
}

/** The stored state of an import of the caller's tenant, or undefined (another tenant's id is simply unknown). */
export async function importResult(kernel: Kernel, tenantId: number, id: string) {
  const r = await kernel.db.pool.query<{
    id: string;
    status: string;
    file_name: string;
    total: number;
    processed: number;
    imported: number;
    rejected: number;
    errors: RowError[];
    failure: string | null;
    lang: 'pt' | 'en';
    created_at: Date;
    finished_at: Date | null;
  }>('SELECT id, status, file_name, total, processed, imported, rejected, errors, failure, lang, created_at, finished_at FROM contact_imports WHERE id = $1 AND tenant_id = $2', [id, tenantId]);
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    jobId: x.id,
    status: x.status,
    fileName: x.file_name,
    total: x.total,
    processed: x.processed,
    imported: x.imported,
    rejected: x.rejected,
    errors: x.errors,
    // A file refused by the worker (no Nome/Numero columns, too many rows, not a spreadsheet) says why.
    ...(x.failure && catalogueEntry(x.failure) ? { error: x.failure, message: formatError(x.failure as ErrorCode, x.lang, { max: IMPORT_MAX_ROWS }) } : {}),
    createdAt: x.created_at.toISOString(),
    finishedAt: x.finished_at ? x.finished_at.toISOString() : null,
  };
}
