import { AppError, definePlugin, escapeLike, idParam, principalOf, sql, z, type PluginContext, type Principal, type SqlQuery } from '@atende/core/sdk';
import { PRIORITIES, STATUSES, comment, commentBody, contract, createdComment, finishAnswer, listQuery, owner, task, taskBody, type Task } from './contract.ts';

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

export const taskOut = (r: TaskRow): Task => ({
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

/** The tasks of a tenant with their people's names (the kernel's `v_users`) and status worked out from the clock. */
const selectTasks = (tenantId: number) => sql`
  SELECT t.id, t.name, t.description, t.limit_date, t.owner_id, o.name AS owner_name, t.created_by, c.name AS created_by_name,
         t.priority, t.recurrence_days, t.repetitions, t.parent_id, t.finished_at, t.created_at, t.updated_at,
         CASE WHEN t.status = 'finished' THEN 'finished' WHEN t.limit_date < now() THEN 'delayed' ELSE 'pending' END AS status,
         (SELECT count(*)::int FROM tasks_comments k WHERE k.tenant_id = t.tenant_id AND k.task_id = t.id) AS comment_count
    FROM tasks_tasks t
    LEFT JOIN v_users o ON o.tenant_id = t.tenant_id AND o.id = t.owner_id
    LEFT JOIN v_users c ON c.tenant_id = t.tenant_id AND c.id = t.created_by
   WHERE t.tenant_id = ${tenantId}`;

/** Admins, supervisors and the superadmin see the tenant's tasks; a user only their own. */
const seesAll = (p: Principal) => p.profile !== 'user';
const mayAct = (p: Principal, t: { ownerId: number | null; createdById: number | null }) => seesAll(p) || t.ownerId === p.userId || t.createdById === p.userId;

function parseDate(raw: string): Date {
  const d = new Date(raw);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1900 || d.getUTCFullYear() > 2200) throw new AppError('ERR_INVALID_DATE');
  return d;
}

async function ownerOk(ctx: PluginContext, tenantId: number, ownerId: number): Promise<void> {
  if (!(await ctx.users.get(tenantId, ownerId))) throw new AppError('ERR_NO_USER_FOUND');
}

export default definePlugin({
  id: 'tasks',
  kind: 'feature',
  name: 'Tarefas',
  description: 'Tarefas com prazo, responsável, prioridade, comentários e recorrência.',
  contract,
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
    const tags = ['tasks'];
    const access = { access: { menu: 'tasks' } };

    // Task events go to the tenant room; each socket receives only the tasks its user may see.
    for (const event of ['task.created', 'task.updated', 'task.finished', 'task.deleted']) {
      ctx.realtime.addVisibilityFilter(event, (who, data: Task) => mayAct(who, data), (data: Task) => ({ event: 'task.removed', data: { id: data.id } }));
    }

    async function load(tenantId: number, id: number): Promise<Task> {
      const [row] = await ctx.query<TaskRow>(sql`${selectTasks(tenantId)} AND t.id = ${id}`);
      if (!row) throw new AppError('ERR_NOT_FOUND');
      return taskOut(row);
    }

    /** A task the caller may act on; a task they may not see is simply not found. */
    async function visible(p: Principal, id: number): Promise<Task> {
      const t = await load(p.tenantId, id);
      if (!mayAct(p, t)) throw new AppError('ERR_NOT_FOUND');
      return t;
    }

    ctx.http.get(
      '/tasks',
      { config: access, schema: { operationId: 'listTasks', tags, summary: 'Lista as tarefas (atrasadas primeiro, depois por data limite)', querystring: listQuery, response: { 200: z.array(task) } } },
      async (req) => {
        const p = principalOf(req);
        const q = req.query;
        const filters: SqlQuery[] = [];
        if (!seesAll(p)) filters.push(sql`(t.owner_id = ${p.userId} OR t.created_by = ${p.userId})`);
        if (q.ownerId) filters.push(sql`t.owner_id = ${q.ownerId}`);
        if (q.priority) filters.push(sql`t.priority = ${q.priority}`);
        if (q.searchParam) {
          const like = `%${escapeLike(q.searchParam)}%`;
          filters.push(sql`(t.name ILIKE ${like} OR t.description ILIKE ${like})`);
        }
        const rows = await ctx.query<TaskRow>(
          sql`SELECT * FROM (${selectTasks(p.tenantId)}${filters.length ? sql` AND ${sql.join(filters, sql` AND `)}` : sql``}) s
               WHERE (${q.status ?? null}::text IS NULL OR s.status = ${q.status ?? null})
               ORDER BY CASE s.status WHEN 'delayed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, s.limit_date, s.id
               LIMIT 500`,
        );
        return rows.map(taskOut);
      },
    );

    ctx.http.get(
      '/tasks/:id',
      { config: access, schema: { operationId: 'getTask', tags, summary: 'Uma tarefa', params: idParam, response: { 200: task } } },
      async (req) => visible(principalOf(req), req.params.id),
    );

    ctx.http.post(
      '/tasks',
      { config: access, schema: { operationId: 'createTask', tags, summary: 'Cria uma tarefa', body: taskBody, response: { 201: task } } },
      async (req, reply) => {
        const p = principalOf(req);
        const b = req.body;
        if (!b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.name });
        if (!b.limitDate) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.limitDate });
        const limit = parseDate(b.limitDate);
        const ownerId = b.ownerId ?? p.userId;
        await ownerOk(ctx, p.tenantId, ownerId);
        const rec = b.recurrence ?? 0;
        const [row] = await ctx.query<{ id: number }>(
          sql`INSERT INTO tasks_tasks (tenant_id, name, description, limit_date, owner_id, created_by, priority, recurrence_days, repetitions)
              VALUES (${p.tenantId}, ${b.name}, ${b.description || null}, ${limit}, ${ownerId}, ${p.userId}, ${b.priority ?? 'none'}, ${rec}, ${rec ? (b.repetitions ?? 1) : 0})
              RETURNING id`,
        );
        const created = await load(p.tenantId, row!.id);
        await ctx.events.publish(p.tenantId, 'task.created', created);
        return reply.status(201).send(created);
      },
    );

    ctx.http.put(
      '/tasks/:id',
      { config: access, schema: { operationId: 'updateTask', tags, summary: 'Altera uma tarefa', params: idParam, body: taskBody, response: { 200: task } } },
      async (req) => {
        const p = principalOf(req);
        const { id } = req.params;
        const b = req.body;
        await visible(p, id);
        if (b.name !== undefined && !b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.name });
        if (b.limitDate !== undefined && !b.limitDate) throw new AppError('ERR_REQUIRED_FIELD', { field: FIELD.limitDate });
        const limit = b.limitDate ? parseDate(b.limitDate) : null;
        if (b.ownerId) await ownerOk(ctx, p.tenantId, b.ownerId);
        const rec = b.recurrence ?? null;
        await ctx.query(
          sql`UPDATE tasks_tasks SET name = COALESCE(${b.name ?? null}, name),
                     description = CASE WHEN ${b.description !== undefined}::boolean THEN ${b.description || null} ELSE description END,
                     limit_date = COALESCE(${limit}, limit_date), owner_id = COALESCE(${b.ownerId ?? null}, owner_id), priority = COALESCE(${b.priority ?? null}, priority),
                     recurrence_days = COALESCE(${rec}::int, recurrence_days),
                     repetitions = CASE WHEN COALESCE(${rec}::int, recurrence_days) = 0 THEN 0 ELSE COALESCE(${b.repetitions ?? null}::int, NULLIF(repetitions, 0), 1) END,
                     updated_at = now()
               WHERE tenant_id = ${p.tenantId} AND id = ${id}`,
        );
        const updated = await load(p.tenantId, id);
        await ctx.events.publish(p.tenantId, 'task.updated', updated);
        return updated;
      },
    );

    /**
     * Finishing a recurring task creates its next occurrence right here, in the
     * same statement, rather than from a scheduled job: the next occurrence only
     * exists once the current one is done (an unfinished one stays "delayed"
     * instead of piling up copies), it appears at once for the owner, and the
     * unique index on (tenant_id, parent_id) makes a double finish harmless.
     * The next limit date is the previous one plus the recurrence, and it carries
     * one repetition less; at zero the series ends.
     */
    ctx.http.put(
      '/tasks/:id/finish',
      { config: access, schema: { operationId: 'finishTask', tags, summary: 'Conclui uma tarefa (e cria a próxima, se recorrente)', params: idParam, response: { 200: finishAnswer } } },
      async (req) => {
        const p = principalOf(req);
        const { id } = req.params;
        const before = await visible(p, id);
        if (before.status === 'finished') return { task: before, next: null };
        const [r] = await ctx.query<{ next_id: number | null }>(
          sql`WITH f AS (
                 UPDATE tasks_tasks SET status = 'finished', finished_at = now(), updated_at = now()
                  WHERE tenant_id = ${p.tenantId} AND id = ${id} AND status = 'pending' RETURNING *),
               n AS (
                 INSERT INTO tasks_tasks (tenant_id, name, description, limit_date, owner_id, created_by, priority, recurrence_days, repetitions, parent_id)
                 SELECT tenant_id, name, description, limit_date + make_interval(days => recurrence_days), owner_id, created_by, priority,
                        recurrence_days, repetitions - 1, id
                   FROM f WHERE recurrence_days > 0 AND repetitions > 0
                 ON CONFLICT (tenant_id, parent_id) WHERE parent_id IS NOT NULL DO NOTHING
                 RETURNING id)
              SELECT (SELECT id FROM n) AS next_id`,
        );
        const finished = await load(p.tenantId, id);
        await ctx.events.publish(p.tenantId, 'task.finished', finished);
        let next: Task | null = null;
        if (r?.next_id) {
          next = await load(p.tenantId, r.next_id);
          await ctx.events.publish(p.tenantId, 'task.created', next);
        }
        return { task: finished, next };
      },
    );

    ctx.http.delete(
      '/tasks/:id',
      { config: access, schema: { operationId: 'deleteTask', tags, summary: 'Exclui uma tarefa', params: idParam, response: { 204: z.null() } } },
      async (req, reply) => {
        const p = principalOf(req);
        const { id } = req.params;
        const t = await visible(p, id);
        if (!seesAll(p) && t.createdById !== p.userId) throw new AppError('ERR_NO_PERMISSION');
        await ctx.query(sql`DELETE FROM tasks_tasks WHERE tenant_id = ${p.tenantId} AND id = ${id}`);
        await ctx.events.publish(p.tenantId, 'task.deleted', { id, ownerId: t.ownerId, createdById: t.createdById });
        return reply.status(204).send(null);
      },
    );

    ctx.http.get(
      '/tasks/:id/comments',
      { config: access, schema: { operationId: 'listTaskComments', tags, summary: 'Comentários de uma tarefa', params: idParam, response: { 200: z.array(comment) } } },
      async (req) => {
        const p = principalOf(req);
        const { id } = req.params;
        await visible(p, id);
        const rows = await ctx.query<{ id: number; body: string; user_id: number | null; user_name: string | null; created_at: Date }>(
          sql`SELECT k.id, k.body, k.user_id, u.name AS user_name, k.created_at FROM tasks_comments k
                LEFT JOIN v_users u ON u.tenant_id = k.tenant_id AND u.id = k.user_id
               WHERE k.tenant_id = ${p.tenantId} AND k.task_id = ${id} ORDER BY k.id`,
        );
        return rows.map((c) => ({ id: c.id, body: c.body, userId: c.user_id, userName: c.user_name, createdAt: c.created_at.toISOString() }));
      },
    );

    ctx.http.post(
      '/tasks/:id/comments',
      { config: access, schema: { operationId: 'addTaskComment', tags, summary: 'Comenta uma tarefa', params: idParam, body: commentBody, response: { 201: createdComment } } },
      async (req, reply) => {
        const p = principalOf(req);
        const { id } = req.params;
        const text = req.body.body;
        if (!text) throw new AppError('ERR_REQUIRED_FIELD', { field: 'comentário' });
        await visible(p, id);
        const [row] = await ctx.query<{ id: number; created_at: Date }>(
          sql`INSERT INTO tasks_comments (tenant_id, task_id, user_id, body) VALUES (${p.tenantId}, ${id}, ${p.userId}, ${text}) RETURNING id, created_at`,
        );
        const added = { id: row!.id, taskId: id, body: text, userId: p.userId, userName: p.name, createdAt: row!.created_at.toISOString() };
        await ctx.events.publish(p.tenantId, 'task.updated', await load(p.tenantId, id));
        return reply.status(201).send(added);
      },
    );

    /** Who a task can be given to (the owner picker and filter): the tenant's active users, names only. */
    ctx.http.get(
      '/owners',
      { config: access, schema: { operationId: 'listTaskOwners', tags, summary: 'Usuários a quem uma tarefa pode ser atribuída', response: { 200: z.array(owner) } } },
      async (req) => (await ctx.users.list(principalOf(req).tenantId, { activeOnly: true })).map((u) => ({ id: u.id, name: u.name })),
    );
  },
});
