import type { FastifyInstance } from 'fastify';
import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { Queue, Tag } from '../conversations/entities.ts';
import { principalOf } from '../../sdk/http.ts';
import { colorSchema, escapeLike, idParam, isUniqueViolation, iso } from './shared.ts';
import { queueAnswer, tagAnswer } from './schemas.ts';

type QueueRow = InferEntity<typeof Queue>;
type TagRow = InferEntity<typeof Tag>;

export const queueOut = (q: QueueRow) => ({
  id: q.id,
  name: q.name,
  color: q.color,
  greetingMessage: q.greetingMessage ?? null,
  slaFirstResponseMinutes: q.slaFirstResponseMinutes ?? null,
  slaResolutionMinutes: q.slaResolutionMinutes ?? null,
  createdAt: iso(q.createdAt),
  updatedAt: iso(q.updatedAt),
});

export const tagOut = (t: TagRow) => ({ id: t.id, name: t.name, color: t.color, active: t.active, createdAt: iso(t.createdAt), updatedAt: iso(t.updatedAt) });

const name = z.string().trim().min(1, 'O campo nome é obrigatório').max(120);
/** An SLA target in whole minutes, up to 30 days; null turns it off. */
const slaMinutes = z.number().int('SLA em minutos inteiros').min(1, 'SLA mínimo de 1 minuto').max(43200, 'SLA máximo de 30 dias').nullable().optional();
const queueCreate = z.object({
  name,
  color: colorSchema.optional(),
  greetingMessage: z.string().trim().max(4096).nullable().optional(),
  slaFirstResponseMinutes: slaMinutes,
  slaResolutionMinutes: slaMinutes,
}).strict();
const queueUpdate = queueCreate.partial().strict();
const tagCreate = z.object({ name, color: colorSchema.optional(), active: z.boolean().optional() }).strict();
const tagUpdate = tagCreate.partial().strict();
const tagList = z.object({ active: z.enum(['true', 'false']).optional() });

/**
 * Queues (filas) and tags (etiquetas): every user of the tenant lists them
 * (agents pick queues and tags on tickets and contacts); only users with the
 * `queues` / `tags` menu change them. Names are unique per tenant, case
 * insensitive, enforced by the database.
 */
