import { AppError, definePlugin, idParam, principalOf, sql, z, type PluginContext, type Principal, type Profile } from '@atende/core/sdk';
import { board, cardOf, columnPage, laneIdsOf, tagExists } from './board.ts';
import {
  board as boardSchema,
  boardQuery,
  card,
  cardPage,
  columnParam,
  columnQuery,
  contactParam,
  contract,
  lane,
  laneCreateBody,
  laneOrderBody,
  laneUpdateBody,
  moveBody,
  owner,
  ownerBody,
  tagMoveBody,
  type CardEvent,
} from './contract.ts';
import { createLane, deleteLane, findLane, listLanes, reorderLanes, updateLane } from './lanes.ts';

/** Admins (and the platform superadmin) assign contact owners; the spec's "only an admin … in kanban" (core.md §6). */
const ADMINS: Profile[] = ['admin', 'superadmin'];
const LANE_EDITORS: Profile[] = ['admin', 'super', 'superadmin'];

/** The contact's lane for the kernel's contact and ticket answers (`kanban`), and for `{{kanban}}`. */
function registerContactLane(ctx: PluginContext) {
  ctx.records.extend('contact', {
    fields: ['kanban'],
    async load(tenantId, ids) {
      const rows = await ctx.query<{ contact_id: number; lane_id: number }>(
        sql`SELECT contact_id, lane_id FROM kanban_contact_lanes WHERE tenant_id = ${tenantId} AND contact_id = ANY(${ids}::int[])`,
      );
      return new Map(rows.map((r) => [r.contact_id, { kanban: r.lane_id }]));
    },
    // `PUT /api/contacts/:id {kanban}` names one of the tenant's lanes, or null; another tenant's lane is as unknown as a missing one.
    // Cards are contacts, never groups (core.md §3), so a group holds no lane.
    async check(tenantId, { kanban }, contactId) {
      if (kanban === null || kanban === undefined) return;
      if (!Number.isInteger(kanban) || !(await laneIdsOf(ctx, tenantId)).includes(kanban as number)) throw new AppError('ERR_NOT_FOUND');
      if (contactId !== undefined && (await ctx.contacts.get(tenantId, contactId))?.isGroup) throw new AppError('ERR_LANE_GROUP');
    },
    async save(tenantId, contactId, { kanban }) {
      if (kanban === undefined) return;
      if (kanban === null) {
        await ctx.query(sql`DELETE FROM kanban_contact_lanes WHERE tenant_id = ${tenantId} AND contact_id = ${contactId}`);
        return;
      }
      await ctx
        .query(
          sql`INSERT INTO kanban_contact_lanes (tenant_id, contact_id, lane_id)
              SELECT ${tenantId}, c.id, ${kanban} FROM v_contacts c WHERE c.tenant_id = ${tenantId} AND c.id = ${contactId} AND NOT c.is_group
              ON CONFLICT (tenant_id, contact_id) DO UPDATE SET lane_id = EXCLUDED.lane_id, updated_at = now()`,
        )
        .catch((err: unknown) => {
          // The lane was deleted between the check and now.
          if ((err as { code?: string }).code === '23503') throw new AppError('ERR_NOT_FOUND');
          throw err;
        });
    },
  });

  // A ticket's `kanban` is its contact's lane (core.md §3 "Ticket: … kanban").
  ctx.records.extend('ticket', {
    fields: ['kanban'],
    async load(tenantId, ids) {
      const rows = await ctx.query<{ id: number; lane_id: number }>(
        sql`SELECT t.id, l.lane_id FROM v_tickets t JOIN kanban_contact_lanes l ON l.tenant_id = t.tenant_id AND l.contact_id = t.contact_id
             WHERE t.tenant_id = ${tenantId} AND t.id = ANY(${ids}::int[])`,
      );
      return new Map(rows.map((r) => [r.id, { kanban: r.lane_id }]));
    },
    // The events of an ingest batch carry tickets of many tenants: one query for all of them.
    async loadAcross(keys) {
      const rows = await ctx.query<{ id: number; lane_id: number }>(
        sql`SELECT t.id, l.lane_id FROM unnest(${keys.map((k) => k.tenantId)}::int[], ${keys.map((k) => k.id)}::int[]) AS k(tenant_id, id)
              JOIN v_tickets t ON t.tenant_id = k.tenant_id AND t.id = k.id
              JOIN kanban_contact_lanes l ON l.tenant_id = t.tenant_id AND l.contact_id = t.contact_id`,
      );
      return new Map(rows.map((r) => [r.id, { kanban: r.lane_id }]));
    },
  });

  // `{{kanban}}` names the contact's lane; birthday messages leave it empty (core.md §3).
  ctx.templates.provide('kanban', async ({ tenantId, contactId, birthday }) => {
    if (birthday || contactId === null) return null;
    const [row] = await ctx.query<{ name: string }>(
      sql`SELECT l.name FROM kanban_contact_lanes c JOIN kanban_lanes l ON l.tenant_id = c.tenant_id AND l.id = c.lane_id
           WHERE c.tenant_id = ${tenantId} AND c.contact_id = ${contactId}`,
    );
    return row?.name ?? null;
  });
}

