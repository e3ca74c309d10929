import { AppError, definePlugin, principalOf, sql, z, type PluginContext, type Principal } from '@atende/core/sdk';
import { contract, conversations, history, message, messageBody, historyQuery, teamParam, userParam, type ChatMessage } from './contract.ts';

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
 * Presence is the kernel's (`v_users.is_online` follows the user's live
 * sockets, `user.status_updated` is published when it changes); colleagues
 * are answered by name and presence only, never their e-mail address.
 *
 * Real time: `private_message.created` goes to the rooms `user:<id>` of the
 * two people (one-to-one) or of every member (team), so nobody else hears it;
 * `private_message.read` tells the reader's other tabs and the sender.
 */

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
const messageOut = (r: MessageRow): ChatMessage => ({
  id: Number(r.id),
  fromUserId: r.from_user_id,
  fromName: r.from_name,
  toUserId: r.to_user_id,
  teamId: r.team_id,
  body: r.body,
  readAt: r.read_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
});

const MESSAGE_COLS = sql`m.id, m.from_user_id, f.name AS from_name, m.to_user_id, m.team_id, m.body, m.read_at, m.created_at`;

async function messageLimit(ctx: PluginContext, tenantId: number): Promise<number> {
  const raw = Number(await ctx.settings.get(tenantId, 'internalChatMessageLimit'));
  return Number.isInteger(raw) && raw > 0 ? Math.min(raw, 1000) : DEFAULT_MESSAGE_LIMIT;
}

