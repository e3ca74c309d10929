import { AppError, definePlugin, idParam, principalOf, sql, z, type SqlQuery } from '@atende/core/sdk';
import { Readable } from 'node:stream';
import {
  contactPage, contactReportQuery, contract, exportInput, exportState, reportOptions, ticketPage, ticketReportQuery, userStats, userStatsQuery,
  type ExportState,
} from './contract.ts';
import { CONTACT_SHEET, TICKET_SHEET, USER_SHEET, listingBatches, writeXlsx } from './excel.ts';
import { contactReport, ticketReport, userStatsReport, type ContactReportKind, type Listing } from './queries.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const fileStream = z.custom<Readable>((v) => v instanceof Readable).meta({ type: 'string', format: 'binary' });

interface ExportRow {
  id: number;
  report: ExportState['report'];
  status: ExportState['status'];
  progress: number;
  rows: number | null;
  query: Record<string, unknown>;
  created_at: Date;
}
const exportOut = (r: ExportRow): ExportState => ({
  id: r.id,
  report: r.report,
  status: r.status,
  progress: r.progress,
  rows: r.rows,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(new Date(r.created_at).getTime() + 86_400_000).toISOString(),
});

/**
 * Reports (administration.md §2 `/relatorios`, §3 "Report columns", §5
 * "Reports"): tickets by parameters, the per-user summary and the contact
 * reports, read through the kernel's read-only views. The `reports` menu
 * (supervisors, admins; tenant and user toggles) guards every route, so
 * regular agents never reach them, and a supervisor or admin sees the whole
 * tenant's tickets as the ticket panel does.
 */
