import { randomBytes } from 'node:crypto';
import type { Kernel } from '../../kernel.ts';
import { hashPassword } from './passwords.ts';

/** Tenant 1 is the platform's own tenant (spec §1, §6). */
export const PLATFORM_TENANT_ID = 1;

export async function ensurePlatformTenant(kernel: Kernel): Promise<void> {
  await kernel.db.pool.query(
    `INSERT INTO tenants (id, name, status, max_users, max_connections, menus, terms_accepted_at)
     VALUES (1, 'Plataforma', 'active', 1000, 1000, '{}', NULL) ON CONFLICT (id) DO NOTHING`,
  );
  // Keep the serial ahead of the explicit id 1.
  await kernel.db.pool.query(`SELECT setval(pg_get_serial_sequence('tenants','id'), GREATEST((SELECT max(id) FROM tenants), 1))`);
}

/**
 * Creates the first superadmin (in tenant 1) at first start: from
 * ATENDE_ADMIN_EMAIL/ATENDE_ADMIN_PASSWORD, or with a generated password that
 * the caller prints once. Does nothing when a superadmin exists.
 */
export async function ensureFirstSuperadmin(kernel: Kernel): Promise<{ created: boolean; email?: string; generatedPassword?: string }> {
  await ensurePlatformTenant(kernel);
  const existing = await kernel.db.pool.query(`SELECT 1 FROM users WHERE profile = 'superadmin' LIMIT 1`);
  if (existing.rowCount) return { created: false };
  const email = kernel.config.adminEmail ?? 'admin@atende.local';
  // Generated passwords satisfy the spec's rule (letters, digits, a special character).
  const generated = kernel.config.adminPassword ? undefined : `${randomBytes(9).toString('base64url')}#7a`;
  const password = kernel.config.adminPassword ?? generated!;
  const r = await kernel.db.pool.query(
    `INSERT INTO users (tenant_id, name, email, password_hash, profile) VALUES (1, 'Superadmin', $1, $2, 'superadmin')
     ON CONFLICT DO NOTHING RETURNING id`,
    [email, await hashPassword(password)],
  );
  if (!r.rowCount) return { created: false };
  kernel.logger.info({ email }, 'first superadmin created');
  return { created: true, email, generatedPassword: generated };
}
