import pg from 'pg';
import { listTickets } from '../src/modules/conversations/list.ts';
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/atende_bench' });
const orig = pool.query.bind(pool);
const statements: [string, unknown[]][] = [];
const kernel: any = { db: { pool: { query: async (sql: string, params: unknown[]) => { statements.push([sql, params]); return orig(sql, params); } } } };
const who: any = { tenantId: 2, userId: 1, profile: 'admin', queues: [] };
try {
  await listTickets(kernel, who, { showAll: true, status: process.argv[2] ? [process.argv[2] as any] : undefined });
} catch (e) { console.log(String(e), statements.at(-1)); }
for (const [sql, params] of statements.slice(-2)) {
  const r = await orig(`EXPLAIN (ANALYZE) ${sql}`, params);
  console.log(sql.slice(0, 200).replace(/\s+/g, ' '));
  console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
  console.log('-----');
}
await pool.end();
