import { AppError, sql, type PluginContext, type z } from '@atende/core/sdk';
import type { Lane, laneCreateBody, laneUpdateBody } from './contract.ts';

interface LaneRow {
  id: number;
  name: string;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export const laneOut = (r: LaneRow): Lane => ({
  id: r.id,
  name: r.name,
  position: r.position,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const duplicateName = (err: unknown): never => {
  if ((err as { code?: string }).code === '23505') throw new AppError('ERR_LANE_EXISTS');
  throw err;
};

export async function listLanes(ctx: PluginContext, tenantId: number): Promise<Lane[]> {
  const rows = await ctx.query<LaneRow>(sql`SELECT * FROM kanban_lanes WHERE tenant_id = ${tenantId} ORDER BY position, id`);
  return rows.map(laneOut);
}

export async function findLane(ctx: PluginContext, tenantId: number, id: number): Promise<Lane> {
  const [row] = await ctx.query<LaneRow>(sql`SELECT * FROM kanban_lanes WHERE tenant_id = ${tenantId} AND id = ${id}`);
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return laneOut(row);
}

/** A new lane goes last unless a position is given; the others shift to keep positions 0..n-1. */
export async function createLane(ctx: PluginContext, tenantId: number, input: z.output<typeof laneCreateBody>): Promise<Lane> {
  const [row] = await ctx
    .query<LaneRow>(
      sql`WITH n AS (SELECT count(*)::int AS n FROM kanban_lanes WHERE tenant_id = ${tenantId})
          INSERT INTO kanban_lanes (tenant_id, name, position) SELECT ${tenantId}, ${input.name}, LEAST(COALESCE(${input.position ?? null}::int, n.n), n.n) FROM n RETURNING *`,
    )
    .catch(duplicateName);
  const lane = laneOut(row!);
  if (input.position !== undefined) await normalise(ctx, tenantId, lane.id, lane.position);
  return findLane(ctx, tenantId, lane.id);
}

export async function updateLane(ctx: PluginContext, tenantId: number, id: number, input: z.output<typeof laneUpdateBody>): Promise<Lane> {
  await findLane(ctx, tenantId, id);
  if (input.name !== undefined) await ctx.query(sql`UPDATE kanban_lanes SET name = ${input.name}, updated_at = now() WHERE tenant_id = ${tenantId} AND id = ${id}`).catch(duplicateName);
  if (input.position !== undefined) await normalise(ctx, tenantId, id, input.position);
  return findLane(ctx, tenantId, id);
}

/** Deletes a lane; its contacts leave it with it (the schema cascades) and show under "Sem lane". */
export async function deleteLane(ctx: PluginContext, tenantId: number, id: number): Promise<void> {
  await findLane(ctx, tenantId, id);
  await ctx.query(sql`DELETE FROM kanban_lanes WHERE tenant_id = ${tenantId} AND id = ${id}`);
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
  await ctx.query(
    sql`UPDATE kanban_lanes l SET position = o.pos - 1, updated_at = now()
          FROM unnest(${ids}::int[]) WITH ORDINALITY AS o(id, pos)
         WHERE l.tenant_id = ${tenantId} AND l.id = o.id`,
  );
  return listLanes(ctx, tenantId);
}

/**
 * Renumbers positions 0..n-1 in one statement; with `moved`, that lane takes
 * the asked position and the others keep their relative order around it.
 */
async function normalise(ctx: PluginContext, tenantId: number, moved?: number, position?: number) {
  const lane = moved ?? 0;
  const at = position ?? null;
  await ctx.query(
    sql`WITH others AS (
          SELECT id, row_number() OVER (ORDER BY position, id) - 1 AS r FROM kanban_lanes WHERE tenant_id = ${tenantId} AND id <> ${lane}),
        keys AS (
          SELECT id, CASE WHEN r < ${at}::int THEN r * 2 ELSE r * 2 + 1 END AS k FROM others
          UNION ALL SELECT id, ${at}::int * 2 FROM kanban_lanes WHERE tenant_id = ${tenantId} AND id = ${lane}),
        ordered AS (SELECT id, row_number() OVER (ORDER BY k, id) - 1 AS pos FROM keys)
        UPDATE kanban_lanes l SET position = o.pos FROM ordered o WHERE l.tenant_id = ${tenantId} AND l.id = o.id AND l.position <> o.pos`,
  );
}
