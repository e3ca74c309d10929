import type pg from 'pg';
import { CliError, type CliContext } from './context.ts';
import { withDatabase } from './database.ts';
import { configFrom } from './config.ts';
import { table } from './table.ts';

/** Column names the outbox may use for each field shown, in order of preference. */
const FIELDS = {
  when: ['created_at', 'queued_at', 'sent_at'],
  to: ['to', 'to_address', 'recipient', 'recipients', 'email'],
  subject: ['subject', 'title'],
  status: ['status', 'state'],
  body: ['text', 'text_body', 'body', 'html', 'html_body'],
} as const;

type Row = Record<string, unknown>;

function columnPicker(columns: string[]) {
  const have = new Set(columns);
  const pick = (names: readonly string[]) => names.find((n) => have.has(n));
  const show = (row: Row, names: readonly string[]) => {
    const col = pick(names);
    const v = col ? row[col] : undefined;
    if (v instanceof Date) return v.toISOString().replace('T', ' ').slice(0, 19);
    if (Array.isArray(v)) return v.join(', ');
    return v === undefined || v === null ? '' : String(v);
  };
  return { has: (c: string) => have.has(c), pick, show };
}

async function outboxColumns(pool: pg.Pool): Promise<string[] | undefined> {
  const exists = await pool.query<{ t: string | null }>(`SELECT to_regclass('mail_outbox')::text AS t`);
  if (!exists.rows[0]?.t) return undefined;
  const cols = await pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'mail_outbox' AND table_schema = current_schema()`,
  );
  return cols.rows.map((c) => c.column_name);
}

/**
 * `atende mail list`: e-mails the install could not send (no SMTP configured)
 * and kept in the `mail_outbox` table, newest first. Password-reset links
 * reach the superadmin this way.
 */
export async function mailList(ctx: CliContext, opts: { limit: number }): Promise<void> {
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    const columns = await outboxColumns(db.pool);
    if (!columns) {
      ctx.out('Nenhum e-mail na caixa de saída');
      return;
    }
    const { has, pick, show } = columnPicker(columns);
    const order = pick(FIELDS.when) ?? (has('id') ? 'id' : undefined);
    const r = await db.pool.query<Row>(
      `SELECT * FROM mail_outbox${order ? ` ORDER BY "${order}" DESC` : ''} LIMIT $1`,
      [opts.limit],
    );
    if (!r.rows.length) {
      ctx.out('Nenhum e-mail na caixa de saída');
      return;
    }
    const rows = r.rows.map((row) => [show(row, ['id']), show(row, FIELDS.when), show(row, FIELDS.to), show(row, FIELDS.status), show(row, FIELDS.subject)]);
    for (const line of table(['ID', 'QUANDO', 'PARA', 'ESTADO', 'ASSUNTO'], rows)) ctx.out(line);
  });
}

/** `atende mail show <id>`: one e-mail of the outbox in full (the reset link is in its body). */
export async function mailShow(ctx: CliContext, id: string): Promise<void> {
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    const columns = await outboxColumns(db.pool);
    const { has, show } = columnPicker(columns ?? []);
    const r = columns && has('id') ? await db.pool.query<Row>('SELECT * FROM mail_outbox WHERE id::text = $1', [id]) : undefined;
    const row = r?.rows[0];
    if (!row) throw new CliError(`Nenhum e-mail com o ID ${id} na caixa de saída (veja: npx atende mail list).`);
    ctx.out(`Para:    ${show(row, FIELDS.to)}`);
    ctx.out(`Assunto: ${show(row, FIELDS.subject)}`);
    ctx.out(`Quando:  ${show(row, FIELDS.when)}`);
    ctx.out('');
    for (const line of show(row, FIELDS.body).split('\n')) ctx.out(line);
  });
}
