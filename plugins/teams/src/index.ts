import { AppError, definePlugin, idParam, principalOf, sql, z, type PluginContext } from '@atende/core/sdk';
import { contract, team, teamBody, teamUser, type Team } from './contract.ts';

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

interface TeamRow {
  id: number;
  name: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  users: { id: number; name: string }[];
}

const out = (r: TeamRow): Team => ({ id: r.id, name: r.name, active: r.active, users: r.users, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() });

/** Teams with their members' names (the kernel's `v_users`). */
const selectTeams = (tenantId: number) => sql`
  SELECT t.id, t.name, t.active, t.created_at, t.updated_at,
         COALESCE(json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.name) FILTER (WHERE u.id IS NOT NULL), '[]') AS users
    FROM teams_teams t
    LEFT JOIN teams_members m ON m.tenant_id = t.tenant_id AND m.team_id = t.id
    LEFT JOIN v_users u ON u.tenant_id = t.tenant_id AND u.id = m.user_id
   WHERE t.tenant_id = ${tenantId}`;

async function loadTeam(ctx: PluginContext, tenantId: number, id: number): Promise<Team> {
  const [row] = await ctx.query<TeamRow>(sql`${selectTeams(tenantId)} AND t.id = ${id} GROUP BY t.id`);
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return out(row);
}

/** Members come only from the tenant's own users: any other id is "user not found", whoever owns it. */
async function checkMembers(ctx: PluginContext, tenantId: number, userIds: number[]): Promise<number[]> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return ids;
  if ((await ctx.users.list(tenantId, { ids })).length !== ids.length) throw new AppError('ERR_NO_USER_FOUND');
  return ids;
}

const uniqueName = (err: unknown): never => {
  if ((err as { code?: string }).code === '23505') throw new AppError('ERR_TEAM_EXISTS');
  throw err;
};

export default definePlugin({
  id: 'teams',
  kind: 'feature',
  name: 'Equipes',
  description: 'Equipes de usuários (usadas também pelas conversas de equipe do chat interno).',
  contract,
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
    const tags = ['teams'];
    const access = { access: { menu: 'teams' } };
    // Team events (names, members) reach only who may open the teams screen, as its routes decide (X1-8).
    for (const event of ['team.created', 'team.updated', 'team.deleted']) ctx.realtime.addVisibilityFilter(event, (who) => ctx.visibility.mayUseMenu(who, 'teams'));

    ctx.http.get('/teams', { config: access, schema: { operationId: 'listTeams', tags, summary: 'Lista as equipes com seus membros', response: { 200: z.array(team) } } }, async (req) => {
      const rows = await ctx.query<TeamRow>(sql`${selectTeams(principalOf(req).tenantId)} GROUP BY t.id ORDER BY lower(t.name), t.id`);
      return rows.map(out);
    });

    ctx.http.post('/teams', { config: access, schema: { operationId: 'createTeam', tags, summary: 'Cria uma equipe', body: teamBody, response: { 201: team } } }, async (req, reply) => {
      const { tenantId } = principalOf(req);
      const b = req.body;
      if (!b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: 'nome' });
      const members = await checkMembers(ctx, tenantId, b.userIds ?? []);
      // One statement: the team and its members are stored together or not at all.
      const [row] = await ctx
        .query<{ id: number }>(
          sql`WITH t AS (INSERT INTO teams_teams (tenant_id, name, active) VALUES (${tenantId}, ${b.name}, ${b.active ?? true}) RETURNING id),
                   m AS (INSERT INTO teams_members (tenant_id, team_id, user_id) SELECT ${tenantId}, t.id, u FROM t, unnest(${members}::int[]) u)
              SELECT id FROM t`,
        )
        .catch(uniqueName);
      const created = await loadTeam(ctx, tenantId, row!.id);
      await ctx.events.publish(tenantId, 'team.created', created);
      return reply.status(201).send(created);
    });

    ctx.http.put(
      '/teams/:id',
      { config: access, schema: { operationId: 'updateTeam', tags, summary: 'Altera uma equipe (nome, ativa, membros)', params: idParam, body: teamBody, response: { 200: team } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        const { id } = req.params;
        const b = req.body;
        if (b.name !== undefined && !b.name) throw new AppError('ERR_REQUIRED_FIELD', { field: 'nome' });
        await loadTeam(ctx, tenantId, id);
        const members = b.userIds ? await checkMembers(ctx, tenantId, b.userIds) : null;
        await ctx
          .query(
            sql`WITH t AS (UPDATE teams_teams SET name = COALESCE(${b.name ?? null}, name), active = COALESCE(${b.active ?? null}::boolean, active), updated_at = now()
                           WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id),
                     d AS (DELETE FROM teams_members WHERE ${members}::int[] IS NOT NULL AND tenant_id = ${tenantId} AND team_id = ${id} AND NOT (user_id = ANY(${members}::int[]))),
                     i AS (INSERT INTO teams_members (tenant_id, team_id, user_id) SELECT ${tenantId}, ${id}, u FROM unnest(COALESCE(${members}::int[], '{}')) u ON CONFLICT DO NOTHING)
                SELECT id FROM t`,
          )
          .catch(uniqueName);
        const updated = await loadTeam(ctx, tenantId, id);
        await ctx.events.publish(tenantId, 'team.updated', updated);
        return updated;
      },
    );

    ctx.http.delete('/teams/:id', { config: access, schema: { operationId: 'deleteTeam', tags, summary: 'Exclui uma equipe', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
      const { tenantId } = principalOf(req);
      const { id } = req.params;
      const gone = await ctx.query(sql`DELETE FROM teams_teams WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING id`);
      if (!gone.length) throw new AppError('ERR_NOT_FOUND');
      await ctx.events.publish(tenantId, 'team.deleted', { id });
      return reply.status(204).send(null);
    });

    /** The tenant's users a team may hold (the drawer's member picker): names and whether active, nothing more. */
    ctx.http.get('/users', { config: access, schema: { operationId: 'listTeamUsers', tags, summary: 'Usuários que podem ser membros de uma equipe', response: { 200: z.array(teamUser) } } }, async (req) =>
      (await ctx.users.list(principalOf(req).tenantId)).map((u) => ({ id: u.id, name: u.name, active: u.active })),
    );
  },
});
