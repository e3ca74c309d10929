import type { FastifyInstance } from 'fastify';
import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { QuickMessage } from '../conversations/entities.ts';
import { principalOf } from '../../sdk/http.ts';
import { quickMessageAnswer } from './schemas.ts';
import { callerHasMenu, escapeLike, idParam, isUniqueViolation, iso } from './shared.ts';
import { pickQuickMessage, slashKey } from './quick-message-resolver.ts';
import { decodePath } from '../../storage/local.ts';
import { MEDIA_MAX_BYTES, acceptUpload, isStoredMediaUrl, mimeTypeOf, removeStoredMedia } from './media.ts';

type QuickMessageRow = InferEntity<typeof QuickMessage>;

export const quickMessageOut = (q: QuickMessageRow) => ({
  id: q.id,
  key: q.key,
  message: q.message,
  // An uploaded file has a signed URL of the media port; an external link is given as entered.
  mediaUrl: q.mediaUrl ?? null,
  mediaName: q.mediaName ?? null,
  mediaType: mimeTypeOf(q.mediaName) ?? mimeTypeOf(q.mediaUrl),
  asAudio: q.asAudio,
  active: q.active,
  createdAt: iso(q.createdAt),
  updatedAt: iso(q.updatedAt),
});

/**
 * The quick message a typed `/key` designates among the tenant's active ones
 * (the slash rule: no match, several matches without an exact key, and an empty
 * message are catalogue errors). `em` must be tenant-scoped. The message
 * pipeline calls this before storing an agent's message.
 */
export async function resolveQuickMessageForTenant(em: EntityManager, text: string | null | undefined): Promise<QuickMessageRow> {
  const key = slashKey(text);
  // The exact key first: among many prefix matches it might not be in the first page of candidates.
  const exact = await em.findOne(QuickMessage, { active: true, key: { $ilike: escapeLike(key) } });
  if (exact) return exact;
  const candidates = await em.find(QuickMessage, { active: true, key: { $ilike: `${escapeLike(key)}%` } }, { orderBy: { key: 'asc' }, limit: 21 });
  return pickQuickMessage(key, candidates);
}

/**
 * What a sender needs to attach a quick message's media: its URL (a signed
 * media-port URL for an uploaded file, or the external link), name and type.
 */
export function quickMessageMedia(q: QuickMessageRow): { url: string; name: string; mimetype: string; stored: boolean; asAudio: boolean } | null {
  if (!q.mediaUrl) return null;
  const name = q.mediaName ?? (decodePath(q.mediaUrl.split('?')[0].split('/').pop() ?? '') || 'arquivo');
  return { url: q.mediaUrl, name, mimetype: mimeTypeOf(name) ?? mimeTypeOf(q.mediaUrl) ?? 'application/octet-stream', stored: isStoredMediaUrl(q.mediaUrl), asAudio: q.asAudio };
}

const key = z
  .string()
  .trim()
  .min(1, 'O campo atalho é obrigatório')
  .max(50)
  .regex(/^[^\s/]+$/, 'o atalho não pode ter espaços nem barras');
const createBody = z
  .object({
    key,
    message: z.string().trim().min(1, 'O campo mensagem é obrigatório').max(4096),
    mediaUrl: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    mediaName: z.string().trim().min(1).max(200).nullable().optional(),
    asAudio: z.boolean().optional(),
    active: z.boolean().optional(),
  })
  .strict();
const updateBody = createBody.partial().strict();
const listQuery = z.object({ all: z.enum(['true', 'false']).optional() });
const resolveQuery = z.object({ text: z.string().max(4096).optional() });

/**
 * Quick messages (mensagens rápidas): every agent lists the active ones and
 * resolves `/key`; users with the `quickMessages` menu manage them, including
 * inactive ones and their media file.
 */
