import type { PluginEnablement } from './enablement.ts';
import type { RecordExtension, RecordKind } from '../sdk/types.ts';

export const RECORD_KINDS: readonly RecordKind[] = ['contact', 'ticket', 'channel', 'tenant'];

interface Registered {
  pluginId: string;
  ext: RecordExtension;
}

/**
 * Plugin fields on kernel records (`ctx.records.extend`, docs/plugin-authoring.md
 * "Fields on kernel records"). A field the spec puts on a kernel record but whose
 * value lives in a plugin's table (a contact's `kanban` lane) is filled here,
 * wherever the kernel serialises that kind of record: one `load` per plugin for
 * all the records of a page or an event, never one per row; and where a
 * kernel route receives them, `check` before the kernel writes and `save`
 * after. A tenant that has the plugin switched off gets `null` for its
 * fields, and its writes to them are ignored.
 */
export class RecordExtensions {
  private readonly byKind = new Map<RecordKind, Registered[]>();

  constructor(private readonly enablement: Pick<PluginEnablement, 'isEnabled'>) {}

  /** Registers a plugin's fields on one kind of record; a field two plugins (or the same one twice) claim stops boot. */
  extend(pluginId: string, kind: RecordKind, ext: RecordExtension): void {
    if (!RECORD_KINDS.includes(kind)) throw new Error(`plugin ${pluginId}: unknown record kind "${kind}"`);
    if (!ext.fields.length) throw new Error(`plugin ${pluginId}: ${kind} extension without fields`);
    const list = this.byKind.get(kind) ?? [];
    for (const field of ext.fields) {
      if (!/^[a-z][A-Za-z0-9]*$/.test(field)) throw new Error(`plugin ${pluginId}: field "${field}" of ${kind} must be camelCase`);
      const owner = list.find((r) => r.ext.fields.includes(field));
      if (owner) throw new Error(`plugin ${pluginId}: field "${field}" of ${kind} is already declared by plugin ${owner.pluginId}`);
    }
    list.push({ pluginId, ext });
    this.byKind.set(kind, list);
  }

  /** Every field plugins add to a kind of record. */
  fields(kind: RecordKind): string[] {
    return (this.byKind.get(kind) ?? []).flatMap((r) => [...r.ext.fields]);
  }

  /** The plugins that add fields to a kind of record, in registration order. */
  plugins(kind: RecordKind): string[] {
    return (this.byKind.get(kind) ?? []).map((r) => r.pluginId);
  }

  /** Whether any plugin adds fields to this kind (the kernel skips the work otherwise). */
  has(kind: RecordKind): boolean {
    return !!this.byKind.get(kind)?.length;
  }

  /** The plugins' values for these records, by record id: every registered field present, `null` when a plugin has none (or is off for the tenant). */
  async load(kind: RecordKind, tenantId: number, ids: number[]): Promise<Map<number, Record<string, unknown>>> {
    const out = new Map<number, Record<string, unknown>>();
    const list = this.byKind.get(kind);
    if (!list?.length || !ids.length) return out;
    const unique = [...new Set(ids)];
    for (const id of unique) out.set(id, Object.fromEntries(list.flatMap((r) => r.ext.fields.map((f) => [f, null]))));
    await Promise.all(
      list.map(async ({ pluginId, ext }) => {
        if (!(await this.enablement.isEnabled(tenantId, pluginId))) return;
        const values = await ext.load(tenantId, unique);
        for (const [id, v] of values) {
          const row = out.get(id);
          if (!row) continue;
          for (const f of ext.fields) if (v[f] !== undefined) row[f] = v[f];
        }
      }),
    );
    return out;
  }

