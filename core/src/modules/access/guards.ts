import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { PLATFORM_TENANT_ID } from '../identity/bootstrap.ts';

/**
 * Guard for the platform's most dangerous routes (system update, migration,
 * clean, terminal: core.md §6, administration.md §6): only a superadmin of
 * tenant 1, logged in as a user (never an API token). Everyone else gets
 * 'Usuário não autorizado'.
 */
export function requirePlatformSuperadmin(req: FastifyRequest): void {
  const p = req.principal;
  if (!p || p.apiToken || p.profile !== 'superadmin' || p.tenantId !== PLATFORM_TENANT_ID) {
    req.log.warn({ event: 'access.platform_denied', url: req.url, user: p?.userId, tenant: p?.tenantId }, 'platform superadmin route refused');
    throw new AppError('ERR_UNAUTHORIZED_USER');
  }
}
