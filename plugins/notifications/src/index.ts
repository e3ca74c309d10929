import { randomUUID } from 'node:crypto';
import { AppError, definePlugin, z } from '@atende/core/sdk';

/**
 * Notifications (spec core.md §3 "Notification: message, user id, read flag,
 * date"; administration.md §2 `/notificacao`, a superadmin area).
 *
 * - Sending is server-enforced to admins (their own tenant) and the superadmin
 *   (any tenant): to chosen users, or to every active user of a tenant.
 * - Every user reads their own notifications through the badge the remote
 *   mounts in the layout header; each recipient gets `notification.created`
 *   in their own `user:<id>` room only, so exactly the recipients hear of it.
 *
 * Menus: the `/notificacao` screen is the kernel's `notification` menu
 * (superadmin). The inbox is the plugin's own `notificationInbox` menu (every
 * profile), which is what makes the shell load this remote, and its header
 * badge, for agents too; disabling the plugin for a tenant turns both off.
 */

const MAX_RECIPIENTS = 5000;
const sendBody = z
  .object({
    message: z.string().trim().max(2000).optional(),
    /** Target tenant: the admin's own only; any tenant for the superadmin. Default: the caller's. */
    tenantId: z.number().int().positive().max(2_147_483_647).optional(),
    userIds: z.array(z.number().int().positive().max(2_147_483_647)).max(MAX_RECIPIENTS).optional(),
    /** Every active user of the tenant. */
    all: z.boolean().optional(),
  })
  .strict();
const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const listQuery = z.object({ unread: z.enum(['true', 'false']).optional() }).strict();
const targetsQuery = z.object({ tenantId: z.coerce.number().int().positive().max(2_147_483_647).optional() }).strict();

interface Row {
  id: number;
  message: string;
  read: boolean;
  created_at: Date;
  sender_name: string | null;
}
const out = (r: Row) => ({ id: r.id, message: r.message, read: r.read, createdAt: r.created_at.toISOString(), senderName: r.sender_name });

const INBOX_LIMIT = 50;

