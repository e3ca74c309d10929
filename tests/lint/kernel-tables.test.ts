/**
 * [K4]: plugins reach kernel data through the read services on `ctx` or the
 * kernel's read-only `v_*` views (docs/architecture.md), and never read, write,
 * index or alter the kernel's own tables. This scans every plugin's SQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const KERNEL_TABLES = [
  'tenants', 'tenant_plugins', 'settings', 'plans', 'users', 'sessions', 'refresh_tokens', 'queues', 'tags', 'quick_messages',
  'contacts', 'contact_tags', 'contact_wallets', 'contact_identities', 'channels', 'tickets', 'ticket_logs', 'messages',
  'message_sends', 'bulk_batches', 'bulk_recipients', 'channel_sessions', 'channel_auth_state', 'retired_values',
];
const SQL_REF = new RegExp(String.raw`\b(FROM|JOIN|UPDATE|INTO|ON|TABLE|REFERENCES)\s+(${KERNEL_TABLES.join('|')})\b(?!\s*\()`, 'gi');

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : files(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$|fake-/.test(e.name) ? [p] : [];
  });
}

it('no plugin touches a kernel table (except to reference tenants(id) for ON DELETE CASCADE)', () => {
  const hits: string[] = [];
  for (const file of files(path.join(ROOT, 'plugins'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(SQL_REF)) {
      // A plugin table's rows belong to a tenant: `REFERENCES tenants(id) ON DELETE CASCADE` is how they go with it.
      if (/^references$/i.test(m[1]!) && /^tenants$/i.test(m[2]!)) continue;
      const line = text.slice(0, m.index).split('\n').length;
      hits.push(`${path.relative(ROOT, file)}:${line}: ${m[0]}`);
    }
  }
  expect(hits).toEqual([]);
});
