import { AppError, definePlugin, z, type Profile } from '@atende/core/sdk';
import { board, boardQuery, cardOf, columnPage, columnParam, laneIdsOf, pageQuery, type Card } from './board.ts';
import { createLane, deleteLane, findLane, laneCreateBody, laneIdParam, laneOrderBody, laneUpdateBody, listLanes, reorderLanes, updateLane } from './lanes.ts';

const INT = 2_147_483_647;
const contactParam = z.object({ contactId: z.coerce.number().int().positive().max(INT) });
const moveBody = z.object({ laneId: z.number().int().positive().max(INT).nullable() }).strict();
const tagMoveBody = z.object({ from: z.number().int().positive().max(INT).nullable(), to: z.number().int().positive().max(INT).nullable() }).strict();
const ownerBody = z.object({ userId: z.number().int().positive().max(INT).nullable() }).strict();

/** Admins (and the platform superadmin) manage lanes and contact owners; the spec's "only an admin … in kanban" (core.md §6). */
const ADMINS: Profile[] = ['admin', 'superadmin'];
const LANE_EDITORS: Profile[] = ['admin', 'super', 'superadmin'];

/** What every board in the tenant needs to move one card without reloading: the card now and the columns it left. */
export interface CardEvent {
  card: Card;
  before: { laneId: number | null; tagIds: number[] };
}