export default definePlugin({
  id: 'private-chat',
  kind: 'feature',
  name: 'Chat interno',
  description: 'Conversas internas entre usuários e equipes, com presença e não lidas ao vivo.',
  contract,
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
    const tags = ['private-chat'];
    const access = { access: { menu: 'chat' } };

    /** The other person must be an active user of the caller's tenant (and not the caller). */
    async function peer(p: Principal, userId: number): Promise<{ id: number; name: string }> {
      if (userId === p.userId) throw new AppError('ERR_NO_USER_FOUND');
      const u = await ctx.users.get(p.tenantId, userId);
      if (!u?.active) throw new AppError('ERR_NO_USER_FOUND');
      // Only what a colleague may see: never the e-mail the read service carries.
      return { id: u.id, name: u.name };
    }

    /** A team conversation is open to the team's members only; for anyone else the team does not exist. */
    async function team(p: Principal, teamId: number): Promise<{ name: string; members: number[] }> {
      const rows = await ctx.query<{ team_name: string; user_id: number }>(
        sql`SELECT team_name, user_id FROM teams_memberships WHERE tenant_id = ${p.tenantId} AND team_id = ${teamId} AND team_active`,
      );
      const members = rows.map((x) => x.user_id);
      if (!members.includes(p.userId)) throw new AppError('ERR_NOT_FOUND');
      return { name: rows[0]!.team_name, members };
    }

    /** Both tabs in one answer: people with presence and unread counts, the caller's teams, and the totals. */
    ctx.http.get(
      '/conversations',
      { config: access, schema: { operationId: 'listPrivateChatConversations', tags, summary: 'Conversas do chat interno: pessoas, equipes e não lidas', response: { 200: conversations } } },
      async (req) => {
        const p = principalOf(req);
        const [users, teams] = await Promise.all([
          ctx.query<{ id: number; name: string; is_online: boolean; last_seen_at: Date | null; unread: number; last_body: string | null; last_at: Date | null; last_from: number | null }>(
            sql`SELECT u.id, u.name, u.is_online, u.last_seen_at,
                       (SELECT count(*)::int FROM private_chat_messages m WHERE m.tenant_id = ${p.tenantId} AND m.to_user_id = ${p.userId} AND m.from_user_id = u.id AND m.read_at IS NULL) AS unread,
                       l.body AS last_body, l.created_at AS last_at, l.from_user_id AS last_from
                  FROM v_users u
                  LEFT JOIN LATERAL (
                    SELECT body, created_at, from_user_id FROM private_chat_messages m
                     WHERE m.tenant_id = ${p.tenantId} AND m.to_user_id IS NOT NULL
                       AND LEAST(m.from_user_id, m.to_user_id) = LEAST(${p.userId}::int, u.id) AND GREATEST(m.from_user_id, m.to_user_id) = GREATEST(${p.userId}::int, u.id)
                     ORDER BY m.id DESC LIMIT 1) l ON true
                 WHERE u.tenant_id = ${p.tenantId} AND u.id <> ${p.userId} AND u.active
                 ORDER BY l.created_at DESC NULLS LAST, u.is_online DESC, lower(u.name), u.id`,
          ),
          ctx.query<{ id: number; name: string; members: number; unread: number; last_body: string | null; last_at: Date | null; last_from_name: string | null }>(
            sql`SELECT tm.team_id AS id, tm.team_name AS name,
                       (SELECT count(*)::int FROM teams_memberships x WHERE x.tenant_id = ${p.tenantId} AND x.team_id = tm.team_id) AS members,
                       (SELECT count(*)::int FROM private_chat_messages m WHERE m.tenant_id = ${p.tenantId} AND m.team_id = tm.team_id AND m.from_user_id <> ${p.userId}
                           AND m.id > COALESCE((SELECT last_read_id FROM private_chat_team_reads r WHERE r.tenant_id = ${p.tenantId} AND r.team_id = tm.team_id AND r.user_id = ${p.userId}), 0)) AS unread,
                       l.body AS last_body, l.created_at AS last_at, l.from_name AS last_from_name
                  FROM teams_memberships tm
                  LEFT JOIN LATERAL (
                    SELECT m.body, m.created_at, f.name AS from_name FROM private_chat_messages m LEFT JOIN v_users f ON f.tenant_id = m.tenant_id AND f.id = m.from_user_id
                     WHERE m.tenant_id = ${p.tenantId} AND m.team_id = tm.team_id ORDER BY m.id DESC LIMIT 1) l ON true
                 WHERE tm.tenant_id = ${p.tenantId} AND tm.user_id = ${p.userId} AND tm.team_active
                 ORDER BY l.created_at DESC NULLS LAST, lower(tm.team_name)`,
          ),
        ]);
        const u = users.map((r) => ({
          id: r.id, name: r.name, isOnline: r.is_online, lastSeenAt: r.last_seen_at?.toISOString() ?? null,
          unread: r.unread, lastMessage: r.last_body, lastMessageAt: r.last_at?.toISOString() ?? null, lastMessageFromMe: r.last_from === p.userId,
        }));
        const t = teams.map((r) => ({ id: r.id, name: r.name, members: r.members, unread: r.unread, lastMessage: r.last_body, lastMessageAt: r.last_at?.toISOString() ?? null, lastMessageFrom: r.last_from_name }));
        const all = [...u, ...t];
        return {
          users: u,
          teams: t,
          // Unread messages in all, and how many conversations hold them (the badge counts of the spec).
          unreadCount: all.reduce((n, c) => n + c.unread, 0),
          notificationCount: all.filter((c) => c.unread > 0).length,
          messageLimit: await messageLimit(ctx, p.tenantId),
        };
      },
    );

    /** The latest N messages of a conversation (N = internalChatMessageLimit), oldest first; `before` pages back. */
    ctx.http.get(
      '/users/:userId/messages',
      { config: access, schema: { operationId: 'listPrivateChatUserMessages', tags, summary: 'Mensagens com um colega', params: userParam, querystring: historyQuery, response: { 200: history } } },
      async (req) => {
        const p = principalOf(req);
        const other = await peer(p, req.params.userId);
        const { before } = req.query;
        const limit = await messageLimit(ctx, p.tenantId);
        const rows = await ctx.query<MessageRow>(
          sql`SELECT ${MESSAGE_COLS} FROM private_chat_messages m LEFT JOIN v_users f ON f.tenant_id = m.tenant_id AND f.id = m.from_user_id
               WHERE m.tenant_id = ${p.tenantId} AND m.to_user_id IS NOT NULL
                 AND LEAST(m.from_user_id, m.to_user_id) = LEAST(${p.userId}::int, ${other.id}::int) AND GREATEST(m.from_user_id, m.to_user_id) = GREATEST(${p.userId}::int, ${other.id}::int)
                 AND (${before ?? null}::bigint IS NULL OR m.id < ${before ?? null})
               ORDER BY m.id DESC LIMIT ${limit + 1}`,
        );
        return { messages: rows.slice(0, limit).reverse().map(messageOut), hasMore: rows.length > limit, limit };
      },
    );

    ctx.http.get(
      '/teams/:teamId/messages',
      { config: access, schema: { operationId: 'listPrivateChatTeamMessages', tags, summary: 'Mensagens de uma equipe', params: teamParam, querystring: historyQuery, response: { 200: history } } },
      async (req) => {
        const p = principalOf(req);
        const { teamId } = req.params;
        await team(p, teamId);
        const { before } = req.query;
        const limit = await messageLimit(ctx, p.tenantId);
        const rows = await ctx.query<MessageRow>(
          sql`SELECT ${MESSAGE_COLS} FROM private_chat_messages m LEFT JOIN v_users f ON f.tenant_id = m.tenant_id AND f.id = m.from_user_id
               WHERE m.tenant_id = ${p.tenantId} AND m.team_id = ${teamId} AND (${before ?? null}::bigint IS NULL OR m.id < ${before ?? null})
               ORDER BY m.id DESC LIMIT ${limit + 1}`,
        );
        return { messages: rows.slice(0, limit).reverse().map(messageOut), hasMore: rows.length > limit, limit };
      },
    );

    const bodyOf = (raw: { body?: string }) => {
      const text = raw.body?.trim();
      if (!text) throw new AppError('ERR_INVALID_MESSAGE');
      return text;
    };

    ctx.http.post(
      '/users/:userId/messages',
      { config: access, schema: { operationId: 'sendPrivateChatUserMessage', tags, summary: 'Envia uma mensagem a um colega', params: userParam, body: messageBody, response: { 201: message } } },
      async (req, reply) => {
        const p = principalOf(req);
        const text = bodyOf(req.body);
        const other = await peer(p, req.params.userId);
        const [row] = await ctx.query<MessageRow>(
          sql`INSERT INTO private_chat_messages (tenant_id, from_user_id, to_user_id, body) VALUES (${p.tenantId}, ${p.userId}, ${other.id}, ${text})
              RETURNING id, from_user_id, ${p.name}::text AS from_name, to_user_id, team_id, body, read_at, created_at`,
        );
        const msg = messageOut(row!);
        await ctx.events.publish(p.tenantId, 'private_message.created', msg, [`user:${p.userId}`, `user:${other.id}`]);
        return reply.status(201).send(msg);
      },
    );

    ctx.http.post(
      '/teams/:teamId/messages',
      { config: access, schema: { operationId: 'sendPrivateChatTeamMessage', tags, summary: 'Envia uma mensagem à equipe', params: teamParam, body: messageBody, response: { 201: message } } },
      async (req, reply) => {
        const p = principalOf(req);
        const text = bodyOf(req.body);
        const { teamId } = req.params;
        const t = await team(p, teamId);
        const [row] = await ctx.query<MessageRow>(
          sql`INSERT INTO private_chat_messages (tenant_id, from_user_id, team_id, body) VALUES (${p.tenantId}, ${p.userId}, ${teamId}, ${text})
              RETURNING id, from_user_id, ${p.name}::text AS from_name, to_user_id, team_id, body, read_at, created_at`,
        );
        const msg = messageOut(row!);
        // The sender has read their own message.
        await ctx.query(
          sql`INSERT INTO private_chat_team_reads (tenant_id, team_id, user_id, last_read_id) VALUES (${p.tenantId}, ${teamId}, ${p.userId}, ${msg.id})
              ON CONFLICT (tenant_id, team_id, user_id) DO UPDATE SET last_read_id = GREATEST(private_chat_team_reads.last_read_id, EXCLUDED.last_read_id)`,
        );
        await ctx.events.publish(p.tenantId, 'private_message.created', { ...msg, teamName: t.name }, t.members.map((m) => `user:${m}`));
        return reply.status(201).send(msg);
      },
    );

    ctx.http.put(
      '/users/:userId/read',
      { config: access, schema: { operationId: 'readPrivateChatUserMessages', tags, summary: 'Marca como lidas as mensagens de um colega', params: userParam, response: { 200: z.object({ read: z.number().int() }) } } },
      async (req) => {
        const p = principalOf(req);
        const other = await peer(p, req.params.userId);
        const read = await ctx.query(
          sql`UPDATE private_chat_messages SET read_at = now() WHERE tenant_id = ${p.tenantId} AND to_user_id = ${p.userId} AND from_user_id = ${other.id} AND read_at IS NULL RETURNING id`,
        );
        await ctx.events.publish(p.tenantId, 'private_message.read', { readerId: p.userId, userId: other.id, count: read.length }, [`user:${p.userId}`, `user:${other.id}`]);
        return { read: read.length };
      },
    );

    ctx.http.put(
      '/teams/:teamId/read',
      { config: access, schema: { operationId: 'readPrivateChatTeamMessages', tags, summary: 'Marca como lidas as mensagens de uma equipe', params: teamParam, response: { 200: z.object({ ok: z.literal(true) }) } } },
      async (req) => {
        const p = principalOf(req);
        const { teamId } = req.params;
        await team(p, teamId);
        await ctx.query(
          sql`INSERT INTO private_chat_team_reads (tenant_id, team_id, user_id, last_read_id)
              SELECT ${p.tenantId}, ${teamId}, ${p.userId}, COALESCE(max(id), 0) FROM private_chat_messages WHERE tenant_id = ${p.tenantId} AND team_id = ${teamId}
              ON CONFLICT (tenant_id, team_id, user_id) DO UPDATE SET last_read_id = GREATEST(private_chat_team_reads.last_read_id, EXCLUDED.last_read_id)`,
        );
        await ctx.events.publish(p.tenantId, 'private_message.read', { readerId: p.userId, teamId }, [`user:${p.userId}`]);
        return { ok: true as const };
      },
    );
  },
});
