/**
 * An install from before [K4] kept the contact's lane in the kernel's
 * `contacts.kanban`. On upgrade the kernel retires that column (kernel
 * migrations run first) and this plugin's `0002_contact_lanes` takes the
 * values over: the lanes must read exactly as before through the API.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@atende/core/testing';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({
    plugins: ['kanban'],
    upgrade: {
      pending: ['core:read/0002_retired_values', 'plugin:kanban/0002_contact_lanes'],
      async seed(sql) {
        // What the old 0001_init of this plugin also created.
        await sql.query(`CREATE INDEX kanban_contacts_lane_idx ON contacts (tenant_id, kanban, lower(name), id) WHERE NOT is_group`);
        const tenant = async (name: string) => (await sql.query<{ id: number }>(`INSERT INTO tenants (name) VALUES ($1) RETURNING id`, [name])).rows[0]!.id;
        const laneOf = async (tenantId: number, name: string, position: number) =>
          (await sql.query<{ id: number }>(`INSERT INTO kanban_lanes (tenant_id, name, position) VALUES ($1, $2, $3) RETURNING id`, [tenantId, name, position])).rows[0]!.id;
        const contactOf = async (tenantId: number, name: string, kanban: number | null) =>
          (await sql.query<{ id: number }>(`INSERT INTO contacts (tenant_id, name, kanban) VALUES ($1, $2, $3) RETURNING id`, [tenantId, name, kanban])).rows[0]!.id;
        ids.a = await tenant('Empresa A');
        ids.b = await tenant('Empresa B');
        ids.novo = await laneOf(ids.a, 'Novo', 0);
        ids.ganho = await laneOf(ids.a, 'Ganho', 1);
        ids.ana = await contactOf(ids.a, 'Ana Souza', ids.novo);
        ids.bruno = await contactOf(ids.a, 'Bruno Lima', ids.ganho);
        // A lane deleted long ago (the board showed the contact under "Sem lane"), and no lane at all.
        ids.carla = await contactOf(ids.a, 'Carla Dias', 2_000_000_000);
        ids.davi = await contactOf(ids.a, 'Davi Rocha', null);
        // Another tenant's contact pointing at A's lane never joins it.
        ids.elisa = await contactOf(ids.b, 'Elisa Prado', ids.novo);
      },
    },
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

it('an existing install keeps every contact’s lane after the upgrade, and the kernel no longer holds it', async () => {
  const admin = await t.loginAs('admin', ids.a);
  const lane = async (id: number, who = admin) => (await t.app.inject({ method: 'GET', url: `/api/contacts/${id}`, headers: who.headers })).json().kanban;
  expect([await lane(ids.ana!), await lane(ids.bruno!), await lane(ids.carla!), await lane(ids.davi!)]).toEqual([ids.novo, ids.ganho, null, null]);
  expect(await lane(ids.elisa!, await t.loginAs('admin', ids.b))).toBeNull();

  const board = (await t.app.inject({ method: 'GET', url: '/api/plugins/kanban/board', headers: admin.headers })).json();
  expect(board.columns.map((c: { name: string; cards: { name: string }[] }) => [c.name, c.cards.map((x) => x.name)])).toEqual([
    ['', ['Carla Dias', 'Davi Rocha']],
    ['Novo', ['Ana Souza']],
    ['Ganho', ['Bruno Lima']],
  ]);

  const column = await t.sql.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'contacts' AND column_name = 'kanban'`);
  expect(column.rowCount).toBe(0);
  const index = await t.sql.query(`SELECT 1 FROM pg_indexes WHERE indexname = 'kanban_contacts_lane_idx'`);
  expect(index.rowCount).toBe(0);
});
