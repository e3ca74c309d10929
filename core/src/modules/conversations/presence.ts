import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { principalOf } from '../../sdk/http.ts';
import { visibilitySettings } from './visibility.ts';

export type PresenceStatus = 'online' | 'paused' | 'offline';

const setBody = z.object({
  status: z.enum(['online', 'paused', 'offline']),
  reason: z.string().trim().max(120, 'motivo da pausa com até 120 caracteres').optional(),
}).strict();
const listQuery = z.object({ queueId: z.coerce.number().int().positive().max(2_147_483_647).optional() }).strict();
const statusSchema = z.enum(['online', 'paused', 'offline']);
const presenceAnswer = z.object({ id: z.number().int(), status: statusSchema, chosen: statusSchema, pauseReason: z.string().nullable(), since: z.string() });
const presenceList = z.object({
  users: z.array(z.object({
    id: z.number().int(),
    name: z.string(),
    profile: z.string(),
    queues: z.array(z.number().int()),
    status: statusSchema,
    pauseReason: z.string().nullable(),
    since: z.string(),
    openTickets: z.number().int(),
    pendingTickets: z.number().int(),
  })),
});
const tags = ['presence'];

interface Row {
  id: number;
  name: string;
  profile: string;
  queues: number[];
  is_online: boolean;
  presence: PresenceStatus;
  pause_reason: string | null;
  presence_since: Date;
  open_tickets: number;
  pending_tickets: number;
}

/** Who may read why a colleague paused: the ticket supervisors (admin, supervisor) and the user themselves. */
const supervises = (profile: string) => profile === 'admin' || profile === 'super' || profile === 'superadmin';

/**
 * Agents' presence (U2): each agent says whether they are online, on a pause
 * (with its reason) or offline; whoever transfers a ticket and the supervisors
 * see every agent's status and load (open and pending tickets in their hands).
 * Without the app open a user is offline whatever they chose.
 */
export async function presenceRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pool = kernel.db.pool;

  r.put('/api/presence', { schema: { operationId: 'setPresence', tags, summary: 'Muda o próprio status: online, em pausa (com motivo) ou offline', body: setBody, response: { 200: presenceAnswer } } }, async (req) => {
    const p = principalOf(req);
    const { status } = req.body;
    const reason = status === 'paused' ? req.body.reason ?? '' : null;
    if (status === 'paused' && !reason) throw new AppError('ERR_VALIDATION', { details: 'informe o motivo da pausa' });
    const res = await pool.query<{ is_online: boolean; presence_since: Date }>(
      `UPDATE users SET presence = $3, pause_reason = $4,
              presence_since = CASE WHEN presence IS DISTINCT FROM $3 OR pause_reason IS DISTINCT FROM $4 THEN now() ELSE presence_since END, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING is_online, presence_since`,
      [p.tenantId, p.userId, status, reason],
    );
    const row = res.rows[0];
    if (!row) throw new AppError('ERR_NO_USER_FOUND');
    await kernel.bus.publish({ tenantId: p.tenantId, event: 'user.status_updated', data: { id: p.userId, isOnline: row.is_online, presence: status } });
    return { id: p.userId, status: row.is_online ? status : 'offline', chosen: status, pauseReason: reason, since: row.presence_since.toISOString() };
  });

  /** Active users of the tenant (of one queue with `queueId`) with status and load: online first, then the least busy. */
  r.get('/api/presence', { schema: { operationId: 'listPresence', tags, summary: 'Status e carga dos usuários (de uma fila com queueId)', querystring: listQuery, response: { 200: presenceList } } }, async (req) => {
    const p = principalOf(req);
    const rows = await pool.query<Row>(
      `WITH load AS (
         SELECT user_id, count(*) FILTER (WHERE status = 'open')::int AS open_tickets, count(*) FILTER (WHERE status = 'pending')::int AS pending_tickets
           FROM tickets WHERE tenant_id = $1 AND status IN ('open','pending') AND user_id IS NOT NULL GROUP BY user_id)
       SELECT u.id, u.name, u.profile, u.queues, u.is_online, u.presence, u.pause_reason, u.presence_since,
              coalesce(l.open_tickets, 0) AS open_tickets, coalesce(l.pending_tickets, 0) AS pending_tickets
         FROM users u LEFT JOIN load l ON l.user_id = u.id
        WHERE u.tenant_id = $1 AND u.active
          AND ($2::int IS NULL OR u.queues @> jsonb_build_array($2::int)
               OR u.profile IN ('admin','superadmin') OR (u.profile = 'super' AND NOT $3::boolean))`,
      // Of one queue: the people a ticket of it may be transferred to (tickets.ts `receivesQueue`): its members and the
      // ticket admins, who work every queue (a supervisor too unless supervisorAdmin makes them a regular user).
      [p.tenantId, req.query.queueId ?? null, (await visibilitySettings(kernel, p.tenantId)).supervisorAdmin === 'enabled'],
    );
    const rank: Record<PresenceStatus, number> = { online: 0, paused: 1, offline: 2 };
    const users = rows.rows.map((u) => {
      const status: PresenceStatus = u.is_online ? u.presence : 'offline';
      return {
        id: u.id,
        name: u.name,
        profile: u.profile,
        queues: u.queues,
        status,
        // Why a colleague paused is theirs and their supervisors' to know.
        pauseReason: status === 'paused' && (supervises(p.profile) || u.id === p.userId) ? u.pause_reason : null,
        since: u.presence_since.toISOString(),
        openTickets: u.open_tickets,
        pendingTickets: u.pending_tickets,
      };
    });
    users.sort((a, b) => rank[a.status] - rank[b.status] || a.openTickets - b.openTickets || a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id);
    return { users };
  });
}