  /**
   * `load` for records of several tenants (ids are unique across tenants): one `loadAcross` per
   * plugin that offers it, else one `load` per plugin and tenant, side by side.
   */
  async loadMany(kind: RecordKind, keys: { tenantId: number; id: number }[]): Promise<Map<number, Record<string, unknown>>> {
    const out = new Map<number, Record<string, unknown>>();
    const list = this.byKind.get(kind);
    if (!list?.length || !keys.length) return out;
    for (const k of keys) out.set(k.id, Object.fromEntries(list.flatMap((r) => r.ext.fields.map((f) => [f, null]))));
    const tenants = [...new Set(keys.map((k) => k.tenantId))];
    await Promise.all(
      list.map(async ({ pluginId, ext }) => {
        const on = new Set((await Promise.all(tenants.map(async (t) => ((await this.enablement.isEnabled(t, pluginId)) ? t : undefined)))).filter((t) => t !== undefined));
        const mine = keys.filter((k) => on.has(k.tenantId));
        if (!mine.length) return;
        const parts = ext.loadAcross
          ? [await ext.loadAcross(mine)]
          : await Promise.all([...on].map((t) => ext.load(t, mine.filter((k) => k.tenantId === t).map((k) => k.id))));
        for (const values of parts) {
          for (const [id, v] of values) {
            const row = out.get(id);
            if (!row) continue;
            for (const f of ext.fields) if (v[f] !== undefined) row[f] = v[f];
          }
        }
      }),
    );
    return out;
  }

  /** Sets the plugins' fields on records of one tenant, in place (`idOf` names the record's id; by default its `id`). */
  async apply<T extends object>(kind: RecordKind, tenantId: number, records: T[], idOf: (r: T) => number = (r) => (r as { id: number }).id): Promise<T[]> {
    if (!this.has(kind) || !records.length) return records;
    const values = await this.load(kind, tenantId, records.map(idOf));
    for (const r of records) Object.assign(r, values.get(idOf(r)));
    return records;
  }

  /** Like `apply`, for records of several tenants at once (one load per tenant, side by side). */
  async applyMany<T extends object>(kind: RecordKind, records: T[], tenantOf: (r: T) => number, idOf: (r: T) => number = (r) => (r as { id: number }).id): Promise<T[]> {
    if (!this.has(kind) || !records.length) return records;
    const byTenant = new Map<number, T[]>();
    for (const r of records) byTenant.set(tenantOf(r), [...(byTenant.get(tenantOf(r)) ?? []), r]);
    await Promise.all([...byTenant].map(([tenantId, rows]) => this.apply(kind, tenantId, rows, idOf)));
    return records;
  }

  /** Takes the plugins' fields out of an input object: the kernel's own part, and the values it must hand to `save`. */
  split<T extends Record<string, unknown>>(kind: RecordKind, input: T, specFields: readonly string[] = []): { own: T; values: Record<string, unknown> } {
    const taken = new Set([...this.fields(kind), ...specFields]);
    const own = {} as Record<string, unknown>;
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) {
      if (!taken.has(k)) own[k] = v;
      else if (v !== undefined) values[k] = v;
    }
    return { own: own as T, values };
  }

  /** Lets each plugin refuse the values of its fields (an `AppError`) before anything is written. */
  async check(kind: RecordKind, tenantId: number, values: Record<string, unknown>, id?: number): Promise<void> {
    for (const { pluginId, ext, mine } of this.owners(kind, values)) {
      if (!ext.check || !(await this.enablement.isEnabled(tenantId, pluginId))) continue;
      await ext.check(tenantId, mine, id);
    }
  }

  /**
   * Hands each plugin the values of its fields for one record (fields nobody
   * owns, or whose plugin is off for the tenant, are ignored). Runs after the
   * kernel stored its own part, so a refusal from the kernel changes nothing.
   */
  async save(kind: RecordKind, tenantId: number, id: number, values: Record<string, unknown>): Promise<void> {
    for (const { pluginId, ext, mine } of this.owners(kind, values)) {
      if (!ext.save || !(await this.enablement.isEnabled(tenantId, pluginId))) continue;
      await ext.save(tenantId, id, mine);
    }
  }

  /** The plugins owning some of these values, each with its part. */
  private owners(kind: RecordKind, values: Record<string, unknown>): (Registered & { mine: Record<string, unknown> })[] {
    return (this.byKind.get(kind) ?? [])
      .map((r) => ({ ...r, mine: Object.fromEntries(Object.entries(values).filter(([k]) => r.ext.fields.includes(k))) }))
      .filter((r) => Object.keys(r.mine).length > 0);
  }
}
