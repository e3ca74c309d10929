import { AppError, defineEntity, definePlugin, tenantFilter, z } from '@atende/core/sdk';

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

const body = z.object({ name: z.string().trim().min(1, 'O campo nome é obrigatório').max(120) }).strict();
const idParam = z.object({ id: z.coerce.number().int().positive() });
const out = (d: { id: number; name: string; createdAt: Date }) => ({ id: d.id, name: d.name, createdAt: d.createdAt.toISOString() });

export default definePlugin({
  id: 'demands',
  kind: 'feature',
  name: 'Motivos',
  description: 'Motivos (demandas) escolhidos ao resolver um atendimento.',
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
    const read = { config: { access: { menu: 'tickets' } } };
    const write = { config: { access: { menu: 'settings' } } };

    // Every agent reads the list (they pick a reason when resolving); only settings users edit it.
    ctx.http.get('/demands', read, async (req) => {
      const rows = await ctx.db(req).find(Demand, {}, { orderBy: { name: 'asc' } });
      return rows.map(out);
    });

    ctx.http.post('/demands', { ...write, schema: { body } }, async (req, reply) => {
      const em = ctx.db(req);
      const { name } = req.body as z.infer<typeof body>;
      const exists = await em.count(Demand, { name: { $ilike: name } });
      if (exists) throw new AppError('ERR_VALIDATION', { details: 'já existe um motivo com este nome' });
      const d = em.create(Demand, { tenantId: req.principal!.tenantId, name });
      await em.flush();
      await ctx.events.publish(req.principal!.tenantId, 'demand.created', out(d));
      return reply.status(201).send(out(d));
    });

    ctx.http.put('/demands/:id', { ...write, schema: { params: idParam, body } }, async (req) => {
      const em = ctx.db(req);
      const { id } = req.params as z.infer<typeof idParam>;
      const d = await em.findOne(Demand, { id });
      if (!d) throw new AppError('ERR_NOT_FOUND');
      d.name = (req.body as z.infer<typeof body>).name;
      await em.flush();
      await ctx.events.publish(req.principal!.tenantId, 'demand.updated', out(d));
      return out(d);
    });

    ctx.http.delete('/demands/:id', { ...write, schema: { params: idParam } }, async (req, reply) => {
      const em = ctx.db(req);
      const { id } = req.params as z.infer<typeof idParam>;
      const d = await em.findOne(Demand, { id });
      if (!d) throw new AppError('ERR_NOT_FOUND');
      await em.remove(d).flush();
      await ctx.events.publish(req.principal!.tenantId, 'demand.deleted', { id });
      return reply.status(204).send();
    });
  },
});
