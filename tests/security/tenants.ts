/**
 * Two populated tenants for the security suites: tenant B's rows carry a
 * marker string that must never appear in an answer given to tenant A.
 */
import { randomUUID } from 'node:crypto';
import type { TestApp, TestUser } from '../../core/src/testing/index.ts';
import { signSandbox } from '../../plugins/channel-sandbox/src/index.ts';

export interface SeededTenant {
  tenantId: number;
  marker: string;
  users: Record<'user' | 'super' | 'admin', TestUser>;
  ids: Record<string, number | string>;
}

export async function seedTenant(t: TestApp, label: string): Promise<SeededTenant> {
  const marker = `SEGREDO${label}${randomUUID().slice(0, 8)}`;
  const tenantId = await t.createTenant({ name: `Empresa ${marker}` });
  const admin = await t.loginAs('admin', tenantId);
  const sup = await t.loginAs('super', tenantId);
  const user = await t.loginAs('user', tenantId);
  const h = admin.headers;
  const post = async (url: string, payload: unknown) => {
    const r = await t.app.inject({ method: 'POST', url, headers: h, payload: payload as object });
    if (r.statusCode >= 300) throw new Error(`seed ${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  const channel = await post('/api/channels', { type: 'sandbox', name: `Canal ${marker}` });
  const secret = (await t.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${channel.id}/secret`, headers: h })).json().secret as string;
  const raw = JSON.stringify({ id: `${marker}-m1`, from: { id: `${marker}-c1`, name: `Cliente ${marker}`, number: '5599912345678' }, body: `Mensagem ${marker}` });
  const w = await t.app.inject({ method: 'POST', url: `/api/plugins/channel-sandbox/webhook/${channel.id}`, headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, raw) }, payload: raw });
  const { ticketId, messageId } = w.json();
  const contactId = (await t.sql.query('SELECT contact_id FROM tickets WHERE id = $1', [ticketId])).rows[0].contact_id;
  const ids: Record<string, number | string> = { tenant: tenantId, channel: channel.id, ticket: ticketId, message: messageId, contact: contactId, user: user.id, admin: admin.id };
  const tryPost = async (key: string, url: string, payload: unknown) => {
    const r = await t.app.inject({ method: 'POST', url, headers: h, payload: payload as object });
    if (r.statusCode < 300) ids[key] = r.json().id;
  };
  await tryPost('queue', '/api/queues', { name: `Fila ${marker}`, color: '#123456' });
  await tryPost('tag', '/api/tags', { name: `Tag ${marker}`, color: '#654321' });
  await tryPost('quickMessage', '/api/quick-messages', { key: `k${marker.slice(-6)}`, message: `Rápida ${marker}` });
  await tryPost('demand', '/api/plugins/demands/demands', { name: `Motivo ${marker}` });
  return { tenantId, marker, users: { user, super: sup, admin }, ids };
}

/** A fingerprint of everything tenant B owns, to prove A's requests changed nothing. */
export async function fingerprint(t: TestApp, tenantId: number): Promise<string> {
  const tables = ['tickets', 'messages', 'contacts', 'channels', 'users', 'queues', 'tags', 'quick_messages', 'settings', 'tenant_plugins'];
  const parts: string[] = [];
  for (const table of tables) {
    const exists = (await t.sql.query('SELECT to_regclass($1) AS r', [table])).rows[0].r;
    if (!exists) continue;
    const idCol = ['settings', 'tenant_plugins'].includes(table) ? 'tenant_id' : 'id';
    const r = await t.sql.query(`SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS h, count(*) AS n FROM (SELECT to_jsonb(r) - 'updated_at' - 'last_seen_at' - 'is_online' AS x FROM ${table} r WHERE ${table === 'tenants' ? 'id' : 'tenant_id'} = $1) s`, [tenantId]);
    parts.push(`${table}:${r.rows[0].n}:${r.rows[0].h}:${idCol}`);
  }
  const tenant = await t.sql.query(`SELECT md5((to_jsonb(t) - 'updated_at')::text) AS h FROM tenants t WHERE id = $1`, [tenantId]);
  parts.push(`tenant:${tenant.rows[0].h}`);
  return parts.join('\n');
}
