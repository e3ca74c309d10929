import type pg from 'pg';
import { ERRORS } from '@atende/core/sdk';
import { CliError, type CliContext } from './context.ts';
import { withDatabase } from './database.ts';
import { PLATFORM_TENANT_ID } from './kernel.ts';
import { configFrom } from './config.ts';
import { table } from './table.ts';

export interface TenantRow {
  id: number;
  name: string;
  status: 'active' | 'inactive';
  max_users: number;
  max_connections: number;
}

/** The tenant with this id, or the catalogue's "not found" as a one-line error. */
export async function findTenant(pool: pg.Pool, id: number): Promise<TenantRow> {
  const r = await pool.query<TenantRow>('SELECT id, name, status, max_users, max_connections FROM tenants WHERE id = $1', [id]);
  if (!r.rows[0]) throw new CliError(`${ERRORS.ERR_NO_TENANT_FOUND.pt.replace(/\.$/, "")}: ${id}.`);
  return r.rows[0];
}

export interface TenantCreateOptions {
  name: string;
  maxUsers?: number;
  maxConnections?: number;
}

export async function tenantCreate(ctx: CliContext, opts: TenantCreateOptions): Promise<void> {
  const name = opts.name.trim();
  if (!name) throw new CliError('O nome do tenant não pode ser vazio (--name).');
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    // Tenant 1 first: a fresh install's first tenant created here must not take id 1.
    await db.ensurePlatformTenant();
    const r = await db.pool.query<TenantRow>(
      `INSERT INTO tenants (name, status, max_users, max_connections) VALUES ($1, 'active', COALESCE($2, 10), COALESCE($3, 5))
       RETURNING id, name, status, max_users, max_connections`,
      [name, opts.maxUsers ?? null, opts.maxConnections ?? null],
    );
    const t = r.rows[0]!;
    ctx.out(`Tenant ${t.id} criado: ${t.name} (até ${t.max_users} usuários e ${t.max_connections} conexões).`);
  });
}

export async function tenantList(ctx: CliContext): Promise<void> {
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    const r = await db.pool.query<TenantRow & { users: number; created_at: Date }>(
      `SELECT t.id, t.name, t.status, t.max_users, t.max_connections, t.created_at,
              (SELECT count(*) FROM users u WHERE u.tenant_id = t.id AND u.active)::int AS users
         FROM tenants t ORDER BY t.id`,
    );
    if (!r.rows.length) {
      ctx.out('Nenhum tenant. O primeiro início (npm start) cria o tenant 1 (plataforma).');
      return;
    }
    const rows = r.rows.map((t) => [t.id, t.name, t.status === 'active' ? 'ativo' : 'inativo', `${t.users}/${t.max_users}`, t.max_connections, t.created_at.toISOString().slice(0, 10)]);
    for (const line of table(['ID', 'NOME', 'ESTADO', 'USUÁRIOS', 'CONEXÕES', 'CRIADO'], rows)) ctx.out(line);
  });
}

export async function tenantSetStatus(ctx: CliContext, id: number, status: 'active' | 'inactive'): Promise<void> {
  if (id === PLATFORM_TENANT_ID && status === 'inactive') throw new CliError(ERRORS.ERR_PLATFORM_TENANT.pt);
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    const t = await findTenant(db.pool, id);
    const word = status === 'active' ? 'ativado' : 'desativado';
    if (t.status === status) {
      ctx.out(`Tenant ${t.id} (${t.name}) já estava ${word}.`);
      return;
    }
    await db.pool.query('UPDATE tenants SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
    // Every authenticated request re-reads the tenant's status, so sessions stop working at once.
    ctx.out(
      status === 'inactive'
        ? `Tenant ${t.id} (${t.name}) desativado: seus usuários não conseguem mais entrar nem usar sessões abertas.`
        : `Tenant ${t.id} (${t.name}) ativado.`,
    );
  });
}
