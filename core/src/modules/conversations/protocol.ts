import type { Sql } from '../../db/tx.ts';

/**
 * Protocol numbers: unique per tenant, readable (`YYYYMMDD` + a per-tenant
 * counter), taken from a counter row so concurrent tickets never share one.
 */
export async function nextProtocol(sql: Sql, tenantId: number, now = new Date()): Promise<string> {
  const r = await sql.query<{ last: number }>(
    `INSERT INTO protocol_counters (tenant_id, last) VALUES ($1, 1)
     ON CONFLICT (tenant_id) DO UPDATE SET last = protocol_counters.last + 1 RETURNING last`,
    [tenantId],
  );
  const d = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `${d}${String(r.rows[0].last).padStart(6, '0')}`;
}
