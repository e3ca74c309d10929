import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../../kernel.ts';
import { queueAndTagRoutes } from './queues-tags.ts';
import { quickMessageRoutes } from './quick-messages.ts';

export async function catalogRoutes(app: FastifyInstance, kernel: Kernel) {
  await queueAndTagRoutes(app, kernel);
  // Its own encapsulated scope: multipart parsing is registered there only.
  await app.register(async (scope) => quickMessageRoutes(scope, kernel));
}
