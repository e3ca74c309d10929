/**
 * Run-time registration of UI plugin remotes. Nothing is declared at build
 * time: after login the shell asks `GET /api/plugins/ui` which remotes this
 * user may load, registers them with the federation runtime
 * (`/plugins/<id>/mf-manifest.json`) and loads each remote's `./plugin`
 * module — a tiny `defineUiPlugin(...)` object whose screens stay lazy.
 */
import {
  REMOTE_EXPOSE,
  api,
  atendeStore,
  flattenRoutes,
  getSession,
  loginEpochAtom,
  registerPluginLocales,
  remoteName,
  uiPluginsAtom,
  type UiPluginDefinition,
  type UiPluginRoute,
} from '@atende/ui-shell/sdk';
import { allRoutes } from '../routes.tsx';
import { withTimeout } from './timeout.ts';

/** One remote offered to the user. */
export interface RemoteEntry {
  id: string;
  /** Manifest URL; defaults to `/plugins/<id>/mf-manifest.json`. */
  entry?: string;
  /** Routes the remote provides, when the server says so: lets a failed remote show an error box on them. */
  routes?: string[];
}

export interface PluginSnapshot {
  plugins: UiPluginDefinition[];
  failed: Array<{ id: string; error: string; routes: string[] }>;
  /** The top-level routes each remote declares, to mount (a path the shell or another remote already has is left out, and said so). */
  mounts: Array<{ plugin: UiPluginDefinition; route: UiPluginRoute }>;
  /** The plugin screen declared at a path (any depth), if any. */
  routeFor(path: string): { plugin: UiPluginDefinition; route: UiPluginRoute } | undefined;
  /** The failed remote that declared this path, if any. */
  failureFor(path: string): { id: string; error: string } | undefined;
  /** Route collisions found while mounting (shown in the console and by the shell's tests). */
  conflicts: string[];
}

const EMPTY: PluginSnapshot = { plugins: [], failed: [], mounts: [], conflicts: [], routeFor: () => undefined, failureFor: () => undefined };

/** Accepts `[{id, entry?, routes?|menus?}]`, `['id']` or `{plugins: [...]}`. */
export function normaliseEntries(answer: unknown): RemoteEntry[] {
  const list = Array.isArray(answer) ? answer : answer && typeof answer === 'object' && Array.isArray((answer as { plugins?: unknown }).plugins) ? (answer as { plugins: unknown[] }).plugins : [];
  const out: RemoteEntry[] = [];
  for (const item of list) {
    if (typeof item === 'string') out.push({ id: item });
    else if (item && typeof item === 'object' && typeof (item as { id?: unknown }).id === 'string') {
      const o = item as { id: string; entry?: unknown; routes?: unknown; menus?: unknown };
      const routes = Array.isArray(o.routes)
        ? o.routes.filter((r): r is string => typeof r === 'string')
        : Array.isArray(o.menus)
          ? o.menus.map((m) => (m && typeof m === 'object' ? (m as { route?: unknown }).route : undefined)).filter((r): r is string => typeof r === 'string')
          : [];
      out.push({ id: o.id, entry: typeof o.entry === 'string' ? o.entry : undefined, routes });
    }
  }
  return out;
}

const registered = new Set<string>();

/** Runs the federation host init the build left for later (undefined in tests and dev, where it ran at start). */
async function initFederationHost(): Promise<void> {
  const init = (globalThis as { __atendeFederationInit?: () => Promise<unknown> }).__atendeFederationInit;
  if (init) await init();
}

