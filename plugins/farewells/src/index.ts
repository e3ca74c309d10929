import { AppError, definePlugin, idParam, principalOf, z, type PluginContext } from '@atende/core/sdk';
import { contract, farewell, farewellInput } from './contract.ts';

/**
 * Farewell (closing) messages (core.md §3 "Farewell message: message, user,
 * date"): texts an agent picks in the resolve dialog. The kernel sends the
 * chosen text (with its template variables) and closes the ticket within 30 s.
 */

const TABLE = 'farewells_messages';

interface Row {
  id: number;
  message: string;
  user_id: number | null;
  user_name: string | null;
  created_at: Date;
  updated_at: Date;
}

const out = (r: Row) => ({ id: r.id, message: r.message, userId: r.user_id, userName: r.user_name, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() });


const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';
const duplicate = () => new AppError('ERR_VALIDATION', { details: 'já existe uma mensagem de despedida com este texto' });

function routes(ctx: PluginContext) {
  // Every agent reads them (the resolve dialog offers them); only the Closing menu edits them.
  const read = { config: { access: { menu: 'tickets' } } };
  const write = { config: { access: { menu: 'closing' } } };
  // Farewell events reach only who may read or edit them through these routes (X1-8).
  for (const event of ['farewell.created', 'farewell.updated', 'farewell.deleted'])
    ctx.realtime.addVisibilityFilter(event, (who) => ctx.visibility.mayUseMenu(who, 'tickets') || ctx.visibility.mayUseMenu(who, 'closing'));

  const tags = ['farewells'];

  ctx.http.get('/farewells', { ...read, schema: { operationId: 'listFarewells', tags, summary: 'Lista as mensagens de despedida', response: { 200: z.array(farewell) } } }, async (req) => {
    const r = await ctx.sql<Row>(`SELECT * FROM ${TABLE} WHERE tenant_id = $1 ORDER BY lower(message), id LIMIT 1000`, [principalOf(req).tenantId]);
    return r.rows.map(out);
  });

  ctx.http.post('/farewells', { ...write, schema: { operationId: 'createFarewell', tags, summary: 'Cria uma mensagem de despedida', body: farewellInput, response: { 201: farewell } } }, async (req, reply) => {
    const p = principalOf(req);
    try {
      const r = await ctx.sql<Row>(`INSERT INTO ${TABLE} (tenant_id, message, user_id, user_name) VALUES ($1, $2, $3, $4) RETURNING *`, [p.tenantId, req.body.message, p.userId, p.name]);
      const f = out(r.rows[0]);
      await ctx.events.publish(p.tenantId, 'farewell.created', f);
      return reply.status(201).send(f);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
  });

  ctx.http.put('/farewells/:id', { ...write, schema: { operationId: 'updateFarewell', tags, summary: 'Altera uma mensagem de despedida', params: idParam, body: farewellInput, response: { 200: farewell } } }, async (req) => {
    const p = principalOf(req);
    try {
      const r = await ctx.sql<Row>(
        `UPDATE ${TABLE} SET message = $3, user_id = $4, user_name = $5, updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING *`,
        [p.tenantId, req.params.id, req.body.message, p.userId, p.name],
      );
      if (!r.rows[0]) throw new AppError('ERR_NOT_FOUND');
      const f = out(r.rows[0]);
      await ctx.events.publish(p.tenantId, 'farewell.updated', f);
      return f;
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
  });

  ctx.http.delete('/farewells/:id', { ...write, schema: { operationId: 'deleteFarewell', tags, summary: 'Exclui uma mensagem de despedida', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    const p = principalOf(req);
    const { id } = req.params;
    const r = await ctx.sql(`DELETE FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [p.tenantId, id]);
    if (!r.rowCount) throw new AppError('ERR_NOT_FOUND');
    await ctx.events.publish(p.tenantId, 'farewell.deleted', { id });
    return reply.status(204).send(null);
  });
}

export default definePlugin({
  id: 'farewells',
  kind: 'feature',
  name: 'Mensagens de despedida',
  description: 'Mensagens de despedida (fechamento) escolhidas ao resolver um atendimento.',
  contract,
  menus: [{ key: 'closing', label: 'menu.closing', route: '/fechamento', profiles: ['super', 'admin', 'superadmin'], userMenu: 'closing' }],
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE ${TABLE} (
          id serial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          message text NOT NULL,
          user_id integer,
          user_name text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE UNIQUE INDEX ${TABLE}_message_key ON ${TABLE} (tenant_id, md5(lower(message)))`,
      ],
    },
  ],
  ui: true,
  register(ctx) {
    routes(ctx);
  },
});
