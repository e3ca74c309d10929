import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import type { MigrationDef } from '../../sdk/types.ts';
import { AppError } from '../../errors.ts';
import type { KernelModule } from '../index.ts';
import { principalOf } from '../../sdk/http.ts';

const DAY_MS = 86_400_000;
/** Longest range one call may cover: a year of daily points. */
export const MAX_RANGE_DAYS = 366;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use AAAA-MM-DD');
export const dashboardQuery = z.object({
  from: isoDay.optional(),
  to: isoDay.optional(),
  /** IANA time zone the days are counted in (the browser's); default America/Sao_Paulo. */
  tz: z.string().max(64).optional(),
});

const validTz = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const int = z.number().int();

/** The dashboard's answer (`dashboardStats`); ratings are averages rounded to two decimals. */
export const dashboardStatsSchema = z.object({
  range: z.object({ from: z.string(), to: z.string(), tz: z.string(), scope: z.enum(['tenant', 'user']) }),
  totals: z.object({ created: int, open: int, pending: int, closed: int, unanswered: int, transfers: int }),
  byStatus: z.array(z.object({ status: z.string(), count: int })),
  perDay: z.array(z.object({ day: z.string(), created: int, closed: int })),
  firstResponseSeconds: int.nullable(),
  resolutionSeconds: int.nullable(),
  perQueue: z.array(z.object({ queueId: int.nullable(), name: z.string().nullable(), color: z.string().nullable(), count: int })),
  perAgent: z.array(z.object({ userId: int.nullable(), name: z.string().nullable(), count: int, closed: int, rating: z.number().nullable() })),
  rating: z.object({ average: z.number().nullable(), count: int }),
});

export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

/**
 * Ticket statistics for the dashboard (`/home`), from tickets, messages and
 * ticket_logs of the caller's tenant. Admins and supervisors see the whole
 * tenant; agents see the tickets assigned to them. The range is counted on
 * the tickets' creation day in the caller's time zone.
 */