function snapshotOf(plugins: UiPluginDefinition[], failed: PluginSnapshot['failed']): PluginSnapshot {
  const shell = new Set(allRoutes().map((r) => r.path));
  const byPath = new Map<string, { plugin: UiPluginDefinition; route: UiPluginRoute }>();
  const mounts: PluginSnapshot['mounts'] = [];
  const conflicts: string[] = [];
  for (const plugin of plugins) {
    const own = flattenRoutes(plugin.routes);
    const clash = own.find((r) => shell.has(r.path) || byPath.has(r.path));
    if (clash) {
      // A route is declared once: a remote claiming a path the shell or another remote owns is refused whole, loudly.
      const owner = shell.has(clash.path) ? 'the shell' : `plugin ${byPath.get(clash.path)!.plugin.id}`;
      const msg = `UI plugin ${plugin.id}: route ${clash.path} is already declared by ${owner}; its routes are not mounted`;
      console.error(msg);
      conflicts.push(msg);
      continue;
    }
    for (const route of own) byPath.set(route.path, { plugin, route });
    for (const route of plugin.routes) mounts.push({ plugin, route });
  }
  return {
    plugins,
    failed,
    mounts,
    conflicts,
    routeFor: (path) => byPath.get(path),
    failureFor: (path) => failed.find((f) => f.routes.some((r) => r === path || path.startsWith(`${r}/`))),
  };
}

/** The snapshot once loaded for this login (undefined while loading or logged out). */
let settled: PluginSnapshot | undefined;
export const loadedPlugins = (): PluginSnapshot | undefined => settled;

async function loadAll(): Promise<PluginSnapshot> {
  atendeStore.set(uiPluginsAtom, { status: 'loading', plugins: [], failed: [] });
  let entries: RemoteEntry[] = [];
  try {
    entries = normaliseEntries(await api.get<unknown>('/plugins/ui', { background: true }));
  } catch (e) {
    // Without the list the shell still works: plugin routes show NotFound.
    console.warn('Could not list UI plugins', e);
  }
  if (!entries.length) {
    settled = EMPTY;
    atendeStore.set(uiPluginsAtom, { status: 'ready', plugins: [], failed: [] });
    return EMPTY;
  }
  // The federation runtime and the host's share scope come in only now
  // (mf-shared.ts `hostLazyInit`): the login page and the first screen never wait for them.
  const [{ loadRemote, registerRemotes }] = await Promise.all([import('@module-federation/runtime'), initFederationHost()]);
  const fresh = entries.filter((e) => !registered.has(e.id));
  if (fresh.length) {
    registerRemotes(fresh.map((e) => ({ name: remoteName(e.id), entry: e.entry ?? `/plugins/${e.id}/mf-manifest.json` })));
    fresh.forEach((e) => registered.add(e.id));
  }
  // All at once: remotes bundle no copy of the shared singletons (mf-shared.ts `remoteShared`),
  // so whichever loads first still uses the shell's React, Mantine, query client and SDK.
  const results = await Promise.allSettled(
    entries.map(async (e) => {
      const mod = await withTimeout(loadRemote<{ default: UiPluginDefinition }>(`${remoteName(e.id)}/${REMOTE_EXPOSE.slice(2)}`));
      const def = mod?.default;
      if (!def || !Array.isArray(def.routes)) throw new Error(`Remote ${e.id} does not default-export defineUiPlugin(...)`);
      registerPluginLocales(def);
      return def;
    }),
  );
  const plugins: UiPluginDefinition[] = [];
  const failed: PluginSnapshot['failed'] = [];
  results.forEach((r, i) => {
    const entry = entries[i]!;
    if (r.status === 'fulfilled') plugins.push(r.value);
    else {
      console.error(`UI plugin ${entry.id} failed to load`, r.reason);
      failed.push({ id: entry.id, error: r.reason instanceof Error ? r.reason.message : String(r.reason), routes: entry.routes ?? [] });
    }
  });
  const snapshot = snapshotOf(plugins, failed);
  settled = snapshot;
  atendeStore.set(uiPluginsAtom, { status: 'ready', plugins, failed: failed.map(({ id, error }) => ({ id, error })) });
  return snapshot;
}

let loadedFor: number | undefined;
let current: Promise<PluginSnapshot> = Promise.resolve(EMPTY);

/**
 * The plugins of the current session, loading them on first use after each
 * login. Resolves to an empty snapshot when logged out, so a route resolved
 * before login never waits forever.
 */
export function pluginsReady(): Promise<PluginSnapshot> {
  if (!getSession()) return Promise.resolve(EMPTY);
  const epoch = atendeStore.get(loginEpochAtom);
  if (loadedFor !== epoch) {
    loadedFor = epoch;
    settled = undefined;
    current = loadAll();
  }
  return current;
}
