import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { MAX_MEDIA_BYTES } from '../../storage/local.ts';
import type { ChannelAdapter } from '../../sdk/channel.ts';
import { menuAllowed } from '../access/menus.ts';
import type { ResolvedPrincipal } from '../identity/tokens.ts';
import { findTenantChannel, forgetChannel, STATUS_COLS } from './channels.ts';
import { idParam } from './query.ts';
import { channelCreateBody, channelOut, channelSummary, channelUpdateBody, lockedNameOf, mergeSettings, wholeHour, type ChannelInput, type ChannelRow } from '../channels/settings.ts';
import { connectChannel, disconnectChannel } from '../channels/lifecycle.ts';
import { channelSessions } from '../channels/sessions.ts';
import { closeChannelTickets, installChannelInboundRules, moveChannelTickets, moveTicket } from '../channels/tickets.ts';
import { defineHistoryJobs, queueHistoryImport } from '../channels/history.ts';
import { principalOf } from '../../sdk/http.ts';
import { channelSchema, channelStatusSchema, channelSummarySchema, channelTypeSchema, historyImportSchema, platformChannelSchema } from './channel-schemas.ts';
import { ticketSchema } from './schemas.ts';

const COLS = `id, tenant_id, type, name, number, status, is_default, queue_id, user_id, chatflow_id, farewell_message, closing_keyword,
  birthday_message, birthday_hour, birthday_media, config, secrets, qrcode, pairing_code, retries, last_error, status_at, created_at, updated_at`;

const int32 = z.coerce.number().int().positive().max(2_147_483_647);

/** Whether the caller manages channels (sees QR codes, settings and errors), by the one access function. */
function managesChannels(kernel: Kernel, who: ResolvedPrincipal): boolean {
  const menu = kernel.menus.get('channels');
  return !!menu && menuAllowed(menu, { profile: who.profile, userMenus: who.userMenus, tenantMenus: who.tenantMenus, tenantBlocked: who.tenantBlocked, supervisorDemoted: who.supervisorDemoted });
}