export default definePlugin({
  id: 'reports',
  kind: 'feature',
  name: 'Relatórios',
  description: 'Relatórios de atendimentos, por usuário e de contatos, com impressão.',
  contract,
  migrations: [
    {
      name: '0001_exports',
      up: [
        // An Excel export of one report with the filters it ran with; the file is kept a day (older rows are purged).
        `CREATE TABLE reports_exports (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          user_id integer NOT NULL,
          report text NOT NULL,
          query jsonb NOT NULL DEFAULT '{}',
          status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed')),
          progress integer NOT NULL DEFAULT 0,
          rows integer,
          file bytea,
          created_at timestamptz NOT NULL DEFAULT now(),
          finished_at timestamptz)`,
        `CREATE INDEX reports_exports_tenant_idx ON reports_exports (tenant_id, user_id, id DESC)`,
        `CREATE INDEX reports_exports_created_idx ON reports_exports (created_at)`,
      ],
    },
  ],
  ui: true,
  register(ctx) {
    const tags = ['reports'];
    const config = { access: { menu: 'reports' } };

    const tenantOf = async (tenantId: number) =>
      (await ctx.query<{ name: string; timezone: string | null }>(sql`SELECT name, timezone FROM v_tenants WHERE id = ${tenantId}`))[0] ?? { name: '', timezone: null };

    async function page<R>(l: Listing<R>, q: { pageNumber: number; limit: number }) {
      const [rows, total] = await Promise.all([ctx.query(l.rows(q.limit, (q.pageNumber - 1) * q.limit)), ctx.query<{ n: number }>(l.count)]);
      const count = total[0]?.n ?? 0;
      return { rows: rows.map(l.map), count, hasMore: q.pageNumber * q.limit < count };
    }

    ctx.http.get('/options', { config, schema: { operationId: 'reportOptions', tags, summary: 'Opções dos filtros dos relatórios', response: { 200: reportOptions } } }, async (req) => {
      const tenantId = principalOf(req).tenantId;
      const [tenant, queues, users, channels, tagRows, states, demands] = await Promise.all([
        tenantOf(tenantId),
        ctx.queues.list(tenantId),
        ctx.users.list(tenantId),
        ctx.query<{ id: number; name: string }>(sql`SELECT id, name FROM v_channels WHERE tenant_id = ${tenantId} ORDER BY lower(name), id`),
        ctx.query<{ id: number; name: string }>(sql`SELECT id, name FROM v_tags WHERE tenant_id = ${tenantId} ORDER BY lower(name), id`),
        ctx.query<{ state: string }>(sql`SELECT DISTINCT state FROM v_contacts WHERE tenant_id = ${tenantId} AND state IS NOT NULL AND state <> '' ORDER BY state`),
        ctx.query<{ demand: string }>(sql`SELECT DISTINCT demand FROM v_tickets WHERE tenant_id = ${tenantId} AND demand IS NOT NULL AND demand <> '' ORDER BY demand`),
      ]);
      return {
        tenantName: tenant.name,
        queues: queues.map((q) => ({ id: q.id, name: q.name })),
        users: users.map((u) => ({ id: u.id, name: u.name })),
        channels,
        tags: tagRows,
        states: states.map((s) => s.state),
        demands: demands.map((d) => d.demand),
      };
    });

    ctx.http.get(
      '/tickets',
      { config, schema: { operationId: 'reportTickets', tags, summary: 'Atendimentos por parâmetros (datas e filas obrigatórias)', querystring: ticketReportQuery, response: { 200: ticketPage } } },
      async (req) => {
        const tenantId = principalOf(req).tenantId;
        const tz = (await tenantOf(tenantId)).timezone || 'America/Sao_Paulo';
        return page(ticketReport(tenantId, tz, req.query), req.query);
      },
    );

    ctx.http.get(
      '/users',
      { config, schema: { operationId: 'reportUserStats', tags, summary: 'Estatísticas de atendimentos por usuário', querystring: userStatsQuery, response: { 200: userStats } } },
      async (req) => {
        const tenantId = principalOf(req).tenantId;
        const tz = (await tenantOf(tenantId)).timezone || 'America/Sao_Paulo';
        const r = userStatsReport(tenantId, tz, req.query);
        const rows = (await ctx.query(r.rows)).map(r.map);
        const sum = (k: 'pending' | 'open' | 'closed' | 'total') => rows.reduce((a, x) => a + x[k], 0);
        return { rows, totals: { pending: sum('pending'), open: sum('open'), closed: sum('closed'), total: sum('total') } };
      },
    );

    /**
     * A report's rows for the Excel file: the same statements as the screen, parsed with the
     * same schemas, so a bad filter or a missing required one is refused before anything is queued.
     */
    async function exportPlan(tenantId: number, report: ExportState['report'], raw: Record<string, unknown>) {
      const tz = (await tenantOf(tenantId)).timezone || 'America/Sao_Paulo';
      const parse = <S extends z.ZodType>(s: S): z.output<S> => {
        const r = s.safeParse(raw);
        if (!r.success) throw new AppError('ERR_VALIDATION', { details: r.error.issues.map((i) => i.message).join('; ') });
        return r.data;
      };
      const run = <R>(l: Listing<R>, sheet: { title: string; columns: [string, (r: R) => string | number | null][] }) => ({
        count: async () => (await ctx.query<{ n: number }>(l.count))[0]?.n ?? 0,
        write: (onBatch: (n: number) => Promise<void>) => writeXlsx(sheet, listingBatches(<T>(q: SqlQuery) => ctx.query<T>(q), l), onBatch),
      });
      if (report === 'atendimentos-por-parametros') return run(ticketReport(tenantId, tz, parse(ticketReportQuery)), TICKET_SHEET);
      if (report === 'estatisticas-atendimentos-usuarios') {
        const r = userStatsReport(tenantId, tz, parse(userStatsQuery));
        const rows = async () => (await ctx.query(r.rows)).map(r.map);
        return {
          count: async () => (await rows()).length,
          write: (onBatch: (n: number) => Promise<void>) =>
            writeXlsx(USER_SHEET, (async function* () { yield await rows(); })(), onBatch),
        };
      }
      return run(contactReport(tenantId, report, parse(contactReportQuery)), CONTACT_SHEET);
    }

    ctx.jobs.define<{ tenantId: number; exportId: number }>(
      'export',
      async ({ tenantId, exportId }) => {
        const [row] = await ctx.query<ExportRow>(sql`SELECT * FROM reports_exports WHERE tenant_id = ${tenantId} AND id = ${exportId}`);
        if (!row || row.status === 'done') return;
        try {
          const plan = await exportPlan(tenantId, row.report, row.query);
          const total = Math.max(1, await plan.count());
          await ctx.query(sql`UPDATE reports_exports SET status = 'running', progress = 0, rows = ${total} WHERE tenant_id = ${tenantId} AND id = ${exportId}`);
          const { file, rows } = await plan.write(async (n) => {
            await ctx.query(sql`UPDATE reports_exports SET progress = ${Math.min(99, Math.floor((n * 100) / total))} WHERE tenant_id = ${tenantId} AND id = ${exportId}`);
          });
          await ctx.sql(`UPDATE reports_exports SET status = 'done', progress = 100, rows = $3, file = $4, finished_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, exportId, rows, file]);
        } catch (err) {
          ctx.logger.error({ err, exportId }, 'report export failed');
          await ctx.query(sql`UPDATE reports_exports SET status = 'failed', finished_at = now() WHERE tenant_id = ${tenantId} AND id = ${exportId}`);
        }
      },
      { concurrency: 2 },
    );

    const mine = async (req: Parameters<typeof principalOf>[0], id: number) => {
      const who = principalOf(req);
      const [row] = await ctx.query<ExportRow>(
        sql`SELECT id, report, status, progress, rows, query, created_at FROM reports_exports
             WHERE tenant_id = ${who.tenantId} AND user_id = ${who.userId} AND id = ${id} AND created_at > now() - interval '1 day'`,
      );
      if (!row) throw new AppError('ERR_NOT_FOUND');
      return row;
    };

    ctx.http.post(
      '/exports',
      { config, schema: { operationId: 'exportReport', tags, summary: 'Gera o Excel de um relatório em segundo plano', body: exportInput, response: { 201: exportState } } },
      async (req, reply) => {
        const who = principalOf(req);
        await exportPlan(who.tenantId, req.body.report, req.body.query);
        // Files are kept a day: each new export clears the expired ones.
        await ctx.query(sql`DELETE FROM reports_exports WHERE tenant_id = ${who.tenantId} AND created_at < now() - interval '1 day'`);
        const [row] = await ctx.query<ExportRow>(
          sql`INSERT INTO reports_exports (tenant_id, user_id, report, query) VALUES (${who.tenantId}, ${who.userId}, ${req.body.report}, ${JSON.stringify(req.body.query)}::jsonb)
              RETURNING id, report, status, progress, rows, query, created_at`,
        );
        await ctx.jobs.enqueue('export', { tenantId: who.tenantId, exportId: row!.id });
        return reply.status(201).send(exportOut(row!));
      },
    );

    ctx.http.get(
      '/exports/:id',
      { config, schema: { operationId: 'getReportExport', tags, summary: 'Andamento de uma exportação', params: idParam, response: { 200: exportState } } },
      async (req) => exportOut(await mine(req, req.params.id)),
    );

    ctx.http.get(
      '/exports/:id/file',
      { config, schema: { operationId: 'downloadReportExport', tags, summary: 'Baixa o Excel pronto', params: idParam, response: { 200: { description: 'O arquivo', content: { [XLSX]: { schema: fileStream } } } } } },
      async (req, reply) => {
        const row = await mine(req, req.params.id);
        if (row.status !== 'done') throw new AppError('ERR_NOT_FOUND');
        const who = principalOf(req);
        const r = await ctx.sql<{ file: Buffer }>('SELECT file FROM reports_exports WHERE tenant_id = $1 AND id = $2', [who.tenantId, row.id]);
        return reply
          .header('content-type', XLSX)
          .header('content-disposition', `attachment; filename="${row.report}-${row.id}.xlsx"`)
          .send(Readable.from([r.rows[0]!.file]));
      },
    );

    const contactKinds: [ContactReportKind, string, string][] = [
      ['lista-contatos', 'reportContacts', 'Lista de contatos'],
      ['contatos-por-etiquetas', 'reportContactsByTag', 'Contatos por etiquetas (ao menos uma)'],
      ['contatos-por-estado', 'reportContactsByState', 'Contatos por estado (ao menos um)'],
      ['contatos-por-carteira', 'reportContactsByWallet', 'Contatos por carteira (ao menos uma)'],
    ];
    for (const [kind, operationId, summary] of contactKinds) {
      ctx.http.get(
        `/contacts/${kind}`,
        { config, schema: { operationId, tags, summary, querystring: contactReportQuery, response: { 200: contactPage } } },
        async (req) => page(contactReport(principalOf(req).tenantId, kind, req.query), req.query),
      );
    }
  },
});
