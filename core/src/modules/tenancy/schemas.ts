import { z } from 'zod';
import { isoDate } from '../../sdk/contract.ts';

/** A tenant as `tenantOut` (routes.ts) writes it; the payment token only as a flag. */
export const tenantAnswer = z.object({
  id: z.number().int(),
  status: z.string(),
  name: z.string(),
  maxUsers: z.number().int(),
  maxConnections: z.number().int(),
  identity: z.string().nullable(),
  asaasActive: z.boolean(),
  asaasTokenSet: z.boolean(),
  asaasCustomerId: z.string().nullable(),
  hideNonOfficial: z.boolean(),
  trial: z.boolean(),
  trialDays: z.number().int(),
  trialEndsAt: isoDate.nullable(),
  blocked: z.boolean(),
  /** Per-tenant menu flags (`DEFAULT_TENANT_MENUS` merged with the stored ones). */
  menus: z.record(z.string(), z.boolean()),
  planId: z.number().int().nullable(),
  timezone: z.string(),
  termsAcceptedAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

/** A plan as the public signup page lists it. */
export const publicPlanAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  value: z.number(),
  users: z.number().int(),
  connections: z.number().int(),
  trial: z.boolean(),
  trialDays: z.number().int(),
});

/** A plan as `planOut` (routes.ts) writes it. */
export const planAnswer = publicPlanAnswer.extend({ active: z.boolean(), createdAt: isoDate, updatedAt: isoDate });

/** The install's terms of use and whether the superadmin accepted them. */
export const termsAnswer = z.object({ accepted: z.boolean(), acceptedAt: isoDate.nullable(), version: z.string(), text: z.string() });

/** The appearance colours: a list of name → CSS colour maps. */
export const systemColorsAnswer = z.array(z.record(z.string(), z.string()));

/** A tenant API token as `out` (api-tokens.ts) writes it; the secret itself only when generated. */
export const apiTokenAnswer = z.object({
  id: z.number().int(),
  tenantId: z.number().int(),
  /** Only in the list, where the superadmin sees tokens of every tenant. */
  tenantName: z.string().optional(),
  name: z.string(),
  prefix: z.string(),
  createdBy: z.number().int().nullable(),
  createdAt: isoDate,
  rotatedAt: isoDate.nullable(),
  lastUsedAt: isoDate.nullable(),
  revoked: z.boolean(),
  revokedAt: isoDate.nullable(),
});

/** A token just generated or regenerated: the only answer that carries its secret. */
export const newApiTokenAnswer = apiTokenAnswer.extend({ token: z.string() });

/** What accepting the terms answers. */
export const termsAcceptedAnswer = z.object({ accepted: z.literal(true), acceptedAt: isoDate, version: z.string() });
