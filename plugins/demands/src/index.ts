import { AppError, defineEntity, definePlugin, idParam, principalOf, tenantFilter, z } from '@atende/core/sdk';
import { contract, demand, demandInput } from './contract.ts';

/** Demand reasons (motivos) chosen when a ticket is resolved (spec core.md §3 "Demand (motivo): name"). */
export const Demand = defineEntity({
  name: 'Demand',
  tableName: 'demands_demands',
  filters: tenantFilter,
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    tenantId: p.integer(),
    name: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});

const out = (d: { id: number; name: string; createdAt: Date }) => ({ id: d.id, name: d.name, createdAt: d.createdAt.toISOString() });

export default definePlugin({
  id: 'demands',
  kind: 'feature',
  name: 'Motivos',
  description: 'Motivos (demandas) escolhidos ao resolver um atendimento.',
  contract,
  entities: [Demand],
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE demands_demands (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          name text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE UNIQUE INDEX demands_demands_name_key ON demands_demands (tenant_id, lower(name))`,
      ],
    },
  ],
  menus: [{ key: 'settings', label: 'menu.settings', route: '/configuracoes/motivos', profiles: ['admin', 'superadmin'] }],
  ui: true,
  register(ctx) {
    const tags = ['demands'];
    const read = { access: { menu: 'tickets' } };
    const write = { access: { menu: 'settings' } };
    // Reason events reach only who may read or edit them through these routes (X1-8).
    for (const event of ['demand.created', 'demand.updated', 'demand.deleted'])
      ctx.realtime.addVisibilityFilter(event, (who) => ctx.visibility.mayUseMenu(who, 'tickets') || ctx.visibility.mayUseMenu(who, 'settings'));

    // Every agent reads the list (they pick a reason when resolving); only settings users edit it.
    ctx.http.get('/demands', { config: read, schema: { operationId: 'listDemands', tags, summary: 'Lista os motivos', response: { 200: z.array(demand) } } }, async (req) => {
      const rows = await ctx.db(req).find(Demand, {}, { orderBy: { name: 'asc' } });
      return rows.map(out);
    });

    ctx.http.post(
      '/demands',
      { config: write, schema: { operationId: 'createDemand', tags, summary: 'Cria um motivo', body: demandInput, response: { 201: demand } } },
      async (req, reply) => {
        const { tenantId } = principalOf(req);
        const em = ctx.db(req);
        if (await em.count(Demand, { name: { $ilike: req.body.name } })) throw new AppError('ERR_DEMAND_EXISTS');
        const d = em.create(Demand, { tenantId, name: req.body.name });
        await em.flush();
        await ctx.events.publish(tenantId, 'demand.created', out(d));
        return reply.status(201).send(out(d));
      },
    );

    ctx.http.put(
      '/demands/:id',
      { config: write, schema: { operationId: 'updateDemand', tags, summary: 'Renomeia um motivo', params: idParam, body: demandInput, response: { 200: demand } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        const em = ctx.db(req);
        const d = await em.findOne(Demand, { id: req.params.id });
        if (!d) throw new AppError('ERR_NOT_FOUND');
        if (await em.count(Demand, { name: { $ilike: req.body.name }, id: { $ne: d.id } })) throw new AppError('ERR_DEMAND_EXISTS');
        d.name = req.body.name;
        await em.flush();
        await ctx.events.publish(tenantId, 'demand.updated', out(d));
        return out(d);
      },
    );

    ctx.http.delete(
      '/demands/:id',
      { config: write, schema: { operationId: 'deleteDemand', tags, summary: 'Exclui um motivo', params: idParam, response: { 204: z.null() } } },
      async (req, reply) => {
        const { tenantId } = principalOf(req);
        const em = ctx.db(req);
        const d = await em.findOne(Demand, { id: req.params.id });
        if (!d) throw new AppError('ERR_NOT_FOUND');
        await em.remove(d).flush();
        await ctx.events.publish(tenantId, 'demand.deleted', { id: req.params.id });
        return reply.status(204).send(null);
      },
    );
  },
});
