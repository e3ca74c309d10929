import { AppError, z, type PluginContext } from '@atende/core/sdk';

/** Lane: name, position (core.md §3; administration.md §3 "Lanes (name, position) … are configured here"). */
export interface Lane {
  id: number;
  name: string;
  position: number;
  createdAt: string;
  updatedAt: string;
}

interface LaneRow {
  id: number;
  name: string;
  position: number;
  created_at: Date;
  updated_at: Date;
}

const INT = 2_147_483_647;
export const laneName = z.string().trim().min(1, 'O campo nome é obrigatório').max(80);
export const laneCreateBody = z.object({ name: laneName, position: z.number().int().min(0).max(10_000).optional() }).strict();
export const laneUpdateBody = z.object({ name: laneName.optional(), position: z.number().int().min(0).max(10_000).optional() }).strict();
export const laneOrderBody = z.object({ ids: z.array(z.number().int().positive().max(INT)).min(1).max(500) }).strict();
export const laneIdParam = z.object({ id: z.coerce.number().int().positive().max(INT) });

export const laneOut = (r: LaneRow): Lane => ({
  id: r.id,
  name: r.name,
  position: r.position,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const duplicateName = (err: unknown): never => {
  if ((err as { code?: string }).code === '23505') throw new AppError('ERR_VALIDATION', { details: 'já existe uma lane com este nome' });
  throw err;
};

export async function listLanes(ctx: PluginContext, tenantId: number): Promise<Lane[]> {
  const r = await ctx.sql<LaneRow>('SELECT * FROM kanban_lanes WHERE tenant_id = $1 ORDER BY position, id', [tenantId]);
  return r.rows.map(laneOut);
}

export async function findLane(ctx: PluginContext, tenantId: number, id: number): Promise<Lane> {
  const r = await ctx.sql<LaneRow>('SELECT * FROM kanban_lanes WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  if (!r.rows[0]) throw new AppError('ERR_NOT_FOUND');
  return laneOut(r.rows[0]);
}

/** A new lane goes last unless a position is given; the others shift to keep positions 0..n-1. */
export async function createLane(ctx: PluginContext, tenantId: number, input: z.infer<typeof laneCreateBody>): Promise<Lane> {
  const r = await ctx
    .sql<LaneRow>(
      `WITH n AS (SELECT count(*)::int AS n FROM kanban_lanes WHERE tenant_id = $1)
       INSERT INTO kanban_lanes (tenant_id, name, position) SELECT $1, $2, LEAST(COALESCE($3::int, n.n), n.n) FROM n RETURNING *`,
      [tenantId, input.name, input.position ?? null],
    )
    .catch(duplicateName);
  const lane = laneOut(r.rows[0]!);
  if (input.position !== undefined) await normalise(ctx, tenantId, lane.id, lane.position);
  return findLane(ctx, tenantId, lane.id);
}

export async function updateLane(ctx: PluginContext, tenantId: number, id: number, input: z.infer<typeof laneUpdateBody>): Promise<Lane> {
  await findLane(ctx, tenantId, id);
  if (input.name !== undefined) await ctx.sql('UPDATE kanban_lanes SET name = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2', [tenantId, id, input.name]).catch(duplicateName);
  if (input.position !== undefined) await normalise(ctx, tenantId, id, input.position);
  return findLane(ctx, tenantId, id);
}

export async function deleteLane(ctx: PluginContext, tenantId: number, id: number): Promise<void> {
  await findLane(ctx, tenantId, id);
  await ctx.sql('DELETE FROM kanban_lanes WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  await normalise(ctx, tenantId);
}

/** Sets the order of every lane at once (the settings list is dragged as a whole). */
export async function reorderLanes(ctx: PluginContext, tenantId: number, ids: number[]): Promise<Lane[]> {
  const current = await listLanes(ctx, tenantId);
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length || unique.length !== current.length || !current.every((l) => unique.includes(l.id))) {
    // Another tenant's lane id is as unknown as a missing one.
    throw new AppError('ERR_NOT_FOUND');
  }
  await ctx.sql(
    `UPDATE kanban_lanes l SET position = o.pos - 1, updated_at = now()
       FROM unnest($2::int[]) WITH ORDINALITY AS o(id, pos)
      WHERE l.tenant_id = $1 AND l.id = o.id`,
    [tenantId, ids],
  );
  return listLanes(ctx, tenantId);
}

/**
 * Renumbers positions 0..n-1 in one statement; with `moved`, that lane takes
 * the asked position and the others keep their relative order around it.
 */
async function normalise(ctx: PluginContext, tenantId: number, moved?: number, position?: number) {
  await ctx.sql(
    `WITH others AS (
       SELECT id, row_number() OVER (ORDER BY position, id) - 1 AS r FROM kanban_lanes WHERE tenant_id = $1 AND id <> $2),
     keys AS (
       SELECT id, CASE WHEN r < $3::int THEN r * 2 ELSE r * 2 + 1 END AS k FROM others
       UNION ALL SELECT id, $3::int * 2 FROM kanban_lanes WHERE tenant_id = $1 AND id = $2),
     ordered AS (SELECT id, row_number() OVER (ORDER BY k, id) - 1 AS pos FROM keys)
     UPDATE kanban_lanes l SET position = o.pos FROM ordered o WHERE l.tenant_id = $1 AND l.id = o.id AND l.position <> o.pos`,
    [tenantId, moved ?? 0, position ?? null],
  );
}