export default definePlugin({
  id: 'kanban',
  kind: 'feature',
  name: 'Kanban',
  description: 'Quadro de contatos por lane e por etiqueta, com lanes configuráveis e atualização em tempo real.',
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE kanban_lanes (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          name text NOT NULL,
          position integer NOT NULL DEFAULT 0,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE UNIQUE INDEX kanban_lanes_name_key ON kanban_lanes (tenant_id, lower(name))`,
        `CREATE INDEX kanban_lanes_position_idx ON kanban_lanes (tenant_id, position, id)`,
        // A lane's column is a keyset walk over the kernel's contacts by (lane, name): without this
        // index a lane's page would filter every contact of the tenant. Read-only use of the kernel table.
        `CREATE INDEX kanban_contacts_lane_idx ON contacts (tenant_id, kanban, lower(name), id) WHERE NOT is_group`,
      ],
    },
  ],
  menus: [
    { key: 'kanban', label: 'menu.kanban', route: '/kanban', profiles: ['user', 'super', 'admin', 'superadmin'], tenantMenu: 'kanban', userMenu: 'kanban' },
    { key: 'kanban', label: 'menu.kanban', route: '/lanes', profiles: ['user', 'super', 'admin', 'superadmin'], tenantMenu: 'kanban', userMenu: 'kanban' },
    { key: 'settings', label: 'menu.settings', route: '/configuracoes/lanes', profiles: ['admin', 'superadmin'] },
  ],
  ui: true,
  register(ctx) {
    const read = { config: { access: { menu: 'kanban' } } };
    const editLanes = { config: { access: { menu: 'kanban', profiles: LANE_EDITORS } } };
    const admin = { config: { access: { menu: 'kanban', profiles: ADMINS } } };
    const tenantOf = (req: { principal?: { tenantId: number } }) => req.principal!.tenantId;

    // `{{kanban}}` in message templates names the contact's lane.
    ctx.templates.provide('kanban', async ({ tenantId, kanban }) => {
      if (kanban === null) return null;
      const r = await ctx.sql<{ name: string }>('SELECT name FROM kanban_lanes WHERE tenant_id = $1 AND id = $2', [tenantId, kanban]);
      return r.rows[0]?.name ?? null;
    });

    const lanesChanged = async (tenantId: number) => ctx.events.publish(tenantId, 'kanban.lanes_changed', { lanes: await listLanes(ctx, tenantId) });

    // ---- lanes (settings and /lanes) ----
    ctx.http.get('/lanes', read, async (req) => listLanes(ctx, tenantOf(req)));

    ctx.http.post('/lanes', { ...editLanes, schema: { body: laneCreateBody } }, async (req, reply) => {
      const lane = await createLane(ctx, tenantOf(req), req.body as z.infer<typeof laneCreateBody>);
      await lanesChanged(tenantOf(req));
      return reply.status(201).send(lane);
    });

    // Static path first: `/lanes/order` is not a lane id.
    ctx.http.put('/lanes/order', { ...editLanes, schema: { body: laneOrderBody } }, async (req) => {
      const lanes = await reorderLanes(ctx, tenantOf(req), (req.body as z.infer<typeof laneOrderBody>).ids);
      await lanesChanged(tenantOf(req));
      return lanes;
    });

    ctx.http.put('/lanes/:id', { ...editLanes, schema: { params: laneIdParam, body: laneUpdateBody } }, async (req) => {
      const lane = await updateLane(ctx, tenantOf(req), (req.params as z.infer<typeof laneIdParam>).id, req.body as z.infer<typeof laneUpdateBody>);
      await lanesChanged(tenantOf(req));
      return lane;
    });

    ctx.http.delete('/lanes/:id', { ...editLanes, schema: { params: laneIdParam } }, async (req, reply) => {
      // The lane's contacts keep their stored value and show as "Sem lane" (the board ignores unknown lanes).
      await deleteLane(ctx, tenantOf(req), (req.params as z.infer<typeof laneIdParam>).id);
      await lanesChanged(tenantOf(req));
      return reply.status(204).send();
    });

    // ---- the board ----
    ctx.http.get('/board', { ...read, schema: { querystring: boardQuery } }, async (req) => {
      const q = req.query as z.infer<typeof boardQuery>;
      return board(ctx, tenantOf(req), q.view, q.search, q.limit);
    });

    ctx.http.get('/lanes/:id/cards', { ...read, schema: { params: columnParam, querystring: pageQuery } }, async (req) => {
      const { id } = req.params as z.infer<typeof columnParam>;
      if (id > 0) await findLane(ctx, tenantOf(req), id);
      return columnPage(ctx, tenantOf(req), 'lanes', id, req.query as z.infer<typeof pageQuery>);
    });

    ctx.http.get('/tags/:id/cards', { ...read, schema: { params: columnParam, querystring: pageQuery } }, async (req) => {
      const { id } = req.params as z.infer<typeof columnParam>;
      if (id > 0) {
        const t = await ctx.sql('SELECT 1 FROM tags WHERE tenant_id = $1 AND id = $2', [tenantOf(req), id]);
        if (!t.rowCount) throw new AppError('ERR_NOT_FOUND');
      }
      return columnPage(ctx, tenantOf(req), 'tags', id, req.query as z.infer<typeof pageQuery>);
    });

    /** Applies a change through the kernel, then tells every board of the tenant where the card went. */
    const change = async (req: { principal?: { tenantId: number; userId: number; profile: Profile } }, contactId: number, patch: Parameters<typeof ctx.contacts.update>[2], event: string) => {
      const p = req.principal!;
      const before = await cardOf(ctx, p.tenantId, contactId);
      await ctx.contacts.update({ tenantId: p.tenantId, userId: p.userId, profile: p.profile }, contactId, patch);
      const card = await cardOf(ctx, p.tenantId, contactId);
      const data: CardEvent = { card, before: { laneId: before.laneId, tagIds: before.tags.map((t) => t.id) } };
      await ctx.events.publish(p.tenantId, event, data);
      return card;
    };

    // Moving a card sets the contact's lane (its `kanban` field in the kernel); null takes it out of every lane.
    ctx.http.put('/cards/:contactId/lane', { ...read, schema: { params: contactParam, body: moveBody } }, async (req) => {
      const { contactId } = req.params as z.infer<typeof contactParam>;
      const { laneId } = req.body as z.infer<typeof moveBody>;
      if (laneId !== null && !(await laneIdsOf(ctx, tenantOf(req))).includes(laneId)) throw new AppError('ERR_NOT_FOUND');
      return change(req, contactId, { kanban: laneId }, 'kanban.card_moved');
    });

    // In the tags view a drag swaps one tag for another (from: the column it left, to: the column it entered).
    ctx.http.put('/cards/:contactId/tag', { ...read, schema: { params: contactParam, body: tagMoveBody } }, async (req) => {
      const { contactId } = req.params as z.infer<typeof contactParam>;
      const { from, to } = req.body as z.infer<typeof tagMoveBody>;
      if (to !== null) {
        const t = await ctx.sql('SELECT 1 FROM tags WHERE tenant_id = $1 AND id = $2 AND active', [tenantOf(req), to]);
        if (!t.rowCount) throw new AppError('ERR_NOT_FOUND');
      }
      const current = (await cardOf(ctx, tenantOf(req), contactId)).tags.map((t) => t.id);
      const next = [...new Set([...current.filter((id) => id !== from), ...(to !== null ? [to] : [])])];
      return change(req, contactId, { tags: next }, 'kanban.card_moved');
    });

    // Assigning a contact to its owner (wallet) is an admin's call, whatever the contact's tickets (core.md §6).
    ctx.http.put('/cards/:contactId/owner', { ...admin, schema: { params: contactParam, body: ownerBody } }, async (req) => {
      const { contactId } = req.params as z.infer<typeof contactParam>;
      const { userId } = req.body as z.infer<typeof ownerBody>;
      return change(req, contactId, { wallets: userId === null ? [] : [userId] }, 'kanban.card_moved');
    });

    // Who can own a contact: the tenant's active users, for the admin's owner picker.
    ctx.http.get('/owners', admin, async (req) => {
      const r = await ctx.sql<{ id: number; name: string; profile: Profile }>('SELECT id, name, profile FROM users WHERE tenant_id = $1 AND active ORDER BY lower(name), id', [tenantOf(req)]);
      return r.rows;
    });
  },
});
