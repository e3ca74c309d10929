import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../kernel.ts';
import { principalOf } from '../sdk/http.ts';

/**
 * The API's OpenAPI 3.1 document, generated from every route's zod schemas
 * (`@fastify/swagger`), and its browsable page at `/api/docs`
 * (`@fastify/swagger-ui`). A browser opening `/api/docs` carries no bearer
 * token, so a logged-in user first asks `POST /api/me/docs-session` (the
 * shell's user menu does), which sets a short-lived cookie for `/api/docs`
 * only. `ATENDE_API_DOCS=open` serves it to anyone, `off` to no one
 * (docs/configuration.md).
 */
export const DOCS_PREFIX = '/api/docs';
const COOKIE = 'atende_docs';
const TTL_S = 3600;

function sign(secret: string, value: string): string {
  return createHmac('sha256', `${secret}:docs`).update(value).digest('base64url');
}

function cookieOf(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

function validCookie(secret: string, raw: string | undefined): boolean {
  if (!raw) return false;
  const [payload, mac] = raw.split('.');
  if (!payload || !mac) return false;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  const exp = Number(payload.split('-')[1]);
  return Number.isFinite(exp) && exp * 1000 > Date.now();
}

/** Registers the document generator; must run before any route is added so every route is in it. */
export async function installApiDocs(app: FastifyInstance, kernel: Kernel): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Atende API',
        version: '1.0.0',
        description:
          'A API HTTP do Atende. Autenticação: `Authorization: Bearer <token>` (token de sessão de `POST /api/auth/login`, ou token de API do tenant, `atk_…`, nas rotas que o aceitam). Erros: `{ "error": "ERR_…", "message": "…" }` com o status HTTP do catálogo.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  if (kernel.config.apiDocs === 'off') return;

  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    if (kernel.config.apiDocs === 'open' || validCookie(kernel.jwtSecret, cookieOf(req))) return;
    return reply
      .status(401)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        '<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>Atende API</title>' +
          '<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;line-height:1.5">' +
          '<h1>Documentação da API</h1><p>Entre no Atende e abra a documentação pelo menu do usuário (“Documentação da API”).</p>' +
          '<p><a href="/#/login">Ir para o login</a></p></body></html>',
      );
  };
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'none', deepLinking: true, persistAuthorization: false },
    uiHooks: { onRequest: guard },
    staticCSP: true,
  });
}

/** `POST /api/me/docs-session`: a cookie that lets this browser read `/api/docs` for an hour. */
export async function docsSessionRoute(app: FastifyInstance, kernel: Kernel): Promise<void> {
  app.post(
    '/api/me/docs-session',
    {
      schema: {
        operationId: 'openApiDocsSession',
        tags: ['access'],
        summary: 'Abre a documentação da API neste navegador por uma hora',
        response: { 200: z.object({ url: z.string(), expiresIn: z.number().int() }) },
      },
    },
    async (req, reply) => {
      const who = principalOf(req);
      const payload = `${who.userId}-${Math.floor(Date.now() / 1000) + TTL_S}`;
      const secure = kernel.config.publicUrl?.startsWith('https:') ? '; Secure' : '';
      reply.header('set-cookie', `${COOKIE}=${payload}.${sign(kernel.jwtSecret, payload)}; Path=${DOCS_PREFIX}; Max-Age=${TTL_S}; HttpOnly; SameSite=Strict${secure}`);
      return { url: `${DOCS_PREFIX}/`, expiresIn: TTL_S };
    },
  );
}
