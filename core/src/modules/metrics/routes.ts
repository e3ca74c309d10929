import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Kernel } from '../../kernel.ts';
import { AppError } from '../../errors.ts';
import { authenticate, bearer } from '../../http/auth.ts';
import { kernelMetrics } from './registry.ts';

/** Compares through fixed-length digests so neither the length nor a prefix of the token leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * `GET /api/metrics` in Prometheus text format. A scraper sends the install's
 * `ATENDE_METRICS_TOKEN` as a bearer token; a person may look with a
 * superadmin session. No token is 401; a valid session of anyone else gets
 * the same 404 as a route that does not exist, since the endpoint exposes
 * every tenant's channel ids and status.
 */
export async function metricsRoutes(app: FastifyInstance, kernel: Kernel) {
  const metrics = kernelMetrics(kernel);

  app.addHook('onResponse', async (req, reply) => {
    // The route template, never the raw URL: ids in paths would make one series per ticket.
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.http.observe({ route, method: req.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  kernel.hooks.afterInbound.add(() => {
    metrics.ingested.inc();
  });

  app.get(
    '/api/metrics',
    {
      config: { access: { public: true } },
      // Sent as Prometheus text (its own content type), so Fastify writes the string as is rather than through the JSON serializer.
      schema: { operationId: 'getMetrics', tags: ['metrics'], summary: 'Métricas no formato de texto do Prometheus', response: { 200: z.string().describe('Prometheus text exposition format') } },
    },
    async (req, reply) => {
      const token = bearer(req);
      if (!token) throw new AppError('ERR_LOGIN_REQUIRED');
      const scrape = kernel.config.metricsToken !== undefined && sameToken(token, kernel.config.metricsToken);
      if (!scrape) {
        const who = await authenticate(app, token);
        if (who.profile !== 'superadmin') throw new AppError('ERR_ROUTE_NOT_FOUND');
      }
      const body = await metrics.registry.metrics();
      return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(body);
    },
  );
}
