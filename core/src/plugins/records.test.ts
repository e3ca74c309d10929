import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { RecordExtensions } from './records.ts';

/** Tenant 2 has the plugin `lanes` switched off. */
const enablement = { isEnabled: async (tenantId: number, pluginId: string) => !(tenantId === 2 && pluginId === 'lanes') };

function registry() {
  const calls: string[] = [];
  const stored: Record<string, unknown>[] = [];
  const r = new RecordExtensions(enablement);
  r.extend('lanes', 'contact', {
    fields: ['kanban'],
    async load(tenantId, ids) {
      calls.push(`load ${tenantId} ${ids.join(',')}`);
      return new Map(ids.filter((id) => id % 2 === 0).map((id) => [id, { kanban: id * 10 }]));
    },
    async check(_tenantId, { kanban }) {
      if (kanban === 13) throw new AppError('ERR_NOT_FOUND');
    },
    async save(tenantId, id, values) {
      stored.push({ tenantId, id, ...values });
    },
  });
  r.extend('scores', 'contact', {
    fields: ['score'],
    async load(_tenantId, ids) {
      return new Map(ids.map((id) => [id, { score: 5 }]));
    },
    async loadAcross(keys) {
      calls.push(`across ${keys.map((k) => `${k.tenantId}:${k.id}`).join(',')}`);
      return new Map(keys.map((k) => [k.id, { score: k.tenantId }]));
    },
  });
  return { r, calls, stored };
}

describe('plugin fields on kernel records', () => {
  it('fills every field of a page with one load per plugin, null where a plugin has no value or is off for the tenant', async () => {
    const { r, calls } = registry();
    const page = [{ id: 1 }, { id: 2 }, { id: 4 }];
    await r.apply('contact', 1, page);
    expect(page).toEqual([{ id: 1, kanban: null, score: 5 }, { id: 2, kanban: 20, score: 5 }, { id: 4, kanban: 40, score: 5 }]);
    expect(calls).toEqual(['load 1 1,2,4']);
    const off = await r.load('contact', 2, [2]);
    expect(off.get(2)).toEqual({ kanban: null, score: 5 });
    expect(await r.apply('ticket', 1, [{ id: 9 }])).toEqual([{ id: 9 }]);
  });

  it('loads records of several tenants with one query per plugin that offers it', async () => {
    const { r, calls } = registry();
    const values = await r.loadMany('contact', [{ tenantId: 1, id: 2 }, { tenantId: 2, id: 4 }, { tenantId: 3, id: 6 }]);
    expect(Object.fromEntries(values)).toEqual({ 2: { kanban: 20, score: 1 }, 4: { kanban: null, score: 2 }, 6: { kanban: 60, score: 3 } });
    expect(calls.sort()).toEqual(['across 1:2,2:4,3:6', 'load 1 2', 'load 3 6']);
  });

  it('splits plugin fields out of an input, lets their owner refuse them first, and saves only for tenants that have the plugin', async () => {
    const { r, stored } = registry();
    const { own, values } = r.split('contact', { name: 'Ana', kanban: 3, state: undefined, wallet: 1 } as Record<string, unknown>, ['kanban', 'other']);
    expect(own).toEqual({ name: 'Ana', state: undefined, wallet: 1 });
    expect(values).toEqual({ kanban: 3 });
    await expect(r.check('contact', 1, { kanban: 13 })).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await r.check('contact', 2, { kanban: 13 });
    await r.save('contact', 1, 7, { kanban: 3, other: 1 });
    await r.save('contact', 2, 8, { kanban: 3 });
    expect(stored).toEqual([{ tenantId: 1, id: 7, kanban: 3 }]);
  });

  it('refuses a field two plugins claim, an unknown kind and names that are not camelCase', () => {
    const { r } = registry();
    const load = async () => new Map();
    expect(() => r.extend('other', 'contact', { fields: ['kanban'], load })).toThrow(/already declared by plugin lanes/);
    expect(() => r.extend('other', 'queue' as never, { fields: ['x'], load })).toThrow(/unknown record kind/);
    expect(() => r.extend('other', 'ticket', { fields: ['rating_value'], load })).toThrow(/camelCase/);
    expect(r.plugins('contact')).toEqual(['lanes', 'scores']);
  });
});