export async function quickMessageRoutes(app: FastifyInstance, kernel: Kernel) {
  // Multipart only where files are accepted; limits are set per call.
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 12, fileSize: MEDIA_MAX_BYTES } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const write = { config: { access: { menu: 'quickMessages' } } };
  const emit = (tenantId: number, event: string, data: unknown) => kernel.realtime.emit(tenantId, event, data, ['tenant']);

  const load = async (em: EntityManager, id: number) => {
    const q = await em.findOne(QuickMessage, { id });
    if (!q) throw new AppError('ERR_NOT_FOUND');
    return q;
  };
  const keyTaken = async (em: EntityManager, value: string, exceptId?: number) =>
    (await em.count(QuickMessage, { key: { $ilike: escapeLike(value) }, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0;
  const flushOrDuplicate = async (em: EntityManager) => {
    try {
      await em.flush();
    } catch (err) {
      if (isUniqueViolation(err, 'quick_messages_key')) throw new AppError('ERR_QUICK_MESSAGE_KEY_EXISTS');
      throw err;
    }
  };

  r.get('/api/quick-messages', { schema: { operationId: 'listQuickMessages', tags: ['quickMessages'], summary: 'Lista as mensagens rápidas', querystring: listQuery, response: { 200: z.array(quickMessageAnswer) } } }, async (req) => {
    const all = req.query.all === 'true';
    if (all && !callerHasMenu(kernel, req, 'quickMessages')) throw new AppError('ERR_NO_PERMISSION');
    const rows = await req.em.find(QuickMessage, all ? {} : { active: true }, { orderBy: { key: 'asc', id: 'asc' } });
    return rows.map(quickMessageOut);
  });

  r.get('/api/quick-messages/resolve', { schema: { operationId: 'resolveQuickMessage', tags: ['quickMessages'], summary: 'Resolve o atalho /chave de uma mensagem rápida', querystring: resolveQuery, response: { 200: quickMessageAnswer } } }, async (req) => {
    return quickMessageOut(await resolveQuickMessageForTenant(req.em, req.query.text));
  });

  r.post('/api/quick-messages', { ...write, schema: { operationId: 'createQuickMessage', tags: ['quickMessages'], summary: 'Cria uma mensagem rápida', body: createBody, response: { 201: quickMessageAnswer } } }, async (req, reply) => {
    const tenantId = principalOf(req).tenantId;
    const b = req.body;
    if (await keyTaken(req.em, b.key)) throw new AppError('ERR_QUICK_MESSAGE_KEY_EXISTS');
    const q = req.em.create(QuickMessage, {
      tenantId,
      key: b.key,
      message: b.message,
      mediaUrl: b.mediaUrl ?? null,
      mediaName: b.mediaUrl ? (b.mediaName ?? null) : null,
      asAudio: b.asAudio ?? false,
      active: b.active ?? true,
    } as QuickMessageRow);
    await flushOrDuplicate(req.em);
    await emit(tenantId, 'quickMessage.created', quickMessageOut(q));
    return reply.status(201).send(quickMessageOut(q));
  });

  r.put('/api/quick-messages/:id', { ...write, schema: { operationId: 'updateQuickMessage', tags: ['quickMessages'], summary: 'Altera uma mensagem rápida', params: idParam, body: updateBody, response: { 200: quickMessageAnswer } } }, async (req) => {
    const tenantId = principalOf(req).tenantId;
    const q = await load(req.em, req.params.id);
    const b = req.body;
    if (b.key !== undefined && (await keyTaken(req.em, b.key, q.id))) throw new AppError('ERR_QUICK_MESSAGE_KEY_EXISTS');
    const previousMedia = q.mediaUrl;
    if (b.key !== undefined) q.key = b.key;
    if (b.message !== undefined) q.message = b.message;
    if (b.asAudio !== undefined) q.asAudio = b.asAudio;
    if (b.active !== undefined) q.active = b.active;
    if (b.mediaUrl !== undefined) {
      q.mediaUrl = b.mediaUrl;
      q.mediaName = b.mediaUrl ? (b.mediaName ?? null) : null;
    } else if (b.mediaName !== undefined && q.mediaUrl) q.mediaName = b.mediaName;
    await flushOrDuplicate(req.em);
    if (previousMedia !== q.mediaUrl) await removeStoredMedia(kernel, previousMedia);
    await emit(tenantId, 'quickMessage.updated', quickMessageOut(q));
    return quickMessageOut(q);
  });

  r.delete('/api/quick-messages/:id', { ...write, schema: { operationId: 'deleteQuickMessage', tags: ['quickMessages'], summary: 'Exclui uma mensagem rápida', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    const tenantId = principalOf(req).tenantId;
    const q = await load(req.em, req.params.id);
    const data = quickMessageOut(q);
    const media = q.mediaUrl;
    await req.em.remove(q).flush();
    await removeStoredMedia(kernel, media);
    await emit(tenantId, 'quickMessage.deleted', data);
    return reply.status(204).send(null);
  });

  /** Attaches (or replaces) the media file: multipart, one part named `file`. */
  r.post('/api/quick-messages/:id/media', { ...write, schema: { operationId: 'uploadQuickMessageMedia', tags: ['quickMessages'], summary: 'Anexa o arquivo de uma mensagem rápida (multipart, campo file)', params: idParam, response: { 200: quickMessageAnswer } } }, async (req) => {
    const tenantId = principalOf(req).tenantId;
    if (!req.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
    const q = await load(req.em, req.params.id);
    const file = await req.file({ limits: { fileSize: MEDIA_MAX_BYTES, files: 1 } });
    if (!file) throw new AppError('ERR_REQUIRED_FIELD', { field: 'file' });
    const stored = await acceptUpload(kernel, tenantId, file);
    const previous = q.mediaUrl;
    q.mediaUrl = stored.url;
    q.mediaName = stored.name;
    try {
      await req.em.flush();
    } catch (err) {
      await removeStoredMedia(kernel, stored.url);
      throw err;
    }
    await removeStoredMedia(kernel, previous);
    await emit(tenantId, 'quickMessage.updated', quickMessageOut(q));
    return quickMessageOut(q);
  });

  r.delete('/api/quick-messages/:id/media', { ...write, schema: { operationId: 'deleteQuickMessageMedia', tags: ['quickMessages'], summary: 'Remove o arquivo de uma mensagem rápida', params: idParam, response: { 200: quickMessageAnswer } } }, async (req) => {
    const tenantId = principalOf(req).tenantId;
    const q = await load(req.em, req.params.id);
    const previous = q.mediaUrl;
    q.mediaUrl = null;
    q.mediaName = null;
    await req.em.flush();
    await removeStoredMedia(kernel, previous);
    await emit(tenantId, 'quickMessage.updated', quickMessageOut(q));
    return quickMessageOut(q);
  });
}