export default definePlugin({
  id: 'notifications',
  kind: 'feature',
  name: 'Notificações',
  description: 'Avisos enviados por administradores aos usuários, com contador ao vivo no cabeçalho.',
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE notifications_notifications (
          id bigserial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          message text NOT NULL,
          read boolean NOT NULL DEFAULT false,
          read_at timestamptz,
          batch_id uuid NOT NULL,
          sent_by integer REFERENCES users(id) ON DELETE SET NULL,
          sender_name text,
          created_at timestamptz NOT NULL DEFAULT now())`,
        `CREATE INDEX notifications_inbox_idx ON notifications_notifications (tenant_id, user_id, id DESC)`,
        `CREATE INDEX notifications_unread_idx ON notifications_notifications (tenant_id, user_id) WHERE NOT read`,
        `CREATE INDEX notifications_batch_idx ON notifications_notifications (tenant_id, batch_id)`,
      ],
    },
  ],
  menus: [
    { key: 'notification', label: 'menu.notification', route: '/notificacao', profiles: ['superadmin'] },
    // The header inbox: every profile, so the shell loads this remote (and its badge) for agents too. It shares
    // the screen's route, which keeps the `notification` guard: the first menu to claim a route guards it.
    { key: 'notificationInbox', label: 'menu.notificationInbox', route: '/notificacao', profiles: ['user', 'super', 'admin', 'superadmin'] },
  ],
  ui: true,
  register(ctx) {
    const senders = { config: { access: { profiles: ['admin' as const, 'superadmin' as const] } } };

    async function unreadCount(tenantId: number, userId: number): Promise<number> {
      const r = await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM notifications_notifications WHERE tenant_id = $1 AND user_id = $2 AND NOT read', [tenantId, userId]);
      return r.rows[0].n;
    }

    /** The caller's own inbox: latest notifications and the unread count. */
    ctx.http.get('/notifications', { schema: { querystring: listQuery } }, async (req) => {
      const p = req.principal!;
      const onlyUnread = (req.query as z.infer<typeof listQuery>).unread === 'true';
      const r = await ctx.sql<Row>(
        `SELECT id, message, read, created_at, sender_name FROM notifications_notifications
          WHERE tenant_id = $1 AND user_id = $2 AND ($3::boolean IS FALSE OR NOT read) ORDER BY id DESC LIMIT ${INBOX_LIMIT}`,
        [p.tenantId, p.userId, onlyUnread],
      );
      return { notifications: r.rows.map(out), unread: await unreadCount(p.tenantId, p.userId) };
    });

    ctx.http.put('/notifications/:id/read', { schema: { params: idParam } }, async (req) => {
      const p = req.principal!;
      const { id } = req.params as z.infer<typeof idParam>;
      // Only the recipient's own row matches: another user's (or tenant's) id is not found.
      const r = await ctx.sql('UPDATE notifications_notifications SET read = true, read_at = COALESCE(read_at, now()) WHERE tenant_id = $1 AND user_id = $2 AND id = $3', [p.tenantId, p.userId, id]);
      if (!r.rowCount) throw new AppError('ERR_NOT_FOUND');
      const unread = await unreadCount(p.tenantId, p.userId);
      await ctx.events.publish(p.tenantId, 'notification.read', { ids: [id], unread }, [`user:${p.userId}`]);
      return { id, read: true, unread };
    });

    ctx.http.put('/notifications/read-all', async (req) => {
      const p = req.principal!;
      const r = await ctx.sql<{ id: number }>('UPDATE notifications_notifications SET read = true, read_at = now() WHERE tenant_id = $1 AND user_id = $2 AND NOT read RETURNING id', [p.tenantId, p.userId]);
      await ctx.events.publish(p.tenantId, 'notification.read', { ids: r.rows.map((x) => Number(x.id)), unread: 0 }, [`user:${p.userId}`]);
      return { updated: r.rowCount ?? 0, unread: 0 };
    });

    /** Sends one message to chosen users or to all of a tenant (admin: own tenant; superadmin: any). */
    ctx.http.post('/notifications', { ...senders, schema: { body: sendBody } }, async (req, reply) => {
      const p = req.principal!;
      const b = req.body as z.infer<typeof sendBody>;
      if (!b.message) throw new AppError('ERR_REQUIRED_FIELD', { field: 'mensagem' });
      const tenantId = b.tenantId ?? p.tenantId;
      if (tenantId !== p.tenantId && p.profile !== 'superadmin') throw new AppError('ERR_NO_PERMISSION');
      if (tenantId !== p.tenantId) {
        const t = await ctx.sql('SELECT 1 FROM tenants WHERE id = $1', [tenantId]);
        if (!t.rowCount) throw new AppError('ERR_NO_TENANT_FOUND');
      }
      if (!b.all && !b.userIds?.length) throw new AppError('ERR_REQUIRED_FIELD', { field: 'destinatários' });
      const ids = b.all ? null : [...new Set(b.userIds)];
      const recipients = await ctx.sql<{ id: number }>(
        `SELECT id FROM users WHERE tenant_id = $1 AND ($2::int[] IS NULL AND active OR id = ANY($2::int[])) ORDER BY id`,
        [tenantId, ids],
      );
      if (ids && recipients.rows.length !== ids.length) throw new AppError('ERR_NO_USER_FOUND');
      const batchId = randomUUID();
      const rows = await ctx.sql<Row & { user_id: number }>(
        `INSERT INTO notifications_notifications (tenant_id, user_id, message, batch_id, sent_by, sender_name)
         SELECT $1, u, $2, $3, $4, $5 FROM unnest($6::int[]) u
         RETURNING id, user_id, message, read, created_at, sender_name`,
        [tenantId, b.message, batchId, p.userId, p.name, recipients.rows.map((r) => r.id)],
      );
      // One event per recipient, into that user's room only.
      await Promise.all(rows.rows.map((r) => ctx.events.publish(tenantId, 'notification.created', out(r), [`user:${r.user_id}`])));
      return reply.status(201).send({ batchId, tenantId, recipients: rows.rows.length });
    });

    /**
     * What was sent, one line per sending with its read count. The superadmin
     * sees every tenant's; an admin the sendings into their own tenant.
     */
    ctx.http.get('/sent', senders, async (req) => {
      const p = req.principal!;
      const r = await ctx.sql<{ batch_id: string; tenant_id: number; tenant_name: string; message: string; sender_name: string | null; created_at: Date; recipients: number; read: number }>(
        `SELECT n.batch_id, n.tenant_id, t.name AS tenant_name, min(n.message) AS message, min(n.sender_name) AS sender_name, min(n.created_at) AS created_at,
                count(*)::int AS recipients, count(*) FILTER (WHERE n.read)::int AS read
           FROM notifications_notifications n JOIN tenants t ON t.id = n.tenant_id
          WHERE ($1::boolean OR n.tenant_id = $2)
          GROUP BY n.batch_id, n.tenant_id, t.name ORDER BY min(n.id) DESC LIMIT 200`,
        [p.profile === 'superadmin', p.tenantId],
      );
      return r.rows.map((x) => ({ batchId: x.batch_id, tenantId: x.tenant_id, tenantName: x.tenant_name, message: x.message, senderName: x.sender_name, createdAt: x.created_at.toISOString(), recipients: x.recipients, read: x.read }));
    });

    /** Tenants and users a sender may address (the superadmin picks a tenant first). */
    ctx.http.get('/targets', { ...senders, schema: { querystring: targetsQuery } }, async (req) => {
      const p = req.principal!;
      const tenantId = (req.query as z.infer<typeof targetsQuery>).tenantId ?? p.tenantId;
      if (tenantId !== p.tenantId && p.profile !== 'superadmin') throw new AppError('ERR_NO_PERMISSION');
      const [tenants, users] = await Promise.all([
        ctx.sql<{ id: number; name: string }>(p.profile === 'superadmin' ? 'SELECT id, name FROM tenants ORDER BY id' : 'SELECT id, name FROM tenants WHERE id = $1', p.profile === 'superadmin' ? [] : [p.tenantId]),
        ctx.sql<{ id: number; name: string; email: string; profile: string }>('SELECT id, name, email, profile FROM users WHERE tenant_id = $1 AND active ORDER BY lower(name), id', [tenantId]),
      ]);
      return { tenantId, tenants: tenants.rows, users: users.rows };
    });
  },
});
