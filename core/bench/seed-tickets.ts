/**
 * Builds the B2/B3 data set in database `atende_bench` (or --db NAME) with
 * set-based SQL: 100 tenants, 1M tickets (one tenant with 200k), ~10M
 * messages, and one ticket with 50k messages. Takes several minutes; the
 * benchmarks reuse it until it is rebuilt.
 *   node --import tsx core/bench/seed-tickets.ts [--tickets 1000000] [--messages-per-ticket 10]
 */
import pg from 'pg';
import { recreateDatabase } from './_bench-db.ts';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const dbName = process.argv.includes('--db') ? process.argv[process.argv.indexOf('--db') + 1] : 'atende_bench';
const TICKETS = arg('tickets', 1_000_000);
const MSGS = arg('messages-per-ticket', 10);
const BIG = Math.round(TICKETS * 0.2);
const TENANTS = 100;

const t0 = Date.now();
const url = await recreateDatabase(dbName);
const pool = new pg.Pool({ connectionString: url, max: 2 });
const step = async (label: string, sql: string, params: unknown[] = []) => {
  const s = Date.now();
  await pool.query(sql, params);
  console.log(`${label.padEnd(40)} ${((Date.now() - s) / 1000).toFixed(1)} s`);
};

// The benchmark install has its terms of use accepted (tenant 1 records it), as a real one would.
await step('tenants', `INSERT INTO tenants (id, name, max_users, max_connections, terms_accepted_at) SELECT g, 'Empresa ' || g, 100, 10, CASE WHEN g = 1 THEN now() END FROM generate_series(1, ${TENANTS + 1}) g`);
await step('users', `INSERT INTO users (tenant_id, name, email, password_hash, profile, queues)
  SELECT t, 'Agente ' || t || '-' || u, 'agente' || t || '-' || u || '@bench.local', 'x', CASE WHEN u = 1 THEN 'admin' ELSE 'user' END,
         CASE WHEN u > 3 THEN jsonb_build_array((t - 1) * 3 + 1) ELSE '[]'::jsonb END
    FROM generate_series(2, ${TENANTS + 1}) t, generate_series(1, 10) u`);
await step('queues', `INSERT INTO queues (tenant_id, name) SELECT t, 'Fila ' || q FROM generate_series(2, ${TENANTS + 1}) t, generate_series(1, 3) q ORDER BY t, q`);
await step('channels', `INSERT INTO channels (tenant_id, type, name, status) SELECT t, 'sandbox', 'Sandbox ' || t, 'connected' FROM generate_series(2, ${TENANTS + 1}) t`);
// Ticket n belongs to tenant 2 for the first BIG, then round-robin over the others.
await step('contacts', `INSERT INTO contacts (id, tenant_id, name, number)
  SELECT n, CASE WHEN n <= ${BIG} THEN 2 ELSE 3 + (n % ${TENANTS - 1}) END, 'Contato ' || n, (5511900000000 + n)::text
    FROM generate_series(1, ${TICKETS}) n`);
await step('tickets', `INSERT INTO tickets (id, tenant_id, contact_id, channel_id, queue_id, user_id, status, unread_messages, last_message, last_message_at, protocol, created_at, updated_at)
  SELECT n, c.tenant_id, n, c.tenant_id - 1,
         (c.tenant_id - 2) * 3 + 1 + (n % 3),
         CASE WHEN n % 20 = 0 THEN NULL ELSE (SELECT min(id) FROM users WHERE tenant_id = c.tenant_id) + (n % 10) END,
         CASE WHEN n % 20 = 0 THEN 'pending' WHEN n % 20 = 1 THEN 'open' ELSE 'closed' END,
         CASE WHEN n % 7 = 0 THEN 1 + n % 5 ELSE 0 END,
         'Mensagem ' || n,
         now() - ((n::bigint * 7919) % 7776000) * interval '1 second',
         'P' || n, now() - interval '90 days', now()
    FROM contacts c JOIN generate_series(1, ${TICKETS}) n ON c.id = n`);
await step('messages', `INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, provider_id, from_me, body, status, timestamp, created_at)
  SELECT t.tenant_id, t.id, t.contact_id, t.channel_id, 'p-' || t.id || '-' || k, k % 2 = 0, 'Texto da mensagem número ' || k || ' do ticket ' || t.id,
         CASE WHEN k % 2 = 0 THEN 'read' ELSE 'received' END, t.last_message_at - (${MSGS} - k) * interval '1 minute', t.last_message_at
    FROM tickets t, generate_series(1, ${MSGS}) k`);
// B3: one open ticket of the big tenant with 50k messages.
await step('long ticket (50k messages)', `INSERT INTO messages (tenant_id, ticket_id, contact_id, channel_id, provider_id, from_me, body, status, timestamp)
  SELECT 2, 2, 2, 1, 'long-' || k, k % 3 = 0, repeat('Conversa longa, mensagem ' || k || '. ', 3), 'read', now() - (50000 - k) * interval '1 second'
    FROM generate_series(1, 50000) k`);
await step('sequences', `SELECT setval('tenants_id_seq', ${TENANTS + 1}), setval('contacts_id_seq', ${TICKETS}), setval('tickets_id_seq', ${TICKETS})`);
await step('analyze', 'VACUUM ANALYZE');
await pool.end();
console.log(`seeded ${dbName}: ${TICKETS} tickets, ${TICKETS * MSGS + 50000} messages in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
