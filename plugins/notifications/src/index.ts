import { randomUUID } from 'node:crypto';
import { AppError, definePlugin, idParam, principalOf, sql, z } from '@atende/core/sdk';
import { contract, inbox, inboxQuery, readAllAnswer, readAnswer, sendAnswer, sendBody, sent, targets, targetsQuery, type Notification } from './contract.ts';

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

interface Row {
  /** bigserial: pg answers it as text. */
  id: string;
  message: string;
  read: boolean;
  created_at: Date;
  sender_name: string | null;
}
const out = (r: Row): Notification => ({ id: Number(r.id), message: r.message, read: r.read, createdAt: r.created_at.toISOString(), senderName: r.sender_name });

const INBOX_LIMIT = 50;

export default definePlugin({
  id: 'notifications',
  kind: 'feature',
  name: 'Notificações',
  description: 'Avisos enviados por administradores aos usuários, com contador ao vivo no cabeçalho.',
  contract,
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
    const tags = ['notifications'];
    const senders = { access: { profiles: ['admin' as const, 'superadmin' as const] } };

    async function unreadCount(tenantId: number, userId: number): Promise<number> {
      const [row] = await ctx.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM notifications_notifications WHERE tenant_id = ${tenantId} AND user_id = ${userId} AND NOT read`);
      return row!.n;
    }

    /** The caller's own inbox: latest notifications and the unread count. */
    ctx.http.get(
      '/notifications',
      { schema: { operationId: 'listMyNotifications', tags, summary: 'As notificações do usuário e quantas não leu', querystring: inboxQuery, response: { 200: inbox } } },
      async (req) => {
        const p = principalOf(req);
        const onlyUnread = req.query.unread === 'true';
        const rows = await ctx.query<Row>(
          sql`SELECT id, message, read, created_at, sender_name FROM notifications_notifications
               WHERE tenant_id = ${p.tenantId} AND user_id = ${p.userId} AND (${onlyUnread}::boolean IS FALSE OR NOT read) ORDER BY id DESC LIMIT ${INBOX_LIMIT}`,
        );
        return { notifications: rows.map(out), unread: await unreadCount(p.tenantId, p.userId) };
      },
    );

    ctx.http.put(
      '/notifications/:id/read',
      { schema: { operationId: 'readNotification', tags, summary: 'Marca uma notificação como lida', params: idParam, response: { 200: readAnswer } } },
      async (req) => {
        const p = principalOf(req);
        const { id } = req.params;
        // Only the recipient's own row matches: another user's (or tenant's) id is not found.
        const hit = await ctx.query(
          sql`UPDATE notifications_notifications SET read = true, read_at = COALESCE(read_at, now()) WHERE tenant_id = ${p.tenantId} AND user_id = ${p.userId} AND id = ${id} RETURNING id`,
        );
        if (!hit.length) throw new AppError('ERR_NOT_FOUND');
        const unread = await unreadCount(p.tenantId, p.userId);
        await ctx.events.publish(p.tenantId, 'notification.read', { ids: [id], unread }, [`user:${p.userId}`]);
        return { id, read: true as const, unread };
      },
    );

    ctx.http.put(
      '/notifications/read-all',
      { schema: { operationId: 'readAllNotifications', tags, summary: 'Marca todas as notificações do usuário como lidas', response: { 200: readAllAnswer } } },
      async (req) => {
        const p = principalOf(req);
        const rows = await ctx.query<{ id: string }>(
          sql`UPDATE notifications_notifications SET read = true, read_at = now() WHERE tenant_id = ${p.tenantId} AND user_id = ${p.userId} AND NOT read RETURNING id`,
        );
        await ctx.events.publish(p.tenantId, 'notification.read', { ids: rows.map((x) => Number(x.id)), unread: 0 }, [`user:${p.userId}`]);
        return { updated: rows.length, unread: 0 as const };
      },
    );

    /** Sends one message to chosen users or to all of a tenant (admin: own tenant; superadmin: any). */
    ctx.http.post(
      '/notifications',
      { config: senders, schema: { operationId: 'sendNotification', tags, summary: 'Envia uma notificação a usuários escolhidos ou a todos de uma empresa', body: sendBody, response: { 201: sendAnswer } } },
      async (req, reply) => {
        const p = principalOf(req);
        const b = req.body;
        if (!b.message) throw new AppError('ERR_REQUIRED_FIELD', { field: 'mensagem' });
        const tenantId = b.tenantId ?? p.tenantId;
        if (tenantId !== p.tenantId && p.profile !== 'superadmin') throw new AppError('ERR_NO_PERMISSION');
        if (tenantId !== p.tenantId && !(await ctx.tenants.get(tenantId))) throw new AppError('ERR_NO_TENANT_FOUND');
        if (!b.all && !b.userIds?.length) throw new AppError('ERR_REQUIRED_FIELD', { field: 'destinatários' });
        const ids = b.all ? undefined : [...new Set(b.userIds)];
        const recipients = await ctx.users.list(tenantId, ids ? { ids } : { activeOnly: true });
        if (ids && recipients.length !== ids.length) throw new AppError('ERR_NO_USER_FOUND');
        const batchId = randomUUID();
        const rows = await ctx.query<Row & { user_id: number }>(
          sql`INSERT INTO notifications_notifications (tenant_id, user_id, message, batch_id, sent_by, sender_name)
              SELECT ${tenantId}, u, ${b.message}, ${batchId}, ${p.userId}, ${p.name} FROM unnest(${recipients.map((r) => r.id)}::int[]) u
              RETURNING id, user_id, message, read, created_at, sender_name`,
        );
        // One event per recipient, into that user's room only.
        await Promise.all(rows.map((r) => ctx.events.publish(tenantId, 'notification.created', out(r), [`user:${r.user_id}`])));
        return reply.status(201).send({ batchId, tenantId, recipients: rows.length });
      },
    );

    /**
     * What was sent, one line per sending with its read count. The superadmin
     * sees every tenant's; an admin the sendings into their own tenant.
     */
    ctx.http.get(
      '/sent',
      { config: senders, schema: { operationId: 'listSentNotifications', tags, summary: 'Notificações enviadas, com quantos as leram', response: { 200: z.array(sent) } } },
      async (req) => {
        const p = principalOf(req);
        const rows = await ctx.query<{ batch_id: string; tenant_id: number; message: string; sender_name: string | null; created_at: Date; recipients: number; read: number }>(
          sql`SELECT n.batch_id, n.tenant_id, min(n.message) AS message, min(n.sender_name) AS sender_name, min(n.created_at) AS created_at,
                     count(*)::int AS recipients, count(*) FILTER (WHERE n.read)::int AS read
                FROM notifications_notifications n
               WHERE (${p.profile === 'superadmin'}::boolean OR n.tenant_id = ${p.tenantId})
               GROUP BY n.batch_id, n.tenant_id ORDER BY min(n.id) DESC LIMIT 200`,
        );
        const names = new Map((await ctx.tenants.list({ ids: [...new Set(rows.map((x) => x.tenant_id))] })).map((x) => [x.id, x.name]));
        return rows.map((x) => ({
          batchId: x.batch_id, tenantId: x.tenant_id, tenantName: names.get(x.tenant_id) ?? '', message: x.message, senderName: x.sender_name,
          createdAt: x.created_at.toISOString(), recipients: x.recipients, read: x.read,
        }));
      },
    );

    /** Tenants and users a sender may address (the superadmin picks a tenant first). */
    ctx.http.get(
      '/targets',
      { config: senders, schema: { operationId: 'listNotificationTargets', tags, summary: 'Empresas e usuários a quem o remetente pode escrever', querystring: targetsQuery, response: { 200: targets } } },
      async (req) => {
        const p = principalOf(req);
        const tenantId = req.query.tenantId ?? p.tenantId;
        if (tenantId !== p.tenantId && p.profile !== 'superadmin') throw new AppError('ERR_NO_PERMISSION');
        const [tenants, users] = await Promise.all([
          ctx.tenants.list(p.profile === 'superadmin' ? {} : { ids: [p.tenantId] }),
          ctx.users.list(tenantId, { activeOnly: true }),
        ]);
        return { tenantId, tenants: tenants.map((x) => ({ id: x.id, name: x.name })), users: users.map((u) => ({ id: u.id, name: u.name })) };
      },
    );
  },
});
