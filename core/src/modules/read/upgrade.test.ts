/**
 * The kernel's read surface ([K4]): the indexes behind the notes and protocols
 * lists are the kernel's, also on installs where those plugins had created
 * them on the kernel's tables before.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    plugins: [],
    upgrade: {
      pending: ['core:read/0003_list_indexes'],
      async seed(sql) {
        // What notes' and protocols' 0001_init created before [K4].
        await sql.query(`CREATE INDEX notes_messages_idx ON messages (tenant_id, id DESC) WHERE is_note AND deleted_at IS NULL`);
        await sql.query(`CREATE INDEX protocols_tickets_idx ON tickets (tenant_id, id DESC) WHERE protocol IS NOT NULL`);
      },
    },
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

it('takes over the list indexes plugins had created on its tables, under its own names', async () => {
  const r = await t.sql.query<{ indexname: string; tablename: string }>(
    `SELECT indexname, tablename FROM pg_indexes WHERE indexname IN ('notes_messages_idx', 'protocols_tickets_idx', 'messages_notes_idx', 'tickets_protocol_list_idx') ORDER BY indexname`,
  );
  expect(r.rows).toEqual([
    { indexname: 'messages_notes_idx', tablename: 'messages' },
    { indexname: 'tickets_protocol_list_idx', tablename: 'tickets' },
  ]);
});