export default definePlugin({
  id: 'kanban',
  kind: 'feature',
  name: 'Kanban',
  description: 'Quadro de contatos por lane e por etiqueta, com lanes configuráveis e atualização em tempo real.',
  contract,
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
        // (Installs before [K4] also indexed the kernel's contacts.kanban here; that column and its index
        // are gone: the kernel retires the column before this runs, 0002 takes the lanes over.)
      ],
    },
    {
      // The contact's lane, once the kernel's `contacts.kanban`: values retired by the kernel
      // (v_retired_values) are copied when they name a lane of the contact's tenant. Only contacts
      // that are not groups hold a lane (cards are contacts), so a lane's rows are its cards.
      name: '0002_contact_lanes',
      up: [
        `CREATE UNIQUE INDEX kanban_lanes_tenant_id_key ON kanban_lanes (tenant_id, id)`,
        `CREATE TABLE kanban_contact_lanes (
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          contact_id integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
          lane_id integer NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (tenant_id, contact_id),
          FOREIGN KEY (tenant_id, lane_id) REFERENCES kanban_lanes (tenant_id, id) ON DELETE CASCADE)`,
        `CREATE INDEX kanban_contact_lanes_lane_idx ON kanban_contact_lanes (tenant_id, lane_id, contact_id)`,
        // Deleting a contact finds its lane row by id alone.
        `CREATE INDEX kanban_contact_lanes_contact_idx ON kanban_contact_lanes (contact_id)`,
        `INSERT INTO kanban_contact_lanes (tenant_id, contact_id, lane_id)
           SELECT r.tenant_id, r.record_id, l.id
             FROM v_retired_values r
             JOIN v_contacts c ON c.tenant_id = r.tenant_id AND c.id = r.record_id AND NOT c.is_group
             JOIN kanban_lanes l ON l.tenant_id = r.tenant_id AND l.id = (r.value #>> '{}')::int
            WHERE r.kind = 'contact' AND r.field = 'kanban' AND jsonb_typeof(r.value) = 'number'
           ON CONFLICT DO NOTHING`,
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
    const tags = ['kanban'];
    const read = { access: { menu: 'kanban' } };
    const editLanes = { access: { menu: 'kanban', profiles: LANE_EDITORS } };
    const admin = { access: { menu: 'kanban', profiles: ADMINS } };

    registerContactLane(ctx);

    // Kanban events go to the whole tenant but carry contacts (names, numbers) and the lanes: each socket
    // gets them only if its user may open the board, as the routes decide (X1-8).
    for (const event of ['kanban.card_moved', 'kanban.lanes_changed']) ctx.realtime.addVisibilityFilter(event, (who) => ctx.visibility.mayUseMenu(who, 'kanban'));

    const lanesChanged = async (tenantId: number) => ctx.events.publish(tenantId, 'kanban.lanes_changed', { lanes: await listLanes(ctx, tenantId) });

    // ---- lanes (settings and /lanes) ----
    ctx.http.get('/lanes', { config: read, schema: { operationId: 'listKanbanLanes', tags, summary: 'Lista as lanes do kanban', response: { 200: z.array(lane) } } }, async (req) =>
      listLanes(ctx, principalOf(req).tenantId),
    );

    ctx.http.post(
      '/lanes',
      { config: editLanes, schema: { operationId: 'createKanbanLane', tags, summary: 'Cria uma lane', body: laneCreateBody, response: { 201: lane } } },
      async (req, reply) => {
        const { tenantId } = principalOf(req);
        const created = await createLane(ctx, tenantId, req.body);
        await lanesChanged(tenantId);
        return reply.status(201).send(created);
      },
    );

    // Static path first: `/lanes/order` is not a lane id.
    ctx.http.put(
      '/lanes/order',
      { config: editLanes, schema: { operationId: 'orderKanbanLanes', tags, summary: 'Define a ordem de todas as lanes', body: laneOrderBody, response: { 200: z.array(lane) } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        const lanes = await reorderLanes(ctx, tenantId, req.body.ids);
        await lanesChanged(tenantId);
        return lanes;
      },
    );

    ctx.http.put(
      '/lanes/:id',
      { config: editLanes, schema: { operationId: 'updateKanbanLane', tags, summary: 'Renomeia ou move uma lane', params: idParam, body: laneUpdateBody, response: { 200: lane } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        const updated = await updateLane(ctx, tenantId, req.params.id, req.body);
        await lanesChanged(tenantId);
        return updated;
      },
    );

    ctx.http.delete(
      '/lanes/:id',
      { config: editLanes, schema: { operationId: 'deleteKanbanLane', tags, summary: 'Exclui uma lane (seus contatos ficam sem lane)', params: idParam, response: { 204: z.null() } } },
      async (req, reply) => {
        const { tenantId } = principalOf(req);
        await deleteLane(ctx, tenantId, req.params.id);
        await lanesChanged(tenantId);
        return reply.status(204).send(null);
      },
    );

    // ---- the board ----
    ctx.http.get(
      '/board',
      { config: read, schema: { operationId: 'getKanbanBoard', tags, summary: 'Quadro: cada coluna com sua contagem e primeira página', querystring: boardQuery, response: { 200: boardSchema } } },
      async (req) => board(ctx, principalOf(req).tenantId, req.query.view, req.query.search, req.query.limit),
    );

    ctx.http.get(
      '/lanes/:id/cards',
      { config: read, schema: { operationId: 'listKanbanLaneCards', tags, summary: 'Uma página dos cartões de uma lane (0: sem lane)', params: columnParam, querystring: columnQuery, response: { 200: cardPage } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        if (req.params.id > 0) await findLane(ctx, tenantId, req.params.id);
        return columnPage(ctx, tenantId, 'lanes', req.params.id, req.query);
      },
    );

    ctx.http.get(
      '/tags/:id/cards',
      { config: read, schema: { operationId: 'listKanbanTagCards', tags, summary: 'Uma página dos cartões de uma etiqueta (0: sem etiqueta)', params: columnParam, querystring: columnQuery, response: { 200: cardPage } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        if (req.params.id > 0 && !(await tagExists(ctx, tenantId, req.params.id))) throw new AppError('ERR_NOT_FOUND');
        return columnPage(ctx, tenantId, 'tags', req.params.id, req.query);
      },
    );

    /** Applies a change through the kernel, then tells every board of the tenant where the card went. */
    const change = async (p: Principal, contactId: number, patch: Parameters<typeof ctx.contacts.update>[2]) => {
      const before = await cardOf(ctx, p.tenantId, contactId);
      await ctx.contacts.update({ tenantId: p.tenantId, userId: p.userId, profile: p.profile }, contactId, patch);
      const moved = await cardOf(ctx, p.tenantId, contactId);
      const data: CardEvent = { card: moved, before: { laneId: before.laneId, tagIds: before.tags.map((t) => t.id) } };
      await ctx.events.publish(p.tenantId, 'kanban.card_moved', data);
      return moved;
    };

    // Moving a card sets the contact's lane (the contact's `kanban` field, kept here); null takes it out of every lane.
    ctx.http.put(
      '/cards/:contactId/lane',
      { config: read, schema: { operationId: 'moveKanbanCardToLane', tags, summary: 'Move um contato para uma lane', params: contactParam, body: moveBody, response: { 200: card } } },
      async (req) => {
        const p = principalOf(req);
        const { laneId } = req.body;
        if (laneId !== null && !(await laneIdsOf(ctx, p.tenantId)).includes(laneId)) throw new AppError('ERR_NOT_FOUND');
        return change(p, req.params.contactId, { fields: { kanban: laneId } });
      },
    );

    ctx.http.put(
      '/cards/:contactId/tag',
      { config: read, schema: { operationId: 'moveKanbanCardTag', tags, summary: 'Troca uma etiqueta do contato por outra (visão por etiquetas)', params: contactParam, body: tagMoveBody, response: { 200: card } } },
      async (req) => {
        const p = principalOf(req);
        const { from, to } = req.body;
        if (to !== null && !(await tagExists(ctx, p.tenantId, to, true))) throw new AppError('ERR_NOT_FOUND');
        const current = (await cardOf(ctx, p.tenantId, req.params.contactId)).tags.map((t) => t.id);
        const next = [...new Set([...current.filter((id) => id !== from), ...(to !== null ? [to] : [])])];
        return change(p, req.params.contactId, { tags: next });
      },
    );

    // Assigning a contact to its owner (wallet) is an admin's call, whatever the contact's tickets (core.md §6).
    ctx.http.put(
      '/cards/:contactId/owner',
      { config: admin, schema: { operationId: 'setKanbanCardOwner', tags, summary: 'Define o dono (carteira) do contato', params: contactParam, body: ownerBody, response: { 200: card } } },
      async (req) => change(principalOf(req), req.params.contactId, { wallets: req.body.userId === null ? [] : [req.body.userId] }),
    );

    // Who can own a contact: the tenant's active users, for the admin's owner picker.
    ctx.http.get('/owners', { config: admin, schema: { operationId: 'listKanbanOwners', tags, summary: 'Usuários que podem ser donos de contatos', response: { 200: z.array(owner) } } }, async (req) => {
      const users = await ctx.users.list(principalOf(req).tenantId, { activeOnly: true });
      return users.map((u) => ({ id: u.id, name: u.name, profile: u.profile }));
    });
  },
});
