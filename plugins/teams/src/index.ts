import { AppError, definePlugin, z, type PluginContext } from '@atende/core/sdk';

/**
 * Teams (spec core.md §3 "Team: name, active, users"; screen `/equipes`,
 * menu `teams`: supervisor, admin, superadmin, hidden by the tenant's `teams`
 * flag or the user's `teams` toggle).
 *
 * Other plugins never import this code. What they may rely on is the SQL view
 * `teams_memberships` (documented in docs/agent-tools.md), owned and migrated
 * here: one row per member of a team, `(tenant_id, team_id, team_name,
 * team_active, user_id)`. A plugin that reads it declares `dependsOn: ['teams']`
 * so the view exists before its own migrations and routes.
 */

const MAX_MEMBERS = 500;
const body = z
  .object({
    name: z.string().trim().max(120).optional(),
    active: z.boolean().optional(),
    userIds: z.array(z.number().int().positive()).max(MAX_MEMBERS).optional(),
  })
  .strict();
const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
type Body = z.infer<typeof body>;

interface TeamRow {
  id: number;
  name: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  users: { id: number; name: string }[];
}

const out = (r: TeamRow) => ({ id: r.id, name: r.name, active: r.active, users: r.users, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() });

const SELECT_TEAMS = `
  SELECT t.id, t.name, t.active, t.created_at, t.updated_at,
         COALESCE(json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.name) FILTER (WHERE u.id IS NOT NULL), '[]') AS users
    FROM teams_teams t
    LEFT JOIN teams_members m ON m.tenant_id = t.tenant_id AND m.team_id = t.id
    LEFT JOIN users u ON u.id = m.user_id AND u.tenant_id = t.tenant_id
   WHERE t.tenant_id = $1`;

async function loadTeam(ctx: PluginContext, tenantId: number, id: number): Promise<TeamRow> {
  const r = await ctx.sql<TeamRow>(`${SELECT_TEAMS} AND t.id = $2 GROUP BY t.id`, [tenantId, id]);
  if (!r.rows[0]) throw new AppError('ERR_NOT_FOUND');
  return r.rows[0];
}

/** Members come only from the tenant's own users: any other id is "user not found", whoever owns it. */
async function checkMembers(ctx: PluginContext, tenantId: number, userIds: number[]): Promise<number[]> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return ids;
  const r = await ctx.sql<{ id: number }>('SELECT id FROM users WHERE tenant_id = $1 AND id = ANY($2::int[])', [tenantId, ids]);
  if (r.rows.length !== ids.length) throw new AppError('ERR_NO_USER_FOUND');
  return ids;
}

const uniqueName = (err: unknown) => {
  if ((err as { code?: string }).code === '23505') throw new AppError('ERR_VALIDATION', { details: 'já existe uma equipe com este nome' });
  throw err;
};

