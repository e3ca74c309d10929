import { ERRORS, type PluginDefinition } from '@atende/core/sdk';
import { CliError, type CliContext } from './context.ts';
import { withDatabase } from './database.ts';
import { PluginEnablement } from './kernel.ts';
import { configFrom } from './config.ts';
import { table } from './table.ts';
import { findTenant } from './tenants.ts';

const yesNo = (b: boolean) => (b ? 'sim' : 'não');

export async function pluginsList(ctx: CliContext, opts: { tenant?: number }): Promise<void> {
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    if (!db.plugins.length) {
      ctx.out('Nenhum plugin instalado (plugins/ está vazio).');
      return;
    }
    if (opts.tenant === undefined) {
      const rows = db.plugins.map((p) => [p.id, p.kind, p.name ?? p.id, p.enabledByDefault === false ? 'desativado' : 'ativado', yesNo(!!p.ui)]);
      for (const line of table(['PLUGIN', 'TIPO', 'NOME', 'PADRÃO', 'INTERFACE'], rows)) ctx.out(line);
      return;
    }
    const tenant = await findTenant(db.pool, opts.tenant);
    const enabled = await new PluginEnablement(db.pool, new Map(db.plugins.map((p) => [p.id, p]))).enabledMap(tenant.id);
    const explicit = await db.pool.query<{ plugin_id: string }>('SELECT plugin_id FROM tenant_plugins WHERE tenant_id = $1', [tenant.id]);
    const chosen = new Set(explicit.rows.map((r) => r.plugin_id));
    ctx.out(`Tenant ${tenant.id} (${tenant.name}):`);
    const rows = db.plugins.map((p) => [p.id, p.kind, p.name ?? p.id, `${enabled.get(p.id) ? 'ativado' : 'desativado'}${chosen.has(p.id) ? '' : ' (padrão)'}`, yesNo(!!p.ui)]);
    for (const line of table(['PLUGIN', 'TIPO', 'NOME', 'ESTADO', 'INTERFACE'], rows)) ctx.out(line);
  });
}

export async function pluginsSetEnabled(ctx: CliContext, id: string, opts: { tenant: number }, enabled: boolean): Promise<void> {
  await withDatabase(configFrom(ctx), ctx, async (db) => {
    const def = db.plugins.find((p) => p.id === id);
    if (!def) {
      const installed = db.plugins.map((p) => p.id).join(', ') || 'nenhum';
      throw new CliError(`${ERRORS.ERR_PLUGIN_UNKNOWN.pt}: "${id}" (instalados: ${installed}).`);
    }
    const tenant = await findTenant(db.pool, opts.tenant);
    const enablement = new PluginEnablement(db.pool, new Map(db.plugins.map((p) => [p.id, p])));
    await enablement.set(tenant.id, def.id, enabled);
    // Running servers cache enablement for about two seconds per node.
    ctx.out(`Plugin ${def.id} ${enabled ? 'ativado' : 'desativado'} para o tenant ${tenant.id} (${tenant.name}); servidores em execução aplicam em até 2 s.`);
    for (const line of dependencyWarnings(db.plugins, def, enabled, await enablement.enabledMap(tenant.id))) ctx.err(line);
  });
}

/** The kernel loads plugins in dependency order but does not cascade per-tenant choices: say when they disagree. */
function dependencyWarnings(plugins: PluginDefinition[], def: PluginDefinition, enabled: boolean, state: Map<string, boolean>): string[] {
  if (enabled) {
    const off = (def.dependsOn ?? []).filter((d) => !state.get(d));
    return off.length ? [`⚠ ${def.id} depende de ${off.join(', ')}, desativado(s) para este tenant; ative-o(s) também.`] : [];
  }
  const dependents = plugins.filter((p) => p.dependsOn?.includes(def.id) && state.get(p.id)).map((p) => p.id);
  return dependents.length ? [`⚠ ${dependents.join(', ')} depende(m) de ${def.id} e continua(m) ativado(s) para este tenant.`] : [];
}