export async function queueAndTagRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const emit = (tenantId: number, event: string, data: unknown) => kernel.realtime.emit(tenantId, event, data, ['tenant']);

  // --- queues ---
  r.get('/api/queues', { schema: { operationId: 'listQueues', tags: ['queues'], summary: 'Lista as filas', response: { 200: z.array(queueAnswer) } } }, async (req) => {
    const rows = await req.em.find(Queue, {}, { orderBy: { name: 'asc', id: 'asc' } });
    return rows.map(queueOut);
  });

  const queueNameTaken = async (req: { em: EntityManager }, value: string, exceptId?: number) =>
    (await req.em.count(Queue, { name: { $ilike: escapeLike(value) }, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0;

  r.post('/api/queues', { config: { access: { menu: 'queues' } }, schema: { operationId: 'createQueue', tags: ['queues'], summary: 'Cria uma fila', body: queueCreate, response: { 201: queueAnswer } } }, async (req, reply) => {
    const tenantId = principalOf(req).tenantId;
    if (await queueNameTaken(req, req.body.name)) throw new AppError('ERR_QUEUE_EXISTS');
    const q = req.em.create(Queue, { tenantId, name: req.body.name, color: req.body.color ?? '#4C6EF5', greetingMessage: req.body.greetingMessage ?? null, slaFirstResponseMinutes: req.body.slaFirstResponseMinutes ?? null, slaResolutionMinutes: req.body.slaResolutionMinutes ?? null } as QueueRow);
    try {
      await req.em.flush();
    } catch (err) {
      if (isUniqueViolation(err, 'queues_name_key')) throw new AppError('ERR_QUEUE_EXISTS');
      throw err;
    }
    await emit(tenantId, 'queue.created', queueOut(q));
    return reply.status(201).send(queueOut(q));
  });

  r.put('/api/queues/:id', { config: { access: { menu: 'queues' } }, schema: { operationId: 'updateQueue', tags: ['queues'], summary: 'Altera uma fila', params: idParam, body: queueUpdate, response: { 200: queueAnswer } } }, async (req) => {
    const tenantId = principalOf(req).tenantId;
    const q = await req.em.findOne(Queue, { id: req.params.id });
    if (!q) throw new AppError('ERR_NOT_FOUND');
    if (req.body.name !== undefined && (await queueNameTaken(req, req.body.name, q.id))) throw new AppError('ERR_QUEUE_EXISTS');
    req.em.assign(q, req.body);
    try {
      await req.em.flush();
    } catch (err) {
      if (isUniqueViolation(err, 'queues_name_key')) throw new AppError('ERR_QUEUE_EXISTS');
      throw err;
    }
    await emit(tenantId, 'queue.updated', queueOut(q));
    return queueOut(q);
  });

  // Tickets and channels of a deleted queue keep existing without a queue (the schema's ON DELETE SET NULL).
  r.delete('/api/queues/:id', { config: { access: { menu: 'queues' } }, schema: { operationId: 'deleteQueue', tags: ['queues'], summary: 'Exclui uma fila', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    const tenantId = principalOf(req).tenantId;
    const q = await req.em.findOne(Queue, { id: req.params.id });
    if (!q) throw new AppError('ERR_NOT_FOUND');
    const data = queueOut(q);
    await req.em.remove(q).flush();
    await emit(tenantId, 'queue.deleted', data);
    return reply.status(204).send(null);
  });

  // --- tags ---
  r.get('/api/tags', { schema: { operationId: 'listTags', tags: ['tags'], summary: 'Lista as etiquetas', querystring: tagList, response: { 200: z.array(tagAnswer) } } }, async (req) => {
    const where = req.query.active === undefined ? {} : { active: req.query.active === 'true' };
    const rows = await req.em.find(Tag, where, { orderBy: { name: 'asc', id: 'asc' } });
    return rows.map(tagOut);
  });

  const tagNameTaken = async (req: { em: EntityManager }, value: string, exceptId?: number) =>
    (await req.em.count(Tag, { name: { $ilike: escapeLike(value) }, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0;

  r.post('/api/tags', { config: { access: { menu: 'tags' } }, schema: { operationId: 'createTag', tags: ['tags'], summary: 'Cria uma etiqueta', body: tagCreate, response: { 201: tagAnswer } } }, async (req, reply) => {
    const tenantId = principalOf(req).tenantId;
    if (await tagNameTaken(req, req.body.name)) throw new AppError('ERR_TAG_EXISTS');
    const t = req.em.create(Tag, { tenantId, name: req.body.name, color: req.body.color ?? '#868E96', active: req.body.active ?? true } as TagRow);
    try {
      await req.em.flush();
    } catch (err) {
      if (isUniqueViolation(err, 'tags_name_key')) throw new AppError('ERR_TAG_EXISTS');
      throw err;
    }
    await emit(tenantId, 'tag.created', tagOut(t));
    return reply.status(201).send(tagOut(t));
  });

  r.put('/api/tags/:id', { config: { access: { menu: 'tags' } }, schema: { operationId: 'updateTag', tags: ['tags'], summary: 'Altera uma etiqueta', params: idParam, body: tagUpdate, response: { 200: tagAnswer } } }, async (req) => {
    const tenantId = principalOf(req).tenantId;
    const t = await req.em.findOne(Tag, { id: req.params.id });
    if (!t) throw new AppError('ERR_NOT_FOUND');
    if (req.body.name !== undefined && (await tagNameTaken(req, req.body.name, t.id))) throw new AppError('ERR_TAG_EXISTS');
    req.em.assign(t, req.body);
    try {
      await req.em.flush();
    } catch (err) {
      if (isUniqueViolation(err, 'tags_name_key')) throw new AppError('ERR_TAG_EXISTS');
      throw err;
    }
    await emit(tenantId, 'tag.updated', tagOut(t));
    return tagOut(t);
  });

  // Removing a tag removes it from every contact (contact_tags cascades).
  r.delete('/api/tags/:id', { config: { access: { menu: 'tags' } }, schema: { operationId: 'deleteTag', tags: ['tags'], summary: 'Exclui uma etiqueta', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    const tenantId = principalOf(req).tenantId;
    const t = await req.em.findOne(Tag, { id: req.params.id });
    if (!t) throw new AppError('ERR_NOT_FOUND');
    const data = tagOut(t);
    await req.em.remove(t).flush();
    await emit(tenantId, 'tag.deleted', data);
    return reply.status(204).send(null);
  });
}
