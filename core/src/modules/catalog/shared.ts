import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { menuAllowed } from '../access/menus.ts';
import type { Kernel } from '../../kernel.ts';

/** Escapes LIKE wildcards so user text matches literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** True for a unique-index violation, however it reached us (MikroORM or raw pg). */
export function isUniqueViolation(err: unknown, index?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  const unique = err instanceof UniqueConstraintViolationException || e?.code === '23505';
  return unique && (!index || e.constraint === index || (e.message ?? '').includes(index));
}

export const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const colorSchema = z.string().trim().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'cor inválida: use #RRGGBB');

/** Whether the caller may use a menu (same rule as route guards), for routes whose answer depends on it. */
export function callerHasMenu(kernel: Kernel, req: FastifyRequest, key: string): boolean {
  const who = req.access;
  const menu = kernel.menus.get(key);
  if (!who || !menu) return false;
  return menuAllowed(menu, { profile: who.profile, userMenus: who.userMenus, tenantMenus: who.tenantMenus, tenantBlocked: who.tenantBlocked });
}

export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
