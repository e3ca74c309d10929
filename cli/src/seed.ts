import { randomBytes } from 'node:crypto';
import type { Profile } from '@atende/core/sdk';
import { CliError, type CliContext } from './context.ts';
import { withDatabase, type DbSession } from './database.ts';
import { configFrom } from './config.ts';
import { insertUser } from './users.ts';

export const DEMO_TENANT = 'Demo';
/** Printed on every run: demo data is for trying Atende out, never for production. */
export const DEMO_PASSWORD = 'Demo#2025';
export const DEMO_USERS: { email: string; name: string; profile: Profile }[] = [
  { email: 'admin@demo.atende', name: 'Admin Demo', profile: 'admin' },
  { email: 'super@demo.atende', name: 'Supervisor Demo', profile: 'super' },
  { email: 'agente@demo.atende', name: 'Agente Demo', profile: 'user' },
];
export const DEMO_QUEUE = 'Atendimento';
export const DEMO_CHANNEL = 'Sandbox';

// Serialises concurrent seeds: the tenant is found by name, which has no unique index.
const SEED_LOCK = 7_345_112_101;

/**
 * `atende seed --demo`: a tenant "Demo" with one user of each tenant profile.
 * Idempotent: what exists is kept as it is (passwords included) and reported.
 */
export async function seed(ctx: CliContext, opts: { demo?: boolean }): Promise<void> {
  if (!opts.demo) throw new CliError('Escolha o que semear: npx atende seed --demo');
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    await db.ensurePlatformTenant();
    const client = await db.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [SEED_LOCK]);
      const tenantId = await demoTenant(db, ctx);
      const width = Math.max(...DEMO_USERS.map((u) => u.email.length));
      for (const u of DEMO_USERS) {
        const created = await insertUser(db, { ...u, password: DEMO_PASSWORD, tenantId });
        const what = created ? `senha: ${DEMO_PASSWORD}` : '(já existia; senha mantida)';
        ctx.out(`  ${u.profile.padEnd(5)}  ${u.email.padEnd(width)}  ${what}`);
      }
      ctx.out(await sandboxChannel(db, tenantId));
      const terms = await db.pool.query<{ accepted: boolean }>('SELECT terms_accepted_at IS NOT NULL AS accepted FROM tenants WHERE id = 1');
      // The demo users cannot work until the superadmin has accepted the terms of use (core.md §6).
      if (!terms.rows[0]?.accepted) ctx.out('Os termos de uso ainda não foram aceitos: entre como superadmin e aceite-os para liberar os usuários do Demo.');
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SEED_LOCK]).catch(() => undefined);
      client.release();
    }
  });
}

async function demoTenant(db: DbSession, ctx: CliContext): Promise<number> {
  const found = await db.pool.query<{ id: number; status: string }>('SELECT id, status FROM tenants WHERE name = $1 ORDER BY id LIMIT 1', [DEMO_TENANT]);
  if (found.rows[0]) {
    const t = found.rows[0];
    ctx.out(`Tenant ${t.id} (${DEMO_TENANT}) já existia${t.status === 'active' ? '' : ' (desativado: npx atende tenant enable ' + t.id + ')'}.`);
    return t.id;
  }
  const r = await db.pool.query<{ id: number }>(`INSERT INTO tenants (name, status, max_users, max_connections) VALUES ($1, 'active', 10, 5) RETURNING id`, [DEMO_TENANT]);
  ctx.out(`Tenant ${r.rows[0]!.id} (${DEMO_TENANT}) criado.`);
  return r.rows[0]!.id;
}

/**
 * The demo's conversation setup: a queue "Atendimento" holding the demo users
 * and a sandbox channel (the `channel-sandbox` plugin: customers are simulated,
 * nothing leaves the machine). It needs that plugin and the kernel's
 * conversation tables; an install without them gets a line saying so.
 */
async function sandboxChannel(db: DbSession, tenantId: number): Promise<string> {
  const missing: string[] = [];
  if (!db.plugins.some((p) => p.id === 'channel-sandbox')) missing.push('o plugin channel-sandbox');
  const tables = await db.pool.query<{ name: string; found: string | null }>(
    `SELECT name, to_regclass(name)::text AS found FROM unnest(ARRAY['queues', 'contacts', 'channels']) AS name`,
  );
  const absent = tables.rows.filter((t) => !t.found).map((t) => t.name);
  if (absent.length) missing.push(`as tabelas ${absent.join(', ')}`);
  if (missing.length) return `Canal sandbox não criado: esta instalação não tem ${missing.join(' nem ')}.`;

  // The sandbox is off for new companies; the demo is what it is for.
  await db.pool.query(
    `INSERT INTO tenant_plugins (tenant_id, plugin_id, enabled) VALUES ($1, 'channel-sandbox', true) ON CONFLICT (tenant_id, plugin_id) DO UPDATE SET enabled = true, updated_at = now()`,
    [tenantId],
  );
  await db.pool.query(`INSERT INTO queues (tenant_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tenantId, DEMO_QUEUE]);
  const queue = await db.pool.query<{ id: number }>('SELECT id FROM queues WHERE tenant_id = $1 AND lower(name) = lower($2)', [tenantId, DEMO_QUEUE]);
  const queueId = queue.rows[0]!.id;
  // Agents see the tickets of their queues: put every demo user in this one.
  await db.pool.query(
    `UPDATE users SET queues = queues || to_jsonb($2::int), updated_at = now()
      WHERE tenant_id = $1 AND lower(email) = ANY($3) AND NOT queues @> to_jsonb($2::int)`,
    [tenantId, queueId, DEMO_USERS.map((u) => u.email.toLowerCase())],
  );
  const existing = await db.pool.query<{ id: number }>(`SELECT id FROM channels WHERE tenant_id = $1 AND type = 'sandbox' AND deleted_at IS NULL ORDER BY id LIMIT 1`, [tenantId]);
  if (existing.rows[0]) return `Canal sandbox ${existing.rows[0].id} e fila "${DEMO_QUEUE}" já existiam.`;
  const r = await db.pool.query<{ id: number }>(
    `INSERT INTO channels (tenant_id, type, name, is_default, queue_id, secrets) VALUES ($1, 'sandbox', $2, true, $3, $4) RETURNING id`,
    [tenantId, DEMO_CHANNEL, queueId, JSON.stringify({ webhookSecret: randomBytes(24).toString('base64url') })],
  );
  return `Canal sandbox ${r.rows[0]!.id} ("${DEMO_CHANNEL}") criado na fila "${DEMO_QUEUE}": simule clientes em Atendimento ou pelo webhook /api/plugins/channel-sandbox/webhook/${r.rows[0]!.id}.`;
}
