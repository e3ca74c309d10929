import { z } from 'zod';
import { isoDate } from '../../sdk/contract.ts';

export const profileAnswer = z.enum(['user', 'super', 'admin', 'superadmin']);

/** A user as admins see it, as `userOut` (user-routes.ts) writes it; never the password hash. */
export const userAnswer = z.object({
  id: z.number().int(),
  tenantId: z.number().int(),
  name: z.string(),
  email: z.string(),
  profile: profileAnswer,
  queues: z.array(z.number().int()),
  whatsappAllowed: z.array(z.number().int()),
  isOnline: z.boolean(),
  blockWavoip: z.boolean(),
  menus: z.record(z.string(), z.boolean()),
  /** The user's interface preferences (theme, ticket filters…), stored as the shell sent them. */
  configs: z.record(z.string(), z.unknown()),
  active: z.boolean(),
  lastSeenAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  /** Only in the superadmin's list across tenants. */
  tenantName: z.string().optional(),
});

/** What any colleague sees (`userPublic`, user-routes.ts): no email, menus or configs. */
export const userPublicAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  profile: profileAnswer,
  queues: z.array(z.number().int()),
  isOnline: z.boolean(),
  lastSeenAt: isoDate.nullable(),
});

/** A page of users as the lists answer. */
export const userPage = <T extends z.ZodType>(row: T) => z.object({ users: z.array(row), count: z.number().int(), hasMore: z.boolean() });

/** The session record of spec core.md §3, as `sessionRecord` (auth-routes.ts) writes it for login and refresh. */
export const sessionAnswer = z.object({
  token: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int(),
  username: z.string(),
  profile: profileAnswer,
  userId: z.number().int(),
  tenantId: z.number().int(),
  queues: z.array(z.number().int()),
  blockWavoip: z.boolean(),
  whatsappAllowed: z.array(z.number().int()),
  email: z.string(),
  configs: z.record(z.string(), z.unknown()),
});

/** The slider captcha (`Captcha.issue`, captcha.ts), or only its size when the install has it off. */
export const captchaAnswer = z.union([
  z.object({ enabled: z.literal(true), token: z.string(), width: z.number().int(), height: z.number().int(), background: z.string(), piece: z.string(), pieceY: z.number().int() }),
  z.object({ enabled: z.literal(false), width: z.number().int(), height: z.number().int() }),
]);

/** What a public signup answers: no tenant or user id, since an address that already has an account gets the same answer (X1-13). */
export const signupSchema = z.object({
  email: z.string(),
  planId: z.number().int(),
  trial: z.boolean(),
  trialEndsAt: isoDate.nullable(),
});
