import type pg from 'pg';
import type { PluginDefinition } from '../sdk/types.ts';

/**
 * Per-tenant plugin enablement (`tenant_plugins`). A tenant without a row uses
 * the plugin's default. Cached briefly per node; changes made through this
 * class clear the cache at once, other nodes see them within the TTL.
 */
export class PluginEnablement {
  private cache = new Map<number, { at: number; rows: Map<string, boolean> }>();
  private static readonly TTL_MS = 2000;

  constructor(private readonly pool: pg.Pool, private readonly defs: Map<string, PluginDefinition>) {}

  async enabledMap(tenantId: number): Promise<Map<string, boolean>> {
    const hit = this.cache.get(tenantId);
    let rows: Map<string, boolean>;
    if (hit && Date.now() - hit.at < PluginEnablement.TTL_MS) rows = hit.rows;
    else {
      const r = await this.pool.query<{ plugin_id: string; enabled: boolean }>('SELECT plugin_id, enabled FROM tenant_plugins WHERE tenant_id = $1', [tenantId]);
      rows = new Map(r.rows.map((x) => [x.plugin_id, x.enabled]));
      this.cache.set(tenantId, { at: Date.now(), rows });
    }
    const out = new Map<string, boolean>();
    for (const [id, def] of this.defs) out.set(id, rows.get(id) ?? def.enabledByDefault !== false);
    return out;
  }

  async isEnabled(tenantId: number, pluginId: string): Promise<boolean> {
    return (await this.enabledMap(tenantId)).get(pluginId) ?? false;
  }

  async set(tenantId: number, pluginId: string, enabled: boolean): Promise<void> {
    await this.pool.query(
      `INSERT INTO tenant_plugins (tenant_id, plugin_id, enabled) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, plugin_id) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()`,
      [tenantId, pluginId, enabled],
    );
    this.cache.delete(tenantId);
  }
}