export async function dashboardStats(kernel: Kernel, who: { tenantId: number; userId: number; profile: string }, q: z.infer<typeof dashboardQuery>): Promise<DashboardStats> {
  const tz = q.tz ?? 'America/Sao_Paulo';
  if (!validTz(tz)) throw new AppError('ERR_VALIDATION', { details: 'fuso horário inválido' });
  const today = new Date().toLocaleDateString('en-CA', { timeZone: tz });
  const to = q.to ?? today;
  const from = q.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;
  if (!Number.isFinite(span) || span < 0 || span >= MAX_RANGE_DAYS) throw new AppError('ERR_VALIDATION', { details: `intervalo inválido (de 1 a ${MAX_RANGE_DAYS} dias)` });
  const scope: 'tenant' | 'user' = ['admin', 'super', 'superadmin'].includes(who.profile) ? 'tenant' : 'user';

  // $1 tenant, $2 from, $3 to, $4 tz, $5 user (or null for the whole tenant).
  const params = [who.tenantId, from, to, tz, scope === 'user' ? who.userId : null];
  const inRange = `t.tenant_id = $1
      AND t.created_at >= ($2::date)::timestamp AT TIME ZONE $4
      AND t.created_at < ($3::date + 1)::timestamp AT TIME ZONE $4
      AND ($5::int IS NULL OR t.user_id = $5::int)`;
  const pool = kernel.db.pool;
  const [summary, perDay, perQueue, perAgent, active] = await Promise.all([
    pool.query<{ created: number; closed: number; unanswered: number; transfers: number; first_response: number | null; resolution: number | null; rating_avg: number | null; rating_count: number; by_status: Record<string, number> | null }>(
      `WITH r AS (SELECT t.id, t.status, t.created_at, t.closed_at, t.rating, t.answered FROM tickets t WHERE ${inRange}),
            first_reply AS (
              SELECT r.id, (SELECT min(m.created_at) FROM messages m
                             WHERE m.tenant_id = $1 AND m.ticket_id = r.id AND m.from_me AND NOT m.is_note AND m.deleted_at IS NULL) AS at,
                     r.created_at
                FROM r)
       SELECT (SELECT count(*)::int FROM r) AS created,
              (SELECT count(*)::int FROM r WHERE status = 'closed') AS closed,
              (SELECT count(*)::int FROM r WHERE NOT answered AND status <> 'closed') AS unanswered,
              (SELECT count(*)::int FROM ticket_logs l JOIN r ON r.id = l.ticket_id WHERE l.tenant_id = $1 AND l.type IN ('transferred', 'transferred_to_chatbot')) AS transfers,
              (SELECT avg(extract(epoch FROM at - created_at))::float8 FROM first_reply WHERE at IS NOT NULL) AS first_response,
              (SELECT avg(extract(epoch FROM closed_at - created_at))::float8 FROM r WHERE status = 'closed' AND closed_at IS NOT NULL) AS resolution,
              (SELECT avg(rating)::float8 FROM r WHERE rating IS NOT NULL) AS rating_avg,
              (SELECT count(*)::int FROM r WHERE rating IS NOT NULL) AS rating_count,
              (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM r GROUP BY status) s) AS by_status`,
      params,
    ),
    pool.query<{ day: string; created: number; closed: number }>(
      `WITH days AS (SELECT generate_series($2::date, $3::date, interval '1 day')::date AS day),
            c AS (SELECT (t.created_at AT TIME ZONE $4)::date AS day, count(*)::int AS n FROM tickets t WHERE ${inRange} GROUP BY 1),
            x AS (SELECT (t.closed_at AT TIME ZONE $4)::date AS day, count(*)::int AS n FROM tickets t
                   WHERE ${inRange} AND t.status = 'closed' AND t.closed_at IS NOT NULL GROUP BY 1)
       SELECT to_char(days.day, 'YYYY-MM-DD') AS day, COALESCE(c.n, 0) AS created, COALESCE(x.n, 0) AS closed
         FROM days LEFT JOIN c ON c.day = days.day LEFT JOIN x ON x.day = days.day ORDER BY days.day`,
      params,
    ),
    pool.query<{ queue_id: number | null; name: string | null; color: string | null; count: number }>(
      `SELECT t.queue_id, q.name, q.color, count(*)::int AS count FROM tickets t
         LEFT JOIN queues q ON q.id = t.queue_id AND q.tenant_id = t.tenant_id
        WHERE ${inRange} GROUP BY t.queue_id, q.name, q.color ORDER BY count DESC, q.name NULLS LAST LIMIT 20`,
      params,
    ),
    pool.query<{ user_id: number | null; name: string | null; count: number; closed: number; rating: number | null }>(
      `SELECT t.user_id, u.name, count(*)::int AS count, count(*) FILTER (WHERE t.status = 'closed')::int AS closed, avg(t.rating)::float8 AS rating
         FROM tickets t LEFT JOIN users u ON u.id = t.user_id AND u.tenant_id = t.tenant_id
        WHERE ${inRange} GROUP BY t.user_id, u.name ORDER BY count DESC, u.name NULLS LAST LIMIT 20`,
      params,
    ),
    // Open and pending right now, whatever the range (the active-counts index answers it).
    pool.query<{ open: number; pending: number }>(
      `SELECT count(*) FILTER (WHERE status = 'open')::int AS open, count(*) FILTER (WHERE status = 'pending')::int AS pending
         FROM tickets t WHERE t.tenant_id = $1 AND t.status IN ('open', 'pending') AND ($2::int IS NULL OR t.user_id = $2::int)`,
      [who.tenantId, scope === 'user' ? who.userId : null],
    ),
  ]);
  const s = summary.rows[0]!;
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return {
    range: { from, to, tz, scope },
    totals: { created: s.created, open: active.rows[0]!.open, pending: active.rows[0]!.pending, closed: s.closed, unanswered: s.unanswered, transfers: s.transfers },
    byStatus: Object.entries(s.by_status ?? {}).map(([status, count]) => ({ status, count })).sort((a, b) => b.count - a.count),
    perDay: perDay.rows,
    firstResponseSeconds: round(s.first_response),
    resolutionSeconds: round(s.resolution),
    perQueue: perQueue.rows.map((r) => ({ queueId: r.queue_id, name: r.name, color: r.color, count: r.count })),
    perAgent: perAgent.rows.map((r) => ({ userId: r.user_id, name: r.name, count: r.count, closed: r.closed, rating: r.rating === null ? null : Math.round(r.rating * 100) / 100 })),
    rating: { average: s.rating_avg === null ? null : Math.round(s.rating_avg * 100) / 100, count: s.rating_count },
  };
}

export async function dashboardRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboard',
    { config: { access: { menu: 'dashboard' } }, schema: { operationId: 'getDashboard', tags: ['dashboard'], summary: 'Estatísticas de atendimento do período', querystring: dashboardQuery, response: { 200: dashboardStatsSchema } } },
    async (req) => dashboardStats(kernel, principalOf(req), req.query),
  );
}

/** The creation-time range scans of the dashboard start with tenant_id like every other index. */
export const dashboardMigrations: MigrationDef[] = [
  { name: '0001_tickets_created_idx', up: ['CREATE INDEX IF NOT EXISTS tickets_created_idx ON tickets (tenant_id, created_at)'] },
];

/** Dashboard statistics (`GET /api/dashboard`). */
export const dashboardModule: KernelModule = { name: 'dashboard', entities: [], migrations: dashboardMigrations, routes: dashboardRoutes };
