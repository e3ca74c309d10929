import { z } from 'zod';
import { ERRORS, type Profile } from '@atende/core/sdk';
import { CliError, type CliContext } from './context.ts';
import { withDatabase, type DbSession } from './database.ts';
import { PLATFORM_TENANT_ID, hashPassword, isStrongPassword } from './kernel.ts';
import { configFrom } from './config.ts';
import { findTenant } from './tenants.ts';

export const PROFILES: Profile[] = ['superadmin', 'admin', 'super', 'user'];

export interface UserCreateOptions {
  email: string;
  password: string;
  profile: Profile;
  tenant?: number;
  name?: string;
}

export async function userCreate(ctx: CliContext, opts: UserCreateOptions): Promise<void> {
  const email = checkEmail(opts.email);
  if (!isStrongPassword(opts.password)) throw new CliError(ERRORS.ERR_WEAK_PASSWORD.pt);
  // The platform's superadmins live in tenant 1; everyone else belongs to a customer tenant that must be named.
  const tenantId = opts.tenant ?? (opts.profile === 'superadmin' ? PLATFORM_TENANT_ID : undefined);
  if (tenantId === undefined) throw new CliError(`Informe o tenant do usuário com --tenant <id> (o perfil ${opts.profile} pertence a um tenant; veja: npx atende tenant list).`);

  await withDatabase(configFrom(ctx), ctx, async (db) => {
    await db.ensurePlatformTenant();
    const created = await insertUser(db, { email, password: opts.password, profile: opts.profile, tenantId, name: opts.name?.trim() || nameFromEmail(email) });
    if (!created) throw new CliError(ERRORS.ERR_EMAIL_IN_USE.pt);
    const tenant = await findTenant(db.pool, tenantId);
    ctx.out(`Usuário ${created.id} criado: ${email} (${opts.profile}) no tenant ${tenant.id} (${tenant.name}).`);
    if (tenant.status !== 'active') ctx.err(`⚠ O tenant ${tenant.id} está desativado: o usuário só entra depois de: npx atende tenant enable ${tenant.id}`);
  });
}

/**
 * Inserts a user unless the e-mail is taken (in any tenant: e-mails are
 * unique per install). Refuses an unknown tenant or one at its user limit.
 * Returns undefined when the e-mail exists.
 */
export async function insertUser(
  db: DbSession,
  u: { email: string; password: string; profile: Profile; tenantId: number; name: string },
): Promise<{ id: number } | undefined> {
  const tenant = await findTenant(db.pool, u.tenantId);
  const count = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE tenant_id = $1 AND active', [tenant.id]);
  if (count.rows[0]!.n >= tenant.max_users) {
    throw new CliError(`${ERRORS.ERR_USER_LIMIT.pt}: o tenant ${tenant.id} (${tenant.name}) já tem ${count.rows[0]!.n} de ${tenant.max_users} usuários.`);
  }
  // Hashing (argon2id, ~50 ms) happens only when the address looks free, and the unique index decides races.
  const taken = await db.pool.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [u.email]);
  if (taken.rowCount) return undefined;
  const r = await db.pool.query<{ id: number }>(
    `INSERT INTO users (tenant_id, name, email, password_hash, profile) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING id`,
    [tenant.id, u.name, u.email, await hashPassword(u.password), u.profile],
  );
  return r.rows[0];
}

function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!z.email().safeParse(email).success) throw new CliError(`${ERRORS.ERR_INVALID_EMAIL.pt}: "${raw}".`);
  return email;
}

function nameFromEmail(email: string): string {
  const local = email.split('@')[0]!.replace(/[._-]+/g, ' ').trim();
  return local ? local[0]!.toUpperCase() + local.slice(1) : email;
}
