import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { channelRuntime, findTenantChannel } from './channels.ts';
import { idParam } from './query.ts';

const channelBody = z
  .object({
    type: z.string().trim().min(1).max(40),
    name: z.string().trim().min(1).max(120),
    number: z.string().trim().max(40).nullable().optional(),
    isDefault: z.boolean().optional(),
    queueId: z.number().int().positive().nullable().optional(),
    userId: z.number().int().positive().nullable().optional(),
    chatFlowId: z.number().int().positive().nullable().optional(),
    farewellMessage: z.string().max(4096).nullable().optional(),
    closingKeyword: z.string().max(100).nullable().optional(),
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const PUBLIC_COLS = `id, tenant_id AS "tenantId", type, name, number, status, is_default AS "isDefault", queue_id AS "queueId", user_id AS "userId",
  chatflow_id AS "chatFlowId", farewell_message AS "farewellMessage", closing_keyword AS "closingKeyword", config, qrcode, retries,
  status_at AS "statusAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Channels as the kernel knows them: transport rows with routing defaults.
 * Creating one checks the tenant's connection limit and hands it to its
 * adapter; every channel gets a random webhook secret its plugin may use.
 */
export async function channelRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { config: { access: { menu: 'tickets' } } };
  const write = { config: { access: { menu: 'channels' } } };

  r.get('/api/channels', read, async (req) => (await kernel.db.pool.query(`SELECT ${PUBLIC_COLS} FROM channels WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id`, [req.principal!.tenantId])).rows);

  r.get('/api/channels/types', read, async () => [...kernel.channelAdapters.values()].map((a) => ({ type: a.type, label: a.label, capabilities: a.capabilities })));

  r.post('/api/channels', { ...write, schema: { body: channelBody } }, async (req, reply) => {
    const tenantId = req.principal!.tenantId;
    const b = req.body;
    const adapter = kernel.channelAdapters.get(b.type);
    if (!adapter) throw new AppError('ERR_SAVING_CHANNEL');
    const row = await kernel.db.pool.query(
      `WITH lim AS (SELECT max_connections FROM tenants WHERE id = $1),
            used AS (SELECT count(*)::int AS n FROM channels WHERE tenant_id = $1 AND deleted_at IS NULL)
       INSERT INTO channels (tenant_id, type, name, number, is_default, queue_id, user_id, chatflow_id, farewell_message, closing_keyword, config, secrets)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM lim, used WHERE used.n < lim.max_connections
       RETURNING ${PUBLIC_COLS}`,
      [tenantId, b.type, b.name, b.number ?? null, b.isDefault ?? false, b.queueId ?? null, b.userId ?? null, b.chatFlowId ?? null, b.farewellMessage ?? null, b.closingKeyword ?? null, JSON.stringify(b.config ?? {}), JSON.stringify({ webhookSecret: randomBytes(24).toString('base64url') })],
    );
    if (!row.rows[0]) throw new AppError('ERR_CONNECTION_LIMIT');
    if (b.isDefault) await kernel.db.pool.query('UPDATE channels SET is_default = false WHERE tenant_id = $1 AND id <> $2', [tenantId, row.rows[0].id]);
    const ch = await findTenantChannel(kernel, tenantId, row.rows[0].id);
    if (adapter.connect && ch) await adapter.connect(ch, channelRuntime(kernel)).catch((err) => req.log.warn({ err: (err as Error).message }, 'channel connect failed'));
    await kernel.bus.publish({ tenantId, event: 'channel.created', data: { channel: row.rows[0] } });
    return reply.status(201).send((await kernel.db.pool.query(`SELECT ${PUBLIC_COLS} FROM channels WHERE id = $1`, [row.rows[0].id])).rows[0]);
  });

  r.put('/api/channels/:id', { ...write, schema: { params: idParam, body: channelBody.omit({ type: true }).partial() } }, async (req) => {
    const tenantId = req.principal!.tenantId;
    const cur = await findTenantChannel(kernel, tenantId, req.params.id);
    if (!cur) throw new AppError('ERR_NO_WAPP_FOUND');
    const b = req.body;
    const cols: Record<string, unknown> = { name: b.name, number: b.number, is_default: b.isDefault, queue_id: b.queueId, user_id: b.userId, chatflow_id: b.chatFlowId, farewell_message: b.farewellMessage, closing_keyword: b.closingKeyword, config: b.config ? JSON.stringify(b.config) : undefined };
    const entries = Object.entries(cols).filter(([, v]) => v !== undefined);
    if (entries.length) {
      await kernel.db.pool.query(`UPDATE channels SET ${entries.map(([k], i) => `${k} = $${i + 3}`).join(', ')}, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, req.params.id, ...entries.map(([, v]) => v)]);
      if (b.isDefault) await kernel.db.pool.query('UPDATE channels SET is_default = false WHERE tenant_id = $1 AND id <> $2', [tenantId, req.params.id]);
    }
    const out = (await kernel.db.pool.query(`SELECT ${PUBLIC_COLS} FROM channels WHERE id = $1`, [req.params.id])).rows[0];
    await kernel.bus.publish({ tenantId, event: 'channel.updated', data: { channel: out } });
    return out;
  });

  r.delete('/api/channels/:id', { ...write, schema: { params: idParam } }, async (req, reply) => {
    const tenantId = req.principal!.tenantId;
    const cur = await findTenantChannel(kernel, tenantId, req.params.id);
    if (!cur) throw new AppError('ERR_NO_WAPP_FOUND');
    const adapter = kernel.channelAdapters.get(cur.type);
    await adapter?.disconnect?.(cur).catch(() => undefined);
    // Soft delete: tickets and messages keep pointing at the channel they came through.
    await kernel.db.pool.query('UPDATE channels SET deleted_at = now(), status = $3 WHERE tenant_id = $1 AND id = $2', [tenantId, req.params.id, 'disconnected']);
    await kernel.bus.publish({ tenantId, event: 'channel.deleted', data: { id: req.params.id } });
    return reply.status(204).send();
  });
}
