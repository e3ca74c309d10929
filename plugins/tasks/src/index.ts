import { AppError, definePlugin, z, type PluginContext, type Principal } from '@atende/core/sdk';

/**
 * Tasks (spec core.md §3 "Task: id, name, description, limit date, owner,
 * priority, comments, status, recurrence, repetition count", §4 statuses
 * delayed / pending / finished and priorities high / medium / low / none,
 * §5 'O campo {field} é obrigatório', §9 recurrence none or 7, 30, 45, 60,
 * 75, 90 days). Screen `/tarefas`, menu `tasks` (every profile; the tenant's
 * and the user's `tasks` flags can hide it).
 *
 * Status is stored as `pending` or `finished`; `delayed` is never stored: it is
 * a pending task whose limit date has passed, computed in SQL on every read, so
 * it can never disagree with the clock.
 *
 * Who sees what: admins and supervisors see every task of the tenant; a user
 * sees the tasks they own or created. Only those may edit, comment or finish a
 * task; deleting is for its creator, admins and supervisors.
 */

export const PRIORITIES = ['high', 'medium', 'low', 'none'] as const;
export const RECURRENCE_DAYS = [0, 7, 30, 45, 60, 75, 90] as const;
export const STATUSES = ['delayed', 'pending', 'finished'] as const;

const recurrence = z.union(RECURRENCE_DAYS.map((d) => z.literal(d)) as unknown as [z.ZodLiteral<0>, z.ZodLiteral<7>]);
const isoDate = z.string().max(40);

/** Required fields are optional in the schema so a missing one answers the spec's own message (ERR_REQUIRED_FIELD), not a schema dump. */
const taskBody = z
  .object({
    name: z.string().trim().max(200).optional(),
    description: z.string().max(5000).optional().nullable(),
    limitDate: isoDate.optional().nullable(),
    ownerId: z.number().int().positive().max(2_147_483_647).optional().nullable(),
    priority: z.enum(PRIORITIES).optional(),
    recurrence: recurrence.optional(),
    repetitions: z.number().int().min(0).max(100).optional(),
  })
  .strict();
type TaskBody = z.infer<typeof taskBody>;

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const listQuery = z
  .object({
    status: z.enum(STATUSES).optional(),
    ownerId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    priority: z.enum(PRIORITIES).optional(),
    searchParam: z.string().max(200).optional(),
  })
  .strict();
const commentBody = z.object({ body: z.string().trim().max(5000).optional() }).strict();

const FIELD = { name: 'nome', limitDate: 'data limite' } as const;

interface TaskRow {
  id: number;
  name: string;
  description: string | null;
  limit_date: Date;
  owner_id: number | null;
  owner_name: string | null;
  created_by: number | null;
  created_by_name: string | null;
  priority: (typeof PRIORITIES)[number];
  status: (typeof STATUSES)[number];
  recurrence_days: number;
  repetitions: number;
  parent_id: number | null;
  finished_at: Date | null;
  comment_count: number;
  created_at: Date;
  updated_at: Date;
}

export const taskOut = (r: TaskRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  limitDate: r.limit_date.toISOString(),
  ownerId: r.owner_id,
  ownerName: r.owner_name,
  createdById: r.created_by,
  createdByName: r.created_by_name,
  priority: r.priority,
  status: r.status,
  recurrence: r.recurrence_days,
  repetitions: r.repetitions,
  previousId: r.parent_id,
  finishedAt: r.finished_at?.toISOString() ?? null,
  commentCount: r.comment_count,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});
type TaskOut = ReturnType<typeof taskOut>;

const SELECT = `
  SELECT t.id, t.name, t.description, t.limit_date, t.owner_id, o.name AS owner_name, t.created_by, c.name AS created_by_name,
         t.priority, t.recurrence_days, t.repetitions, t.parent_id, t.finished_at, t.created_at, t.updated_at,
         CASE WHEN t.status = 'finished' THEN 'finished' WHEN t.limit_date < now() THEN 'delayed' ELSE 'pending' END AS status,
         (SELECT count(*)::int FROM tasks_comments k WHERE k.tenant_id = t.tenant_id AND k.task_id = t.id) AS comment_count
    FROM tasks_tasks t
    LEFT JOIN users o ON o.id = t.owner_id AND o.tenant_id = t.tenant_id
    LEFT JOIN users c ON c.id = t.created_by AND c.tenant_id = t.tenant_id
   WHERE t.tenant_id = $1`;

