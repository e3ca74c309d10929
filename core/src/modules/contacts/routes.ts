import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError, languageOf } from '../../errors.ts';
import { idParam } from '../catalog/shared.ts';
import { birthdayOrder } from './birthday.ts';
import {
  contactCreateBody,
  contactListQuery,
  contactOutOne,
  contactUpdateBody,
  createContact,
  deleteContact,
  listContacts,
  loadContact,
  setContactFlag,
  updateContact,
  type Actor,
} from './service.ts';
import { applyNinthDigit, findDuplicates, mergeBody, mergeContacts, previewNinthDigit, validateNumbers } from './maintenance.ts';
import { IMPORT_MAX_BYTES, checkImportFile } from './import-file.ts';
import { IMPORT_JOB, importResult, runImport, startImport } from './import-job.ts';
import { csvSeparator, exportCsv, exportXlsx } from './export.ts';

const actorOf = (req: FastifyRequest): Actor => ({ userId: req.principal!.userId, tenantId: req.principal!.tenantId, profile: req.principal!.profile });

/**
 * Contacts (spec §2 contacts screen, §3, §5). Every route needs the
 * `contacts` menu; deleting, merging and the ninth-digit fix also need an
 * admin or supervisor profile. The tenant always comes from the token.
 */
export async function contactRoutes(app: FastifyInstance, kernel: Kernel) {
  kernel.jobs.define<{ importId: string; tenantId: number }>(IMPORT_JOB, (data, ctx) => runImport(kernel, data, ctx), { concurrency: 2 });

  await app.register(multipart, { limits: { files: 1, fields: 5, parts: 6, fileSize: IMPORT_MAX_BYTES } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { config: { access: { menu: 'contacts' } } };
  const manage = { config: { access: { menu: 'contacts', profiles: ['admin' as const, 'super' as const] } } };

  r.get('/api/contacts', { ...read, schema: { querystring: contactListQuery } }, async (req) => listContacts(kernel, req.em, req.principal!.tenantId, req.query));

  r.post('/api/contacts', { ...read, schema: { body: contactCreateBody } }, async (req, reply) => {
    const out = await createContact(kernel, req.em, actorOf(req), req.body, birthdayOrder(req.headers['accept-language']));
    return reply.status(201).send(out);
  });

  // --- maintenance (static paths, matched before /:id) ---
  r.get('/api/contacts/duplicates', { ...read, schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }) } }, async (req) =>
    findDuplicates(kernel, req.em, req.principal!.tenantId, req.query.limit),
  );

  r.post('/api/contacts/merge', { ...manage, schema: { body: mergeBody } }, async (req) => mergeContacts(kernel, req.em, actorOf(req), req.body.keepId, req.body.mergeIds));

  r.get('/api/contacts/ninth-digit', read, async (req) => previewNinthDigit(kernel, req.principal!.tenantId));

  r.post('/api/contacts/ninth-digit', manage, async (req) => applyNinthDigit(kernel, actorOf(req)));

  r.get('/api/contacts/validate', { ...read, schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(5000).default(1000) }) } }, async (req) =>
    validateNumbers(kernel, req.principal!.tenantId, req.query.limit),
  );

  // --- import / export ---
  r.post('/api/contacts/import', read, async (req, reply) => {
    if (!req.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
    const file = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
    if (!file) throw new AppError('ERR_REQUIRED_FIELD', { field: 'file' });
    // At most IMPORT_MAX_BYTES (the multipart limit); only the format and a CSV's header line are looked at
    // here: the rows are read, as a stream, by the job worker.
    const buf = await file.toBuffer();
    const kind = checkImportFile(buf, file.filename ?? '');
    const jobId = await startImport(kernel, actorOf(req), languageOf(req.headers['accept-language']), file.filename ?? 'contatos', kind, buf);
    // The row count is known once the worker has read the file: progress frames and the polling route carry it.
    return reply.status(202).send({ jobId, total: 0 });
  });

  r.get('/api/contacts/import/:jobId', { ...read, schema: { params: z.object({ jobId: z.uuid() }) } }, async (req) => {
    const result = await importResult(kernel, req.principal!.tenantId, req.params.jobId);
    if (!result) throw new AppError('ERR_NOT_FOUND');
    return result;
  });

  r.get('/api/contacts/export', { ...read, schema: { querystring: z.object({ format: z.enum(['csv', 'xlsx']).default('csv') }) } }, async (req, reply) => {
    const lang = languageOf(req.headers['accept-language']);
    const order = birthdayOrder(req.headers['accept-language']);
    const tenantId = req.principal!.tenantId;
    const base = lang === 'pt' ? 'contatos' : 'contacts';
    if (req.query.format === 'xlsx')
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${base}.xlsx"`)
        .send(exportXlsx(kernel.db.pool, tenantId, lang, order));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${base}.csv"`)
      .send(exportCsv(kernel.db.pool, tenantId, lang, order, csvSeparator(req.headers['accept-language'])));
  });

  // --- one contact ---
  r.get('/api/contacts/:id', { ...read, schema: { params: idParam } }, async (req) => contactOutOne(kernel, req.em, req.principal!.tenantId, await loadContact(req.em, req.params.id)));

  r.put('/api/contacts/:id', { ...read, schema: { params: idParam, body: contactUpdateBody } }, async (req) =>
    updateContact(kernel, req.em, actorOf(req), req.params.id, req.body, birthdayOrder(req.headers['accept-language'])),
  );

  r.delete('/api/contacts/:id', { ...manage, schema: { params: idParam } }, async (req, reply) => {
    await deleteContact(kernel, req.em, actorOf(req), req.params.id);
    return reply.status(204).send();
  });

  r.put('/api/contacts/:id/block', { ...read, schema: { params: idParam, body: z.object({ blocked: z.boolean() }).strict() } }, async (req) =>
    setContactFlag(kernel, req.em, actorOf(req), req.params.id, 'blocked', req.body.blocked),
  );

  r.put('/api/contacts/:id/chatbot-block', { ...read, schema: { params: idParam, body: z.object({ chatbotBlocked: z.boolean() }).strict() } }, async (req) =>
    setContactFlag(kernel, req.em, actorOf(req), req.params.id, 'chatbotBlocked', req.body.chatbotBlocked),
  );
}
