import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, catalogueEntry, formatError, localeOf, type ErrorCode } from '../errors.ts';

/** Fastify's own client-error codes mapped to the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'ERR_PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'ERR_VALIDATION',
  FST_ERR_CTP_INVALID_JSON_BODY: 'ERR_VALIDATION',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'ERR_VALIDATION',
  FST_ERR_VALIDATION: 'ERR_VALIDATION',
  FST_ERR_NOT_FOUND: 'ERR_ROUTE_NOT_FOUND',
  // A path that is not valid percent-encoding, or a parameter longer than the router keeps, names no route.
  FST_ERR_BAD_URL: 'ERR_ROUTE_NOT_FOUND',
  FST_ERR_MAX_PARAM_LENGTH: 'ERR_ROUTE_NOT_FOUND',
  FST_REQ_FILE_TOO_LARGE: 'ERR_FILE_TOO_LARGE',
  FST_FILES_LIMIT: 'ERR_FILE_REJECTED',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_PARTS_LIMIT: 'ERR_FILE_REJECTED',
  FST_FIELDS_LIMIT: 'ERR_FILE_REJECTED',
  FST_PROTO_VIOLATION: 'ERR_FILE_REJECTED',
  FST_INVALID_JSON_FIELD_ERROR: 'ERR_FILE_REJECTED',
  FST_MP_PREMATURE_CLOSE: 'ERR_FILE_REJECTED',
  FST_ERR_RATE_LIMIT: 'ERR_RATE_LIMIT',
};

/**
 * What a framework error's `{details}` says instead of Fastify's own English text, which can
 * echo the caller's input (the URL, the parser's position) into the answer.
 */
const FASTIFY_DETAILS: Record<string, { pt: string; en: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { pt: 'o corpo não é um JSON válido', en: 'the body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { pt: 'o corpo JSON está vazio', en: 'the JSON body is empty' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { pt: 'o tamanho do corpo não confere com Content-Length', en: 'the body size does not match Content-Length' },
};

/**
 * What the multipart parser (busboy, under @fastify/multipart) throws for a
 * malformed body: plain errors without a code or status, which every upload
 * route would otherwise answer as a 500.
 */
const MALFORMED_MULTIPART = /^(Multipart: Boundary not found|Boundary required|Unexpected end of (multipart data|form|file)|.* terminated early due to unexpected end of multipart data|The needle (cannot be an empty String\/Buffer|cannot have a length bigger than \d+)\.?|Malformed part header)$/;

/** PostgreSQL connection failures: the request could not be stored, so the caller must retry. */
const UNAVAILABLE = /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|the database system is (starting|shutting)|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/**
 * The single error handler: answers `{error, message}` (plus any extra fields
 * of an AppError), in Portuguese unless the client prefers another language,
 * never with a stack trace, and never a 500 for input the client got wrong.
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(answerError);

  app.setNotFoundHandler((req, reply) => {
    const lang = localeOf(req.headers['accept-language']);
    reply.status(404).send({ error: 'ERR_ROUTE_NOT_FOUND', message: formatError('ERR_ROUTE_NOT_FOUND', lang) });
  });
}

/**
 * Fastify's `frameworkErrors` option: errors raised before any route is matched (a URL that is
 * not valid percent-encoding, a parameter longer than the router keeps, a failed constraint)
 * bypass the error handler and hooks, so they are answered here, in the catalogue's shape and
 * with the request id the onSend hook would have set.
 */
export function answerFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', req.id);
  return answerError(err, req, reply);
}

function answerError(err: FastifyError & { validation?: unknown }, req: FastifyRequest, reply: FastifyReply) {
    const lang = localeOf(req.headers['accept-language']);
    if (err instanceof AppError) {
      if (err.status === 401 || err.status === 403) req.log.info({ code: err.code, url: req.url, user: req.principal?.userId, tenant: req.principal?.tenantId }, 'access refused');
      return reply.status(err.status).send({ error: err.code, message: formatError(err.code, lang, err.params), ...err.extra });
    }
    // The general API rate limit (http/rate-limit.ts) answers ERR_LIMIT_MAX with its own wording.
    if ((err as { statusCode?: number }).statusCode === 429 && (err as { error?: unknown }).error === 'ERR_LIMIT_MAX') {
      return reply.status(429).send({ error: 'ERR_LIMIT_MAX', message: String(err.message) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation
        .slice(0, 5)
        .map((v) => `${(v.instancePath || '/').replace(/^\//, '').replace(/\//g, '.') || 'body'}: ${v.message}`)
        .join('; ');
      return reply.status(400).send({ error: 'ERR_VALIDATION', message: formatError('ERR_VALIDATION', lang, { details }) });
    }
    if (!err.code && MALFORMED_MULTIPART.test(err.message ?? '') && req.isMultipart?.()) {
      return reply.status(400).send({ error: 'ERR_FILE_REJECTED', message: formatError('ERR_FILE_REJECTED', lang) });
    }
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
      const code: ErrorCode = mapped ?? (err.statusCode === 404 ? 'ERR_ROUTE_NOT_FOUND' : err.statusCode === 429 ? 'ERR_RATE_LIMIT' : 'ERR_VALIDATION');
      const status = mapped ? catalogueEntry(code)!.status : err.statusCode!;
      const fixed = err.code ? FASTIFY_DETAILS[err.code] : undefined;
      const details = fixed ? (lang === 'pt' ? fixed.pt : fixed.en) : err.message;
      return reply.status(status).send({ error: code, message: formatError(code, lang, { details }) });
    }
    // PostgreSQL data exceptions (class 22: NUL bytes, out-of-range numbers, bad dates) come from input the client sent.
    const pgCode = (err as { code?: string; severity?: string }).code;
    if (pgCode && /^22[0-9A-Z]{3}$/.test(pgCode) && (err as { severity?: string }).severity) {
      return reply.status(400).send({ error: 'ERR_VALIDATION', message: formatError('ERR_VALIDATION', lang, { details: lang.startsWith('pt') ? 'valor inválido' : 'invalid value' }) });
    }
    if (UNAVAILABLE.test(err.message ?? '') || (err as { code?: string }).code === 'ECONNREFUSED') {
      req.log.warn({ err: err.message }, 'dependency unavailable');
      return reply.status(503).header('retry-after', '5').send({ error: 'ERR_SERVICE_UNAVAILABLE', message: formatError('ERR_SERVICE_UNAVAILABLE', lang) });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'ERR_INTERNAL', message: formatError('ERR_INTERNAL', lang) });
}