/** Admins, supervisors and the superadmin see the tenant's tasks; a user only their own. */
const seesAll = (p: Principal) => p.profile !== 'user';
const mayAct = (p: Principal, t: { ownerId: number | null; createdById: number | null }) => seesAll(p) || t.ownerId === p.userId || t.createdById === p.userId;

function parseDate(raw: string): Date {
  const d = new Date(raw);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1900 || d.getUTCFullYear() > 2200) throw new AppError('ERR_INVALID_DATE');
  return d;
}

async function ownerOk(ctx: PluginContext, tenantId: number, ownerId: number): Promise<void> {
  const r = await ctx.sql('SELECT 1 FROM users WHERE tenant_id = $1 AND id = $2', [tenantId, ownerId]);
  if (!r.rowCount) throw new AppError('ERR_NO_USER_FOUND');
}

export default definePlugin({
  id: 'tasks',
  kind: 'feature',
  name: 'Tarefas',
  description: 'Tarefas com prazo, responsável, prioridade, comentários e recorrência.',
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE tasks_tasks (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          name text NOT NULL,
          description text,
          limit_date timestamptz NOT NULL,
          owner_id integer REFERENCES users(id) ON DELETE SET NULL,
          created_by integer REFERENCES users(id) ON DELETE SET NULL,
          priority text NOT NULL DEFAULT 'none' CHECK (priority IN ('high', 'medium', 'low', 'none')),
          status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'finished')),
          recurrence_days integer NOT NULL DEFAULT 0 CHECK (recurrence_days IN (0, 7, 30, 45, 60, 75, 90)),
          repetitions integer NOT NULL DEFAULT 0 CHECK (repetitions >= 0),
          parent_id integer REFERENCES tasks_tasks(id) ON DELETE SET NULL,
          finished_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE INDEX tasks_tasks_list_idx ON tasks_tasks (tenant_id, status, limit_date)`,
        `CREATE INDEX tasks_tasks_owner_idx ON tasks_tasks (tenant_id, owner_id)`,
        // One next occurrence per finished task, whatever races the finish.
        `CREATE UNIQUE INDEX tasks_tasks_parent_key ON tasks_tasks (tenant_id, parent_id) WHERE parent_id IS NOT NULL`,
        `CREATE TABLE tasks_comments (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          task_id integer NOT NULL REFERENCES tasks_tasks(id) ON DELETE CASCADE,
          user_id integer REFERENCES users(id) ON DELETE SET NULL,
          body text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE INDEX tasks_comments_task_idx ON tasks_comments (tenant_id, task_id, id)`,
      ],
    },
  ],
  menus: [{ key: 'tasks', label: 'menu.tasks', route: '/tarefas', profiles: ['user', 'super', 'admin', 'superadmin'], tenantMenu: 'tasks', userMenu: 'tasks' }],
  ui: true,
  register(ctx) {
    const access = { config: { access: { menu: 'tasks' } } };

    // Task events go to the tenant room; each socket receives only the tasks its user may see.
    for (const event of ['task.created', 'task.updated', 'task.finished', 'task.deleted']) {
      ctx.realtime.addVisibilityFilter(event, (who, data: TaskOut) => mayAct(who, data), (data: TaskOut) => ({ event: 'task.removed', data: { id: data.id } }));
    }

    async function load(tenantId: number, id: number): Promise<TaskOut> {
      const r = await ctx.sql<TaskRow>(`${SELECT} AND t.id = $2`, [tenantId, id]);
      if (!r.rows[0]) throw new AppError('ERR_NOT_FOUND');
      return taskOut(r.rows[0]);
    }

    /** A task the caller may act on; a task they may not see is simply not found. */
    async function visible(p: Principal, id: number): Promise<TaskOut> {
      const t = await load(p.tenantId, id);
      if (!mayAct(p, t)) throw new AppError('ERR_NOT_FOUND');
      return t;
    }

    ctx.http.get('/tasks', { ...access, schema: { querystring: listQuery } }, async (req) => {
      const p = req.principal!;
      const q = req.query as z.infer<typeof listQuery>;
      const r = await ctx.sql<TaskRow>(
        `SELECT * FROM (${SELECT}
            AND ($2::boolean OR t.owner_id = $3 OR t.created_by = $3)
            AND ($4::int IS NULL OR t.owner_id = $4)
            AND ($5::text IS NULL OR t.priority = $5)
            AND ($6::text IS NULL OR t.name ILIKE $6 OR t.description ILIKE $6)) s
          WHERE ($7::text IS NULL OR s.status = $7)
          ORDER BY CASE s.status WHEN 'delayed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, s.limit_date, s.id
          LIMIT 500`,
        [p.tenantId, seesAll(p), p.userId, q.ownerId ?? null, q.priority ?? null, q.searchParam ? `%${q.searchParam.replace(/[\\%_]/g, '\\$&')}%` : null, q.status ?? null],
      );
      return r.rows.map(taskOut);
    });

    ctx.http.get('/tasks/:id', { ...access, schema: { params: idParam } }, async (req) => visible(req.principal!, (req.params as z.infer<typeof idParam>).id));

    ctx.http.post('/tasks', { ...access, schema: { body: taskBody } }, async (req, reply) => {
      const p = req.principal!;
      const b = req.body as TaskBody;
      if (!b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.name });
      if (!b.limitDate) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.limitDate });
      const limit = parseDate(b.limitDate);
      const ownerId = b.ownerId ?? p.userId;
      await ownerOk(ctx, p.tenantId, ownerId);
      const rec = b.recurrence ?? 0;
      const r = await ctx.sql<{ id: number }>(
        `INSERT INTO tasks_tasks (tenant_id, name, description, limit_date, owner_id, created_by, priority, recurrence_days, repetitions)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [p.tenantId, b.name, b.description || null, limit, ownerId, p.userId, b.priority ?? 'none', rec, rec ? (b.repetitions ?? 1) : 0],
      );
      const task = await load(p.tenantId, r.rows[0].id);
      await ctx.events.publish(p.tenantId, 'task.created', task);
      return reply.status(201).send(task);
    });

    ctx.http.put('/tasks/:id', { ...access, schema: { params: idParam, body: taskBody } }, async (req) => {
      const p = req.principal!;
      const { id } = req.params as z.infer<typeof idParam>;
      const b = req.body as TaskBody;
      await visible(p, id);
      if (b.name !== undefined && !b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.name });
      if (b.limitDate !== undefined && !b.limitDate) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.limitDate });
      const limit = b.limitDate ? parseDate(b.limitDate) : null;
      if (b.ownerId) await ownerOk(ctx, p.tenantId, b.ownerId);
      const rec = b.recurrence;
      await ctx.sql(
        `UPDATE tasks_tasks SET name = COALESCE($3, name), description = CASE WHEN $4::boolean THEN $5 ELSE description END,
                limit_date = COALESCE($6, limit_date), owner_id = COALESCE($7, owner_id), priority = COALESCE($8, priority),
                recurrence_days = COALESCE($9, recurrence_days),
                repetitions = CASE WHEN COALESCE($9, recurrence_days) = 0 THEN 0 ELSE COALESCE($10, NULLIF(repetitions, 0), 1) END,
                updated_at = now()
          WHERE tenant_id = $1 AND id = $2`,
        [p.tenantId, id, b.name ?? null, b.description !== undefined, b.description || null, limit, b.ownerId ?? null, b.priority ?? null, rec ?? null, b.repetitions ?? null],
      );
      const task = await load(p.tenantId, id);
      await ctx.events.publish(p.tenantId, 'task.updated', task);
      return task;
    });

    /**
     * Finishing a recurring task creates its next occurrence right here, in the
     * same statement, rather than from a scheduled job: the next occurrence only
     * exists once the current one is done (an unfinished one stays "delayed"
     * instead of piling up copies), it appears at once for the owner, and the
     * unique index on (tenant_id, parent_id) makes a double finish harmless.
     * The next limit date is the previous one plus the recurrence, and it carries
     * one repetition less; at zero the series ends.
     */
    ctx.http.put('/tasks/:id/finish', { ...access, schema: { params: idParam } }, async (req) => {
      const p = req.principal!;
      const { id } = req.params as z.infer<typeof idParam>;
      const before = await visible(p, id);
      if (before.status === 'finished') return { task: before, next: null };
      const r = await ctx.sql<{ next_id: number | null }>(
        `WITH f AS (
            UPDATE tasks_tasks SET status = 'finished', finished_at = now(), updated_at = now()
             WHERE tenant_id = $1 AND id = $2 AND status = 'pending' RETURNING *),
          n AS (
            INSERT INTO tasks_tasks (tenant_id, name, description, limit_date, owner_id, created_by, priority, recurrence_days, repetitions, parent_id)
            SELECT tenant_id, name, description, limit_date + make_interval(days => recurrence_days), owner_id, created_by, priority,
                   recurrence_days, repetitions - 1, id
              FROM f WHERE recurrence_days > 0 AND repetitions > 0
            ON CONFLICT (tenant_id, parent_id) WHERE parent_id IS NOT NULL DO NOTHING
            RETURNING id)
         SELECT (SELECT id FROM n) AS next_id`,
        [p.tenantId, id],
      );
      const task = await load(p.tenantId, id);
      await ctx.events.publish(p.tenantId, 'task.finished', task);
      let next: TaskOut | null = null;
      if (r.rows[0]?.next_id) {
        next = await load(p.tenantId, r.rows[0].next_id);
        await ctx.events.publish(p.tenantId, 'task.created', next);
      }
      return { task, next };
    });

    ctx.http.delete('/tasks/:id', { ...access, schema: { params: idParam } }, async (req, reply) => {
      const p = req.principal!;
      const { id } = req.params as z.infer<typeof idParam>;
      const t = await visible(p, id);
      if (!seesAll(p) && t.createdById !== p.userId) throw new AppError('ERR_NO_PERMISSION');
      await ctx.sql('DELETE FROM tasks_tasks WHERE tenant_id = $1 AND id = $2', [p.tenantId, id]);
      await ctx.events.publish(p.tenantId, 'task.deleted', { id, ownerId: t.ownerId, createdById: t.createdById });
      return reply.status(204).send();
    });

    ctx.http.get('/tasks/:id/comments', { ...access, schema: { params: idParam } }, async (req) => {
      const p = req.principal!;
      const { id } = req.params as z.infer<typeof idParam>;
      await visible(p, id);
      const r = await ctx.sql<{ id: number; body: string; user_id: number | null; user_name: string | null; created_at: Date }>(
        `SELECT k.id, k.body, k.user_id, u.name AS user_name, k.created_at FROM tasks_comments k
           LEFT JOIN users u ON u.id = k.user_id AND u.tenant_id = k.tenant_id
          WHERE k.tenant_id = $1 AND k.task_id = $2 ORDER BY k.id`,
        [p.tenantId, id],
      );
      return r.rows.map((c) => ({ id: c.id, body: c.body, userId: c.user_id, userName: c.user_name, createdAt: c.created_at.toISOString() }));
    });

    ctx.http.post('/tasks/:id/comments', { ...access, schema: { params: idParam, body: commentBody } }, async (req, reply) => {
      const p = req.principal!;
      const { id } = req.params as z.infer<typeof idParam>;
      const text = (req.body as z.infer<typeof commentBody>).body;
      if (!text) throw new AppError('ERR_REQUIRED_FIELD', { field: 'comentário' });
      await visible(p, id);
      const r = await ctx.sql<{ id: number; created_at: Date }>(
        'INSERT INTO tasks_comments (tenant_id, task_id, user_id, body) VALUES ($1, $2, $3, $4) RETURNING id, created_at',
        [p.tenantId, id, p.userId, text],
      );
      const comment = { id: r.rows[0].id, taskId: id, body: text, userId: p.userId, userName: p.name, createdAt: r.rows[0].created_at.toISOString() };
      await ctx.events.publish(p.tenantId, 'task.updated', await load(p.tenantId, id));
      return reply.status(201).send(comment);
    });

    /** Who a task can be given to (the owner picker and filter): the tenant's active users. */
    ctx.http.get('/owners', access, async (req) => {
      const r = await ctx.sql<{ id: number; name: string }>('SELECT id, name FROM users WHERE tenant_id = $1 AND active ORDER BY lower(name), id', [req.principal!.tenantId]);
      return r.rows;
    });
  },
});
