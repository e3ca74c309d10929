import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Readable } from 'node:stream';
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
import { principalOf } from '../../sdk/http.ts';
import { contactPage, contactSchema, duplicatesAnswer, importResultSchema, mergeAnswer, ninthDigitPreview, ninthDigitResult, validationReport } from './schemas.ts';

const actorOf = (req: FastifyRequest): Actor => {
  const { userId, tenantId, profile } = principalOf(req);
  return { userId, tenantId, profile };
};
const tags = ['contacts'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A file streamed as it is built, never JSON (Fastify writes streams as they are, without the serializer); documented as binary. */
const fileStream = z.custom<Readable>((v) => v instanceof Readable).meta({ type: 'string', format: 'binary' });

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

  r.get('/api/contacts', { ...read, schema: { operationId: 'listContacts', tags, summary: 'Lista os contatos', querystring: contactListQuery, response: { 200: contactPage } } }, async (req) =>
    listContacts(kernel, req.em, principalOf(req).tenantId, req.query),
  );

  r.post('/api/contacts', { ...read, schema: { operationId: 'createContact', tags, summary: 'Cria um contato', body: contactCreateBody, response: { 201: contactSchema } } }, async (req, reply) => {
    const out = await createContact(kernel, req.em, actorOf(req), req.body, birthdayOrder(req.headers['accept-language']));
    return reply.status(201).send(out);
  });

  // --- maintenance (static paths, matched before /:id) ---
  r.get(
    '/api/contacts/duplicates',
    { ...read, schema: { operationId: 'listDuplicateContacts', tags, summary: 'Contatos provavelmente duplicados', querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }), response: { 200: duplicatesAnswer } } },
    async (req) => findDuplicates(kernel, req.em, principalOf(req).tenantId, req.query.limit),
  );

  r.post('/api/contacts/merge', { ...manage, schema: { operationId: 'mergeContacts', tags, summary: 'Junta contatos duplicados em um', body: mergeBody, response: { 200: mergeAnswer } } }, async (req) => mergeContacts(kernel, req.em, actorOf(req), req.body.keepId, req.body.mergeIds));

  r.get('/api/contacts/ninth-digit', { ...read, schema: { operationId: 'previewNinthDigit', tags, summary: 'Contatos que a correção do nono dígito alteraria', response: { 200: ninthDigitPreview } } }, async (req) =>
    previewNinthDigit(kernel, principalOf(req).tenantId),
  );

  r.post('/api/contacts/ninth-digit', { ...manage, schema: { operationId: 'applyNinthDigit', tags, summary: 'Acrescenta o nono dígito aos celulares brasileiros', response: { 200: ninthDigitResult } } }, async (req) => applyNinthDigit(kernel, actorOf(req)));

  r.get(
    '/api/contacts/validate',
    { ...read, schema: { operationId: 'validateContactNumbers', tags, summary: 'Relatório de números de contato inválidos', querystring: z.object({ limit: z.coerce.number().int().min(1).max(5000).default(1000) }), response: { 200: validationReport } } },
    async (req) => validateNumbers(kernel, principalOf(req).tenantId, req.query.limit),
  );

  // --- import / export ---
  // Body: multipart with one CSV/XLSX file (`parseImportFile`).
  r.post('/api/contacts/import', { ...read, schema: { operationId: 'importContacts', tags, summary: 'Importa contatos de um arquivo', response: { 202: z.object({ jobId: z.string(), total: z.number().int() }) } } }, async (req, reply) => {
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

  r.get(
    '/api/contacts/import/:jobId',
    { ...read, schema: { operationId: 'getContactImport', tags, summary: 'Andamento e resultado de uma importação', params: z.object({ jobId: z.uuid() }), response: { 200: importResultSchema } } },
    async (req) => {
      const result = await importResult(kernel, principalOf(req).tenantId, req.params.jobId);
      if (!result) throw new AppError('ERR_NOT_FOUND');
      return result;
    },
  );

  r.get(
    '/api/contacts/export',
    {
      ...read,
      schema: {
        operationId: 'exportContacts',
        tags,
        summary: 'Exporta os contatos em CSV ou XLSX',
        querystring: z.object({ format: z.enum(['csv', 'xlsx']).default('csv') }),
        response: { 200: { description: 'O arquivo', content: { 'text/csv': { schema: fileStream }, [XLSX]: { schema: fileStream } } } },
      },
    },
    async (req, reply) => {
      const lang = languageOf(req.headers['accept-language']);
      const order = birthdayOrder(req.headers['accept-language']);
      const { tenantId } = principalOf(req);
      const base = lang === 'pt' ? 'contatos' : 'contacts';
      if (req.query.format === 'xlsx')
        return reply
          .header('content-type', XLSX)
          .header('content-disposition', `attachment; filename="${base}.xlsx"`)
          .send(exportXlsx(kernel.db.pool, tenantId, lang, order));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${base}.csv"`)
        .send(exportCsv(kernel.db.pool, tenantId, lang, order, csvSeparator(req.headers['accept-language'])));
    },
  );

  // --- one contact ---
  r.get('/api/contacts/:id', { ...read, schema: { operationId: 'getContact', tags, summary: 'Mostra um contato', params: idParam, response: { 200: contactSchema } } }, async (req) =>
    contactOutOne(kernel, req.em, principalOf(req).tenantId, await loadContact(req.em, req.params.id)),
  );

  r.put('/api/contacts/:id', { ...read, schema: { operationId: 'updateContact', tags, summary: 'Altera um contato', params: idParam, body: contactUpdateBody, response: { 200: contactSchema } } }, async (req) =>
    updateContact(kernel, req.em, actorOf(req), req.params.id, req.body, birthdayOrder(req.headers['accept-language'])),
  );

  r.delete('/api/contacts/:id', { ...manage, schema: { operationId: 'deleteContact', tags, summary: 'Exclui um contato', params: idParam, response: { 204: z.null() } } }, async (req, reply) => {
    await deleteContact(kernel, req.em, actorOf(req), req.params.id);
    return reply.status(204).send(null);
  });

  r.put('/api/contacts/:id/block', { ...read, schema: { operationId: 'blockContact', tags, summary: 'Bloqueia ou desbloqueia um contato', params: idParam, body: z.object({ blocked: z.boolean() }).strict(), response: { 200: contactSchema } } }, async (req) =>
    setContactFlag(kernel, req.em, actorOf(req), req.params.id, 'blocked', req.body.blocked),
  );

  r.put(
    '/api/contacts/:id/chatbot-block',
    { ...read, schema: { operationId: 'blockContactChatbot', tags, summary: 'Liga ou desliga o chatbot para um contato', params: idParam, body: z.object({ chatbotBlocked: z.boolean() }).strict(), response: { 200: contactSchema } } },
    async (req) => setContactFlag(kernel, req.em, actorOf(req), req.params.id, 'chatbotBlocked', req.body.chatbotBlocked),
  );
}