async function loadRow(kernel: Kernel, tenantId: number, id: number): Promise<ChannelRow | undefined> {
  return (await kernel.db.pool.query<ChannelRow>(`SELECT ${COLS} FROM channels WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, [tenantId, id])).rows[0];
}

async function tenantRow(kernel: Kernel, tenantId: number, id: number): Promise<ChannelRow> {
  const row = await loadRow(kernel, tenantId, id);
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  return row;
}

/** Routing defaults must be the tenant's own queue and active user. */
async function checkDefaults(kernel: Kernel, tenantId: number, b: ChannelInput) {
  if (b.queueId) {
    const q = await kernel.db.pool.query('SELECT 1 FROM queues WHERE tenant_id = $1 AND id = $2', [tenantId, b.queueId]);
    if (!q.rowCount) throw new AppError('ERR_NOT_FOUND');
  }
  if (b.userId) {
    const u = await kernel.db.pool.query('SELECT 1 FROM users WHERE tenant_id = $1 AND id = $2 AND active', [tenantId, b.userId]);
    if (!u.rowCount) throw new AppError('ERR_NO_USER_FOUND');
  }
}

/**
 * Provider base URLs (`ChannelAdapter.providerUrls`): a value that changes must be the
 * provider's official host or one the superadmin allowed, unless the superadmin saves it.
 */
export async function checkProviderUrls(kernel: Kernel, who: ResolvedPrincipal, adapter: ChannelAdapter, next: Record<string, unknown>, current: Record<string, unknown>, fieldPrefix = 'config.') {
  if (!adapter.providerUrls || who.profile === 'superadmin') return;
  for (const [field, official] of Object.entries(adapter.providerUrls)) {
    const value = next[field];
    if (value === undefined || value === null || value === '' || value === current[field]) continue;
    const officialHost = new URL(official).hostname;
    let host: string;
    try {
      host = new URL(String(value)).hostname;
    } catch {
      continue; // the adapter's own schema refuses a malformed URL with its message
    }
    if (host.toLowerCase() === officialHost || (await kernel.outbound.isAllowedHost(host))) continue;
    kernel.logger.warn({ event: 'channel.provider_url_refused', tenant: who.tenantId, user: who.userId, field, host }, 'provider base URL refused: only the superadmin may set it');
    throw new AppError('ERR_PROVIDER_URL_LOCKED', { host: officialHost }, { field: `${fieldPrefix}${field}` });
  }
}

async function prepared(adapter: ChannelAdapter, draft: { name: string; number: string | null; config: Record<string, unknown>; secrets: Record<string, unknown> }, current?: Parameters<NonNullable<ChannelAdapter['prepare']>>[1]) {
  return adapter.prepare ? await adapter.prepare(draft, current) : draft;
}

/** Reads one uploaded file (the birthday message's attachment) through the media store. */
async function readFile(kernel: Kernel, req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  let stored: { url: string; name: string; mimetype: string } | undefined;
  for await (const part of req.parts({ limits: { fileSize: MAX_MEDIA_BYTES, files: 1, fields: 5 } })) {
    if (part.type !== 'file') continue;
    if (stored) {
      part.file.resume();
      continue;
    }
    const s = await kernel.storage.save(principalOf(req).tenantId, part.filename || 'arquivo', part.mimetype, part.file);
    stored = { url: s.url, name: s.name, mimetype: s.mimetype };
  }
  if (!stored) throw new AppError('ERR_REQUIRED_FIELD', { field: 'arquivo' });
  return stored;
}

/**
 * Channels as the kernel knows them (administration.md §3–§5, core.md §7):
 * the form with every spec field, the status lifecycle pushed live,
 * connect/disconnect, the channel's ticket actions, moving tickets between
 * channels, history import and the superadmin's table across tenants.
 */
export async function channelRoutes(app: FastifyInstance, kernel: Kernel) {
  const read = { config: { access: { menu: 'tickets' } } };
  const write = { config: { access: { menu: 'channels' } } };
  const sessions = channelSessions(kernel);

  installChannelInboundRules(kernel);
  defineHistoryJobs(kernel);
  if (kernel.config.role !== 'api') {
    // This node runs long-lived sessions: it gets its own import queue and starts once every adapter has registered.
    defineHistoryJobs(kernel, sessions.nodeId);
    app.addHook('onReady', async () => sessions.start());
    kernel.onClose.unshift(() => sessions.stop());
  }
  // Agents see channel status live, but QR codes, pairing codes and settings only reach those who manage channels.
  kernel.realtime.addVisibilityFilter(
    'channel.updated',
    (who) => who.profile !== 'user',
    (data: { channel?: { id: number; name: string; type: string; status: string; statusAt: unknown } }) =>
      data?.channel ? { event: 'channel.updated', data: { channel: { id: data.channel.id, name: data.channel.name, type: data.channel.type, status: data.channel.status, statusAt: data.channel.statusAt } } } : undefined,
  );

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_MEDIA_BYTES, files: 1 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    const tags = ['channels'];
    const channelId = { params: idParam };
    const withStatus = { 200: channelStatusSchema };
    // Those who manage channels get `channelOut`, agents `channelSummary`; the whole form is tried first so its fields are kept.
    r.get('/api/channels', { ...read, schema: { operationId: 'listChannels', tags, summary: 'Lista os canais da empresa', response: { 200: z.array(z.union([channelSchema, channelSummarySchema])) } } }, async (req) => {
      const rows = (await kernel.db.pool.query<ChannelRow>(`SELECT ${COLS} FROM channels WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id`, [principalOf(req).tenantId])).rows.map(channelOut);
      return managesChannels(kernel, req.access!) ? rows : rows.map(channelSummary);
    });

    r.get('/api/channels/types', { ...read, schema: { operationId: 'listChannelTypes', tags, summary: 'Tipos de canal que a empresa pode criar', response: { 200: z.array(channelTypeSchema) } } }, async (req) => {
      // Only the types whose plugin this tenant has on: a switched-off plugin's channels cannot be created.
      const enabled = await kernel.enablement.enabledMap(principalOf(req).tenantId);
      return [...kernel.channelAdapters.values()]
        .filter((a) => enabled.get(kernel.channelPlugins.get(a.type) ?? '') !== false)
        .map((a) => ({ type: a.type, label: a.label, identityKind: a.identityKind, capabilities: a.capabilities, longLived: !!a.longLived, lockedName: !!a.lockedName }));
    });

    /** `/sessoestenants`: every tenant's channels with their status, for the superadmin. */
    r.get(
      '/api/channels/all',
      {
        config: { access: { menu: 'channelsTenants', profiles: ['superadmin'] } },
        schema: {
          operationId: 'listAllChannels',
          tags,
          summary: 'Canais de todas as empresas (superadmin)',
          querystring: z.object({ tenantId: int32.optional(), status: z.enum(['qrcode', 'opening', 'connected', 'disconnected', 'pairingTimeout']).optional(), searchParam: z.string().trim().max(200).optional(), pageNumber: z.coerce.number().int().min(1).max(100_000).default(1) }),
          response: { 200: z.object({ channels: z.array(platformChannelSchema), count: z.number().int(), hasMore: z.boolean() }) },
        },
      },
      async (req) => {
        const q = req.query;
        const params: unknown[] = [q.tenantId ?? null, q.status ?? null, q.searchParam ? `%${q.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null, (q.pageNumber - 1) * 100];
        const rows = await kernel.db.pool.query<z.output<typeof platformChannelSchema> & { total: number }>(
          `SELECT c.id, c.tenant_id AS "tenantId", t.name AS "tenantName", c.type, c.name, c.number, c.status, c.status_at AS "statusAt",
                  c.is_default AS "isDefault", c.retries, c.last_error AS "lastError", c.created_at AS "createdAt", count(*) OVER () AS "total"
             FROM channels c JOIN tenants t ON t.id = c.tenant_id
            WHERE c.deleted_at IS NULL AND ($1::int IS NULL OR c.tenant_id = $1) AND ($2::text IS NULL OR c.status = $2)
              AND ($3::text IS NULL OR c.name ILIKE $3 OR t.name ILIKE $3 OR c.number ILIKE $3)
            ORDER BY c.tenant_id, c.id LIMIT 100 OFFSET $4`,
          params,
        );
        const total = Number(rows.rows[0]?.total ?? 0);
        return { channels: rows.rows.map(({ total: _t, ...c }) => c), count: total, hasMore: q.pageNumber * 100 < total };
      },
    );

    r.get('/api/channels/:id', { ...write, schema: { operationId: 'getChannel', tags, summary: 'Mostra um canal', ...channelId, response: { 200: channelSchema } } }, async (req) => channelOut(await tenantRow(kernel, principalOf(req).tenantId, req.params.id)));

    r.post('/api/channels', { ...write, schema: { operationId: 'createChannel', tags, summary: 'Cria um canal', body: channelCreateBody, response: { 201: channelSchema } } }, async (req, reply) => {
      const { tenantId } = principalOf(req);
      const b = req.body;
      const adapter = kernel.channelAdapters.get(b.type);
      if (!adapter) throw new AppError('ERR_SAVING_CHANNEL');
      const owner = kernel.channelPlugins.get(b.type);
      if (owner && !(await kernel.enablement.isEnabled(tenantId, owner))) throw new AppError('ERR_SAVING_CHANNEL');
      await checkDefaults(kernel, tenantId, b);
      const name = adapter.lockedName ? lockedNameOf(b.name) : b.name;
      if (!name) throw new AppError('ERR_VALIDATION', { details: 'o nome precisa de letras ou números' });
      const merged = mergeSettings(adapter, b, { config: {}, secrets: { webhookSecret: randomBytes(24).toString('base64url') } });
      await checkProviderUrls(kernel, req.access!, adapter, merged.config, {});
      const draft = await prepared(adapter, { name, number: b.number ?? null, ...merged });
      const row = await kernel.db.pool.query<{ id: number }>(
        `WITH lim AS (SELECT max_connections FROM tenants WHERE id = $1),
              used AS (SELECT count(*)::int AS n FROM channels WHERE tenant_id = $1 AND deleted_at IS NULL)
         INSERT INTO channels (tenant_id, type, name, number, is_default, queue_id, user_id, chatflow_id, farewell_message, closing_keyword,
                               birthday_message, birthday_hour, config, secrets)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 FROM lim, used WHERE used.n < lim.max_connections
         RETURNING id`,
        [
          tenantId, b.type, draft.name, draft.number, b.isDefault ?? false, b.queueId ?? null, b.userId ?? null, b.chatFlowId ?? null,
          b.farewellMessage?.trim() || null, b.closingKeyword?.trim() || null, b.birthdayMessage?.trim() || null, wholeHour(b.birthdayHour) ?? null,
          JSON.stringify(draft.config), JSON.stringify(draft.secrets),
        ],
      );
      if (!row.rows[0]) throw new AppError('ERR_CONNECTION_LIMIT');
      const id = row.rows[0].id;
      if (b.isDefault) await kernel.db.pool.query('UPDATE channels SET is_default = false WHERE tenant_id = $1 AND id <> $2', [tenantId, id]);
      await kernel.bus.publish({ tenantId, event: 'channel.created', data: { channel: channelSummary(channelOut((await loadRow(kernel, tenantId, id))!)) } });
      const ch = await findTenantChannel(kernel, tenantId, id);
      if (ch) await connectChannel(kernel, ch);
      return reply.status(201).send(channelOut((await loadRow(kernel, tenantId, id))!));
    });

    r.put('/api/channels/:id', { ...write, schema: { operationId: 'updateChannel', tags, summary: 'Altera um canal', ...channelId, body: channelUpdateBody, response: { 200: channelSchema } } }, async (req) => {
      const { tenantId } = principalOf(req);
      const cur = await tenantRow(kernel, tenantId, req.params.id);
      const adapter = kernel.channelAdapters.get(cur.type);
      if (!adapter) throw new AppError('ERR_SAVING_CHANNEL');
      const b = req.body;
      if (adapter.lockedName && b.name !== undefined && b.name !== cur.name) throw new AppError('ERR_CHANNEL_NAME_LOCKED');
      await checkDefaults(kernel, tenantId, b);
      const merged = mergeSettings(adapter, b, { config: cur.config, secrets: cur.secrets });
      await checkProviderUrls(kernel, req.access!, adapter, merged.config, cur.config);
      const record = await findTenantChannel(kernel, tenantId, cur.id);
      const draft = await prepared(adapter, { name: b.name ?? cur.name, number: b.number === undefined ? cur.number : b.number, ...merged }, record);
      const transportChanged = JSON.stringify(draft.config) !== JSON.stringify(cur.config) || JSON.stringify(draft.secrets) !== JSON.stringify(cur.secrets);
      const cols: Record<string, unknown> = {
        name: draft.name,
        number: draft.number,
        is_default: b.isDefault,
        queue_id: b.queueId,
        user_id: b.userId,
        chatflow_id: b.chatFlowId,
        farewell_message: b.farewellMessage === undefined ? undefined : b.farewellMessage?.trim() || null,
        closing_keyword: b.closingKeyword === undefined ? undefined : b.closingKeyword?.trim() || null,
        birthday_message: b.birthdayMessage === undefined ? undefined : b.birthdayMessage?.trim() || null,
        birthday_hour: wholeHour(b.birthdayHour),
        config: JSON.stringify(draft.config),
        secrets: JSON.stringify(draft.secrets),
      };
      const entries = Object.entries(cols).filter(([, v]) => v !== undefined);
      await kernel.db.pool.query(`UPDATE channels SET ${entries.map(([k], i) => `${k} = $${i + 3}`).join(', ')}, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [tenantId, cur.id, ...entries.map(([, v]) => v)]);
      if (b.isDefault) await kernel.db.pool.query('UPDATE channels SET is_default = false WHERE tenant_id = $1 AND id <> $2', [tenantId, cur.id]);
      // New credentials or transport settings take effect by reconnecting, unless the admin had it switched off.
      if (transportChanged && cur.status !== 'disconnected') {
        const ch = await findTenantChannel(kernel, tenantId, cur.id);
        if (ch) await connectChannel(kernel, ch);
      }
      forgetChannel(kernel, cur.id);
      const out = channelOut((await loadRow(kernel, tenantId, cur.id))!);
      await kernel.bus.publish({ tenantId, event: 'channel.updated', data: { channel: out } });
      return out;
    });

    r.delete('/api/channels/:id', { ...write, schema: { operationId: 'deleteChannel', tags, summary: 'Exclui um canal', ...channelId, response: { 204: z.null() } } }, async (req, reply) => {
      const { tenantId } = principalOf(req);
      const cur = await findTenantChannel(kernel, tenantId, req.params.id);
      if (!cur) throw new AppError('ERR_NO_WAPP_FOUND');
      await disconnectChannel(kernel, cur, { logout: true });
      // Soft delete: tickets and messages keep pointing at the channel they came through.
      await kernel.db.pool.query('UPDATE channels SET deleted_at = now(), status = $3, is_default = false WHERE tenant_id = $1 AND id = $2', [tenantId, cur.id, 'disconnected']);
      forgetChannel(kernel, cur.id);
      await kernel.bus.publish({ tenantId, event: 'channel.deleted', data: { id: cur.id } });
      return reply.status(204).send(null);
    });

    r.post('/api/channels/:id/connect', { ...write, schema: { operationId: 'connectChannel', tags, summary: 'Conecta um canal', ...channelId, response: { 202: channelStatusSchema } } }, async (req, reply) => {
      const ch = await findTenantChannel(kernel, principalOf(req).tenantId, req.params.id);
      if (!ch) throw new AppError('ERR_NO_WAPP_FOUND');
      await connectChannel(kernel, ch);
      return reply.status(202).send((await kernel.db.pool.query<z.output<typeof channelStatusSchema>>(`SELECT ${STATUS_COLS} FROM channels WHERE id = $1`, [ch.id])).rows[0]);
    });

    r.post('/api/channels/:id/disconnect', { ...write, schema: { operationId: 'disconnectChannel', tags, summary: 'Desconecta um canal', ...channelId, response: withStatus } }, async (req) => {
      const ch = await findTenantChannel(kernel, principalOf(req).tenantId, req.params.id);
      if (!ch) throw new AppError('ERR_NO_WAPP_FOUND');
      await disconnectChannel(kernel, ch);
      return (await kernel.db.pool.query<z.output<typeof channelStatusSchema>>(`SELECT ${STATUS_COLS} FROM channels WHERE id = $1`, [ch.id])).rows[0];
    });

    const pairingAnswer = z.object({ pairingCode: z.string().nullable() });
    r.post(
      '/api/channels/:id/pairing-code',
      {
        ...write,
        schema: {
          operationId: 'requestChannelPairingCode',
          tags,
          summary: 'Pede um código de pareamento para o canal',
          ...channelId,
          body: z.object({ number: z.string().trim().regex(/^\d{8,20}$/, 'número com código do país, só dígitos') }).strict(),
          // 202: another node runs the session; the code arrives live as `channel.updated`.
          response: { 200: pairingAnswer, 202: pairingAnswer },
        },
      },
      async (req, reply) => {
        const ch = await findTenantChannel(kernel, principalOf(req).tenantId, req.params.id);
        if (!ch) throw new AppError('ERR_NO_WAPP_FOUND');
        const adapter = kernel.channelAdapters.get(ch.type);
        if (!adapter?.capabilities.pairingCode || !adapter.requestPairingCode || !adapter.longLived) throw new AppError('ERR_CHANNEL_NOT_SUPPORTED', { feature: 'código de pareamento' });
        const code = await sessions.requestPairing(ch.tenantId, ch.id, req.body.number).catch((err) => {
          if (err instanceof AppError) throw err;
          req.log.warn({ err: (err as Error).message }, 'pairing code failed');
          throw new AppError('ERR_QR_CODE');
        });
        // When another node runs the session the code arrives live as `channel.updated`.
        return reply.status(code ? 200 : 202).send({ pairingCode: code ?? null });
      },
    );

    // Body: multipart with one file, read by `readFile`.
    r.post('/api/channels/:id/birthday-media', { ...write, schema: { operationId: 'uploadChannelBirthdayMedia', tags, summary: 'Envia o anexo da mensagem de aniversário', ...channelId, response: { 200: channelSchema } } }, async (req) => {
      const cur = await tenantRow(kernel, principalOf(req).tenantId, req.params.id);
      const media = await readFile(kernel, req);
      await kernel.db.pool.query('UPDATE channels SET birthday_media = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2', [cur.tenant_id, cur.id, JSON.stringify(media)]);
      return channelOut((await loadRow(kernel, cur.tenant_id, cur.id))!);
    });
    r.delete('/api/channels/:id/birthday-media', { ...write, schema: { operationId: 'deleteChannelBirthdayMedia', tags, summary: 'Remove o anexo da mensagem de aniversário', ...channelId, response: { 200: channelSchema } } }, async (req) => {
      const cur = await tenantRow(kernel, principalOf(req).tenantId, req.params.id);
      await kernel.db.pool.query('UPDATE channels SET birthday_media = NULL, updated_at = now() WHERE tenant_id = $1 AND id = $2', [cur.tenant_id, cur.id]);
      return channelOut((await loadRow(kernel, cur.tenant_id, cur.id))!);
    });

    r.post(
      '/api/channels/:id/close-tickets',
      { ...write, schema: { operationId: 'closeChannelTickets', tags, summary: 'Encerra os atendimentos abertos ou pendentes do canal', ...channelId, body: z.object({ status: z.enum(['open', 'pending']) }).strict(), response: { 200: z.object({ closed: z.number().int() }) } } },
      async (req) => closeChannelTickets(kernel, req.access!, req.params.id, req.body.status),
    );

    r.get('/api/channels/:id/imports', { ...write, schema: { operationId: 'listChannelHistoryImports', tags, summary: 'Importações de histórico do canal', ...channelId, response: { 200: z.array(historyImportSchema) } } }, async (req) => {
      const { tenantId } = principalOf(req);
      await tenantRow(kernel, tenantId, req.params.id);
      const rows = await kernel.db.pool.query<z.output<typeof historyImportSchema>>(
        `SELECT id::text, status, imported, total, error, request, user_id AS "userId", created_at AS "createdAt", finished_at AS "finishedAt"
           FROM channel_history_imports WHERE tenant_id = $1 AND channel_id = $2 ORDER BY id DESC LIMIT 20`,
        [tenantId, req.params.id],
      );
      return rows.rows;
    });

    // --- moving tickets between channels (core.md §7) ---
    r.put(
      '/api/ticketsChannelId/:id',
      {
        config: { access: { menu: 'tickets' } },
        schema: { operationId: 'moveTicketToChannel', tags: ['tickets'], summary: 'Transfere um atendimento para outro canal', params: idParam, body: z.object({ channelId: int32.optional(), whatsappId: int32.optional() }).strict(), response: { 200: ticketSchema } },
      },
      async (req) => {
        const to = req.body.channelId ?? req.body.whatsappId;
        // "Transfer channel needs a new channel chosen" (administration.md §5).
        if (!to) throw new AppError('ERR_REQUIRED_FIELD', { field: 'canal' });
        return moveTicket(kernel, req.access!, req.params.id, to);
      },
    );
    r.put(
      '/api/ticketsChannel',
      {
        ...write,
        schema: {
          operationId: 'moveChannelTickets',
          tags,
          summary: 'Transfere os atendimentos de um canal para outro',
          body: z.object({ fromChannelId: int32, toChannelId: int32 }).strict(),
          response: { 200: z.object({ moved: z.number().int(), skipped: z.array(z.object({ ticketId: z.number().int(), existingTicketId: z.number().int().nullable() })) }) },
        },
      },
      async (req) => moveChannelTickets(kernel, req.access!, req.body.fromChannelId, req.body.toChannelId),
    );

    // --- history import (core.md §7) ---
    const syncBody = z
      .object({
        channelId: int32.optional(),
        whatsappId: int32.optional(),
        startDate: z.coerce.date().optional(),
        endDate: z.coerce.date().optional(),
        queueId: int32.nullable().optional(),
        closeTickets: z.boolean().optional(),
        groups: z.boolean().optional(),
        deviceMessages: z.boolean().optional(),
        // Checked by hand so a zero or negative limit gets its own catalogue error (ERR_POSITIVE_LIMIT).
        limit: z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]).optional(),
      })
      .strict();
    const syncInput = (b: z.infer<typeof syncBody>, extra: { contactId?: number } = {}) => {
      const channelId = b.channelId ?? b.whatsappId;
      if (!channelId) throw new AppError('ERR_REQUIRED_FIELD', { field: 'canal' });
      if (b.startDate && Number.isNaN(b.startDate.getTime())) throw new AppError('ERR_INVALID_DATE');
      if (b.endDate && Number.isNaN(b.endDate.getTime())) throw new AppError('ERR_INVALID_DATE');
      return { channelId, from: b.startDate, to: b.endDate, queueId: b.queueId ?? null, closeTickets: b.closeTickets, groups: b.groups, deviceMessages: b.deviceMessages, limit: b.limit, ...extra };
    };
    const queued = { 202: z.object({ importId: z.string(), status: z.literal('queued') }) };
    r.post('/api/messages/syncOld', { ...write, schema: { operationId: 'importChannelHistory', tags, summary: 'Importa o histórico de mensagens de um canal', body: syncBody, response: queued } }, async (req, reply) => reply.status(202).send(await queueHistoryImport(kernel, req.access!, syncInput(req.body))));
    r.post(
      '/api/messages/syncOldByUser',
      { ...write, schema: { operationId: 'importContactHistory', tags, summary: 'Importa o histórico de mensagens de um contato', body: syncBody.extend({ contactId: int32.optional(), ticketId: int32.optional() }).strict(), response: queued } },
      async (req, reply) => {
        let contactId = req.body.contactId;
        if (req.body.ticketId) {
          const t = await kernel.db.pool.query<{ contact_id: number; channel_id: number | null }>('SELECT contact_id, channel_id FROM tickets WHERE tenant_id = $1 AND id = $2', [principalOf(req).tenantId, req.body.ticketId]);
          if (!t.rows[0]) throw new AppError('ERR_NO_TICKET_FOUND');
          contactId = t.rows[0].contact_id;
          req.body.channelId ??= t.rows[0].channel_id ?? undefined;
        }
        if (!contactId) throw new AppError('ERR_REQUIRED_FIELD', { field: 'contato' });
        return reply.status(202).send(await queueHistoryImport(kernel, req.access!, syncInput(req.body, { contactId })));
      },
    );

    /** Records the tenant's last message-sync time; only for the caller's own tenant. */
    r.post(
      '/api/messagesUpdateSyncTime',
      { ...write, schema: { operationId: 'updateMessagesSyncTime', tags, summary: 'Registra a hora da última sincronização de mensagens', body: z.object({ tenantId: int32 }).strict(), response: { 200: z.object({ tenantId: z.number().int(), syncTime: z.string() }) } } },
      async (req) => {
        const { tenantId } = principalOf(req);
        if (req.body.tenantId !== tenantId) throw new AppError('ERR_NO_PERMISSION');
        const at = new Date().toISOString();
        await kernel.db.pool.query(
          `INSERT INTO settings (tenant_id, key, value) VALUES ($1, 'messagesSyncTime', $2) ON CONFLICT (tenant_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
          [tenantId, at],
        );
        return { tenantId, syncTime: at };
      },
    );
  });
}
