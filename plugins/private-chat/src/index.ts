import { AppError, definePlugin, z, type PluginContext, type Principal } from '@atende/core/sdk';

/**
 * Private internal chat (spec core.md §2 `/chat-privado` with tabs for users
 * and teams; §3 "Private chat: users list (id, timestamp or date, isOnline),
 * groups list, unread count, notification count"; the tenant setting
 * `internalChatMessageLimit` = how many messages a conversation loads).
 *
 * Team conversations use the teams plugin's published SQL view
 * `teams_memberships` (tenant_id, team_id, team_name, team_active, user_id).
 * The kernel SDK has no service registry between plugins, and plugins never
 * import each other, so a read-only view owned and migrated by `teams` is the
 * narrowest contract available: this plugin only ever reads it, and
 * `dependsOn: ['teams']` makes the kernel load (and migrate) teams first.
 *
 * Presence is the kernel's: `users.is_online` follows the user's live sockets
 * and `user.status_updated` is published when it changes.
 *
 * Real time: `private_message.created` goes to the rooms `user:<id>` of the
 * two people (one-to-one) or of every member (team), so nobody else hears it;
 * `private_message.read` tells the reader's other tabs and the sender.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);
const userParam = z.object({ userId: id });
const teamParam = z.object({ teamId: id });
const historyQuery = z.object({ before: z.coerce.number().int().positive().optional() }).strict();
const messageBody = z.object({ body: z.string().max(4000).optional() }).strict();

export const DEFAULT_MESSAGE_LIMIT = 100;

interface MessageRow {
  id: string;
  from_user_id: number;
  from_name: string | null;
  to_user_id: number | null;
  team_id: number | null;
  body: string;
  read_at: Date | null;
  created_at: Date;
}
const messageOut = (r: MessageRow) => ({
  id: Number(r.id),
  fromUserId: r.from_user_id,
  fromName: r.from_name,
  toUserId: r.to_user_id,
  teamId: r.team_id,
  body: r.body,
  readAt: r.read_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
});

const MESSAGE_COLS = `m.id, m.from_user_id, f.name AS from_name, m.to_user_id, m.team_id, m.body, m.read_at, m.created_at`;

async function messageLimit(ctx: PluginContext, tenantId: number): Promise<number> {
  const raw = Number(await ctx.settings.get(tenantId, 'internalChatMessageLimit'));
  return Number.isInteger(raw) && raw > 0 ? Math.min(raw, 1000) : DEFAULT_MESSAGE_LIMIT;
}

export default definePlugin({
  id: 'private-chat',
  kind: 'feature',
  name: 'Chat interno',
  description: 'Conversas internas entre usuários e equipes, com presença e não lidas ao vivo.',
  dependsOn: ['teams'],
  migrations: [
    {
      name: '0001_init',
      up: [
        `CREATE TABLE private_chat_messages (
          id bigserial PRIMARY KEY,
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          from_user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          to_user_id integer REFERENCES users(id) ON DELETE CASCADE,
          team_id integer,
          body text NOT NULL,
          read_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          CHECK ((to_user_id IS NULL) <> (team_id IS NULL)))`,
        // A one-to-one conversation is keyed by the unordered pair.
        `CREATE INDEX private_chat_pair_idx ON private_chat_messages (tenant_id, LEAST(from_user_id, to_user_id), GREATEST(from_user_id, to_user_id), id DESC) WHERE to_user_id IS NOT NULL`,
        `CREATE INDEX private_chat_unread_idx ON private_chat_messages (tenant_id, to_user_id, from_user_id) WHERE read_at IS NULL AND to_user_id IS NOT NULL`,
        `CREATE INDEX private_chat_team_idx ON private_chat_messages (tenant_id, team_id, id DESC) WHERE team_id IS NOT NULL`,
        `CREATE TABLE private_chat_team_reads (
          tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
          team_id integer NOT NULL,
          user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
          last_read_id bigint NOT NULL DEFAULT 0,
          PRIMARY KEY (tenant_id, team_id, user_id))`,
      ],
    },
  ],
  menus: [{ key: 'chat', label: 'menu.chat', route: '/chat-privado', profiles: ['user', 'super', 'admin', 'superadmin'], tenantMenu: 'chat', userMenu: 'chat' }],
  ui: true,
  register(ctx) {
    const access = { config: { access: { menu: 'chat' } } };

    /** The other person must be an active user of the caller's tenant (and not the caller). */
    async function peer(p: Principal, userId: number): Promise<{ id: number; name: string }> {
      if (userId === p.userId) throw new AppError('ERR_NO_USER_FOUND');
      const r = await ctx.sql<{ id: number; name: string }>('SELECT id, name FROM users WHERE tenant_id = $1 AND id = $2 AND active', [p.tenantId, userId]);
      if (!r.rows[0]) throw new AppError('ERR_NO_USER_FOUND');
      return r.rows[0];
    }

    /** A team conversation is open to the team's members only; for anyone else the team does not exist. */
    async function team(p: Principal, teamId: number): Promise<{ name: string; members: number[] }> {
      const r = await ctx.sql<{ team_name: string; user_id: number }>('SELECT team_name, user_id FROM teams_memberships WHERE tenant_id = $1 AND team_id = $2 AND team_active', [p.tenantId, teamId]);
      const members = r.rows.map((x) => x.user_id);
      if (!members.includes(p.userId)) throw new AppError('ERR_NOT_FOUND');
      return { name: r.rows[0].team_name, members };
    }

    /** Both tabs in one answer: people with presence and unread counts, the caller's teams, and the totals. */
    ctx.http.get('/conversations', access, async (req) => {
      const p = req.principal!;
      const [users, teams] = await Promise.all([
        ctx.sql<{ id: number; name: string; email: string; profile: string; is_online: boolean; last_seen_at: Date | null; unread: number; last_body: string | null; last_at: Date | null; last_from: number | null }>(
          `SELECT u.id, u.name, u.email, u.profile, u.is_online, u.last_seen_at,
                  (SELECT count(*)::int FROM private_chat_messages m WHERE m.tenant_id = $1 AND m.to_user_id = $2 AND m.from_user_id = u.id AND m.read_at IS NULL) AS unread,
                  l.body AS last_body, l.created_at AS last_at, l.from_user_id AS last_from
             FROM users u
             LEFT JOIN LATERAL (
               SELECT body, created_at, from_user_id FROM private_chat_messages m
                WHERE m.tenant_id = $1 AND m.to_user_id IS NOT NULL
                  AND LEAST(m.from_user_id, m.to_user_id) = LEAST($2::int, u.id) AND GREATEST(m.from_user_id, m.to_user_id) = GREATEST($2::int, u.id)
                ORDER BY m.id DESC LIMIT 1) l ON true
            WHERE u.tenant_id = $1 AND u.id <> $2 AND u.active
            ORDER BY l.created_at DESC NULLS LAST, u.is_online DESC, lower(u.name), u.id`,
          [p.tenantId, p.userId],
        ),
        ctx.sql<{ id: number; name: string; members: number; unread: number; last_body: string | null; last_at: Date | null; last_from_name: string | null }>(
          `SELECT tm.team_id AS id, tm.team_name AS name,
                  (SELECT count(*)::int FROM teams_memberships x WHERE x.tenant_id = $1 AND x.team_id = tm.team_id) AS members,
                  (SELECT count(*)::int FROM private_chat_messages m WHERE m.tenant_id = $1 AND m.team_id = tm.team_id AND m.from_user_id <> $2
                      AND m.id > COALESCE((SELECT last_read_id FROM private_chat_team_reads r WHERE r.tenant_id = $1 AND r.team_id = tm.team_id AND r.user_id = $2), 0)) AS unread,
                  l.body AS last_body, l.created_at AS last_at, l.from_name AS last_from_name
             FROM teams_memberships tm
             LEFT JOIN LATERAL (
               SELECT m.body, m.created_at, f.name AS from_name FROM private_chat_messages m LEFT JOIN users f ON f.id = m.from_user_id
                WHERE m.tenant_id = $1 AND m.team_id = tm.team_id ORDER BY m.id DESC LIMIT 1) l ON true
            WHERE tm.tenant_id = $1 AND tm.user_id = $2 AND tm.team_active
            ORDER BY l.created_at DESC NULLS LAST, lower(tm.team_name)`,
          [p.tenantId, p.userId],
        ),
      ]);
      const u = users.rows.map((r) => ({
        id: r.id, name: r.name, email: r.email, profile: r.profile, isOnline: r.is_online, lastSeenAt: r.last_seen_at?.toISOString() ?? null,
        unread: r.unread, lastMessage: r.last_body, lastMessageAt: r.last_at?.toISOString() ?? null, lastMessageFromMe: r.last_from === p.userId,
      }));
      const t = teams.rows.map((r) => ({ id: r.id, name: r.name, members: r.members, unread: r.unread, lastMessage: r.last_body, lastMessageAt: r.last_at?.toISOString() ?? null, lastMessageFrom: r.last_from_name }));
      const all = [...u, ...t];
      return {
        users: u,
        teams: t,
        // Unread messages in all, and how many conversations hold them (the badge counts of the spec).
        unreadCount: all.reduce((n, c) => n + c.unread, 0),
        notificationCount: all.filter((c) => c.unread > 0).length,
        messageLimit: await messageLimit(ctx, p.tenantId),
      };
    });

    /** The latest N messages of a conversation (N = internalChatMessageLimit), oldest first; `before` pages back. */
    ctx.http.get('/users/:userId/messages', { ...access, schema: { params: userParam, querystring: historyQuery } }, async (req) => {
      const p = req.principal!;
      const other = await peer(p, (req.params as z.infer<typeof userParam>).userId);
      const { before } = req.query as z.infer<typeof historyQuery>;
      const limit = await messageLimit(ctx, p.tenantId);
      const r = await ctx.sql<MessageRow>(
        `SELECT ${MESSAGE_COLS} FROM private_chat_messages m LEFT JOIN users f ON f.id = m.from_user_id
          WHERE m.tenant_id = $1 AND m.to_user_id IS NOT NULL
            AND LEAST(m.from_user_id, m.to_user_id) = LEAST($2::int, $3::int) AND GREATEST(m.from_user_id, m.to_user_id) = GREATEST($2::int, $3::int)
            AND ($4::bigint IS NULL OR m.id < $4)
          ORDER BY m.id DESC LIMIT $5`,
        [p.tenantId, p.userId, other.id, before ?? null, limit + 1],
      );
      const rows = r.rows.slice(0, limit).reverse();
      return { messages: rows.map(messageOut), hasMore: r.rows.length > limit, limit };
    });

    ctx.http.get('/teams/:teamId/messages', { ...access, schema: { params: teamParam, querystring: historyQuery } }, async (req) => {
      const p = req.principal!;
      const { teamId } = req.params as z.infer<typeof teamParam>;
      await team(p, teamId);
      const { before } = req.query as z.infer<typeof historyQuery>;
      const limit = await messageLimit(ctx, p.tenantId);
      const r = await ctx.sql<MessageRow>(
        `SELECT ${MESSAGE_COLS} FROM private_chat_messages m LEFT JOIN users f ON f.id = m.from_user_id
          WHERE m.tenant_id = $1 AND m.team_id = $2 AND ($3::bigint IS NULL OR m.id < $3) ORDER BY m.id DESC LIMIT $4`,
        [p.tenantId, teamId, before ?? null, limit + 1],
      );
      const rows = r.rows.slice(0, limit).reverse();
      return { messages: rows.map(messageOut), hasMore: r.rows.length > limit, limit };
    });

    const bodyOf = (raw: unknown) => {
      const text = (raw as z.infer<typeof messageBody>).body?.trim();
      if (!text) throw new AppError('ERR_INVALID_MESSAGE');
      return text;
    };

    ctx.http.post('/users/:userId/messages', { ...access, schema: { params: userParam, body: messageBody } }, async (req, reply) => {
      const p = req.principal!;
      const text = bodyOf(req.body);
      const other = await peer(p, (req.params as z.infer<typeof userParam>).userId);
      const r = await ctx.sql<MessageRow>(
        `INSERT INTO private_chat_messages (tenant_id, from_user_id, to_user_id, body) VALUES ($1, $2, $3, $4)
         RETURNING id, from_user_id, $5::text AS from_name, to_user_id, team_id, body, read_at, created_at`,
        [p.tenantId, p.userId, other.id, text, p.name],
      );
      const msg = messageOut(r.rows[0]);
      await ctx.events.publish(p.tenantId, 'private_message.created', msg, [`user:${p.userId}`, `user:${other.id}`]);
      return reply.status(201).send(msg);
    });

    ctx.http.post('/teams/:teamId/messages', { ...access, schema: { params: teamParam, body: messageBody } }, async (req, reply) => {
      const p = req.principal!;
      const text = bodyOf(req.body);
      const { teamId } = req.params as z.infer<typeof teamParam>;
      const t = await team(p, teamId);
      const r = await ctx.sql<MessageRow>(
        `INSERT INTO private_chat_messages (tenant_id, from_user_id, team_id, body) VALUES ($1, $2, $3, $4)
         RETURNING id, from_user_id, $5::text AS from_name, to_user_id, team_id, body, read_at, created_at`,
        [p.tenantId, p.userId, teamId, text, p.name],
      );
      const msg = messageOut(r.rows[0]);
      // The sender has read their own message.
      await ctx.sql(
        `INSERT INTO private_chat_team_reads (tenant_id, team_id, user_id, last_read_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, team_id, user_id) DO UPDATE SET last_read_id = GREATEST(private_chat_team_reads.last_read_id, EXCLUDED.last_read_id)`,
        [p.tenantId, teamId, p.userId, msg.id],
      );
      await ctx.events.publish(p.tenantId, 'private_message.created', { ...msg, teamName: t.name }, t.members.map((m) => `user:${m}`));
      return reply.status(201).send(msg);
    });

    ctx.http.put('/users/:userId/read', { ...access, schema: { params: userParam } }, async (req) => {
      const p = req.principal!;
      const other = await peer(p, (req.params as z.infer<typeof userParam>).userId);
      const r = await ctx.sql('UPDATE private_chat_messages SET read_at = now() WHERE tenant_id = $1 AND to_user_id = $2 AND from_user_id = $3 AND read_at IS NULL', [p.tenantId, p.userId, other.id]);
      await ctx.events.publish(p.tenantId, 'private_message.read', { readerId: p.userId, userId: other.id, count: r.rowCount ?? 0 }, [`user:${p.userId}`, `user:${other.id}`]);
      return { read: r.rowCount ?? 0 };
    });

    ctx.http.put('/teams/:teamId/read', { ...access, schema: { params: teamParam } }, async (req) => {
      const p = req.principal!;
      const { teamId } = req.params as z.infer<typeof teamParam>;
      await team(p, teamId);
      await ctx.sql(
        `INSERT INTO private_chat_team_reads (tenant_id, team_id, user_id, last_read_id)
         SELECT $1, $2, $3, COALESCE(max(id), 0) FROM private_chat_messages WHERE tenant_id = $1 AND team_id = $2
         ON CONFLICT (tenant_id, team_id, user_id) DO UPDATE SET last_read_id = GREATEST(private_chat_team_reads.last_read_id, EXCLUDED.last_read_id)`,
        [p.tenantId, teamId, p.userId],
      );
      await ctx.events.publish(p.tenantId, 'private_message.read', { readerId: p.userId, teamId }, [`user:${p.userId}`]);
      return { ok: true };
    });
  },
});
