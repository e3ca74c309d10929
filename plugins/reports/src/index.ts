import { definePlugin, principalOf, sql } from '@atende/core/sdk';
import { contactPage, contactReportQuery, contract, reportOptions, ticketPage, ticketReportQuery, userStats, userStatsQuery } from './contract.ts';
import { contactReport, ticketReport, userStatsReport, type ContactReportKind, type Listing } from './queries.ts';

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