export default definePlugin({
  id: 'teams',
  kind: 'feature',
  name: 'Equipes',
  description: 'Equipes de usuários (usadas também pelas conversas de equipe do chat interno).',
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE teams_teams (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          name text NOT NULL,
          active boolean NOT NULL DEFAULT true,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE UNIQUE INDEX teams_teams_name_key ON teams_teams (tenant_id, lower(name))`,
        `CREATE TABLE teams_members (
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          team_id integer NOT NULL REFERENCES teams_teams(id) ON DELETE CASCADE,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          PRIMARY KEY (tenant_id, team_id, user_id))`,
        `CREATE INDEX teams_members_user_idx ON teams_members (tenant_id, user_id)`,
        // The published read model for other plugins (private-chat): membership of active and inactive teams.
        `CREATE VIEW teams_memberships AS
           SELECT m.tenant_id, m.team_id, t.name AS team_name, t.active AS team_active, m.user_id
             FROM teams_members m JOIN teams_teams t ON t.id = m.team_id AND t.tenant_id = m.tenant_id`,
      ],
    },
  ],
  menus: [{ key: 'teams', label: 'menu.teams', route: '/equipes', profiles: ['super', 'admin', 'superadmin'], tenantMenu: 'teams', userMenu: 'teams' }],
  ui: true,
  register(ctx) {
    const access = { config: { access: { menu: 'teams' } } };

    const publish = async (tenantId: number, event: string, data: unknown) => ctx.events.publish(tenantId, event, data);

    ctx.http.get('/teams', access, async (req) => {
      const r = await ctx.sql<TeamRow>(`${SELECT_TEAMS} GROUP BY t.id ORDER BY lower(t.name), t.id`, [req.principal!.tenantId]);
      return r.rows.map(out);
    });

    ctx.http.post('/teams', { ...access, schema: { body } }, async (req, reply) => {
      const tenantId = req.principal!.tenantId;
      const b = req.body as Body;
      if (!b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: 'nome' });
      const members = await checkMembers(ctx, tenantId, b.userIds ?? []);
      // One statement: the team and its members are stored together or not at all.
      const r = await ctx
        .sql<{ id: number }>(
          `WITH t AS (INSERT INTO teams_teams (tenant_id, name, active) VALUES ($1, $2, $3) RETURNING id),
                m AS (INSERT INTO teams_members (tenant_id, team_id, user_id) SELECT $1, t.id, u FROM t, unnest($4::int[]) u)
           SELECT id FROM t`,
          [tenantId, b.name, b.active ?? true, members],
        )
        .catch(uniqueName);
      const team = out(await loadTeam(ctx, tenantId, r.rows[0].id));
      await publish(tenantId, 'team.created', team);
      return reply.status(201).send(team);
    });

    ctx.http.put('/teams/:id', { ...access, schema: { params: idParam, body } }, async (req) => {
      const tenantId = req.principal!.tenantId;
      const { id } = req.params as z.infer<typeof idParam>;
      const b = req.body as Body;
      if (b.name !== undefined && !b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: 'nome' });
      await loadTeam(ctx, tenantId, id);
      const members = b.userIds ? await checkMembers(ctx, tenantId, b.userIds) : null;
      await ctx
        .sql(
          `WITH t AS (UPDATE teams_teams SET name = COALESCE($3, name), active = COALESCE($4, active), updated_at = now()
                       WHERE tenant_id = $1 AND id = $2 RETURNING id),
                d AS (DELETE FROM teams_members WHERE $5::int[] IS NOT NULL AND tenant_id = $1 AND team_id = $2 AND NOT (user_id = ANY($5::int[]))),
                i AS (INSERT INTO teams_members (tenant_id, team_id, user_id) SELECT $1, $2, u FROM unnest(COALESCE($5::int[], '{}')) u ON CONFLICT DO NOTHING)
           SELECT id FROM t`,
          [tenantId, id, b.name ?? null, b.active ?? null, members],
        )
        .catch(uniqueName);
      const team = out(await loadTeam(ctx, tenantId, id));
      await publish(tenantId, 'team.updated', team);
      return team;
    });

    ctx.http.delete('/teams/:id', { ...access, schema: { params: idParam } }, async (req, reply) => {
      const tenantId = req.principal!.tenantId;
      const { id } = req.params as z.infer<typeof idParam>;
      const r = await ctx.sql('DELETE FROM teams_teams WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      if (!r.rowCount) throw new AppError('ERR_NOT_FOUND');
      await publish(tenantId, 'team.deleted', { id });
      return reply.status(204).send();
    });

    /** The tenant's users a team may hold (the drawer's member picker). */
    ctx.http.get('/users', access, async (req) => {
      const r = await ctx.sql<{ id: number; name: string; email: string; profile: string; active: boolean }>(
        'SELECT id, name, email, profile, active FROM users WHERE tenant_id = $1 ORDER BY lower(name), id',
        [req.principal!.tenantId],
      );
      return r.rows;
    });
  },
});
