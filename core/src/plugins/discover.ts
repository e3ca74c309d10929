import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition } from '../sdk/types.ts';

/**
 * Finds plugins in `plugins/*` workspaces (each with `src/index.ts` that
 * default-exports `definePlugin(...)`), filtered by `only` when given, and
 * returns them in dependency order. A missing dependency or a cycle stops boot.
 */
export async function discoverPlugins(rootDir: string, only?: string[]): Promise<PluginDefinition[]> {
  const dir = path.join(rootDir, 'plugins');
  const found = new Map<string, PluginDefinition>();
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  for (const ent of entries) {
    if (!ent.isDirectory()) continue;
    if (only && !only.includes(ent.name)) continue;
    const entry = path.join(dir, ent.name, 'src', 'index.ts');
    if (!fs.existsSync(entry)) continue;
    const mod = (await import(pathToFileURL(entry).href)) as { default?: PluginDefinition };
    const def = mod.default;
    if (!def || typeof def.register !== 'function') throw new Error(`plugins/${ent.name}/src/index.ts must default-export definePlugin({...})`);
    if (def.id !== ent.name) throw new Error(`plugin folder plugins/${ent.name} declares id "${def.id}"; they must match`);
    found.set(def.id, def);
  }
  if (only) for (const id of only) if (!found.has(id)) throw new Error(`plugin "${id}" not found under plugins/`);
  return sortByDependencies([...found.values()]);
}

export function sortByDependencies(defs: PluginDefinition[]): PluginDefinition[] {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const out: PluginDefinition[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (d: PluginDefinition, trail: string[]) => {
    if (state.get(d.id) === 'done') return;
    if (state.get(d.id) === 'visiting') throw new Error(`plugin dependency cycle: ${[...trail, d.id].join(' -> ')}`);
    state.set(d.id, 'visiting');
    for (const dep of d.dependsOn ?? []) {
      const target = byId.get(dep);
      if (!target) throw new Error(`plugin "${d.id}" depends on "${dep}", which is not installed`);
      visit(target, [...trail, d.id]);
    }
    state.set(d.id, 'done');
    out.push(d);
  };
  for (const d of [...defs].sort((a, b) => a.id.localeCompare(b.id))) visit(d, []);
  return out;
}
