/**
 * Route-aware chunks for the shell's first loads (docs/performance.md U1).
 *
 * Rolldown's automatic code splitting gives every set of screens sharing a
 * module its own chunk. The ticket screen's first load was ~140 files, most
 * under 1 KB (an icon, a small Mantine part), and on HTTP/1.1 they queue six
 * at a time: on this machine the files alone took ~0.6 s of the cold time to
 * interactive. These groups put a first load into a few files instead:
 *
 * - `boot`: everything the entry (`src/main.tsx`) imports, statically;
 * - `first-common`: what two of the routes below import (inputs, buttons…);
 * - per route (`routes`): what its screens import, minus the above, split in
 *   two: `<name>-shared` (also imported by some other screen: the rail,
 *   common Mantine components) and `<name>` (only this route's screens).
 *   Other screens that use a shared module load `<name>-shared`, one file
 *   of modules they mostly need too, instead of a dozen small ones.
 *
 * Which modules a screen imports is computed here from the import statements
 * of the built modules, following named imports through index modules
 * (`@mantine/core`, `@tabler/icons-react`) to the module defining each name,
 * so an index does not drag all its packages' modules in. It is a module-level
 * view (a module counts whole when any of its names is imported), so it can
 * only err towards a module being counted when it is not needed; the report
 * of `scripts/measure-bundle.ts` shows what the pages really download.
 */
import { parseAst, type Plugin } from 'vite';

interface ModuleImports {
  /** `import { a } from` and `import x from` (the name `default`): module id → names. */
  named: Map<string, Set<string>>;
  /** Imports that need the whole module: side effects only, `import * as`, unknown. */
  whole: Set<string>;
  /** `export { a as b } from`: exported name → [module id, its name]. */
  reexports: Map<string, [string, string]>;
  /** `export * from`. */
  stars: string[];
  /** Names the module itself defines and exports. */
  locals: Set<string>;
  /** `import()` targets. */
  dynamic: string[];
}

export interface RouteChunks {
  /** Chunk name prefix, e.g. `tickets`. */
  name: string;
  /** The route's screen modules, absolute paths. */
  roots: string[];
}

type Node = ReturnType<typeof parseAst>['body'][number];
const nameOf = (n: { type: string; name?: string; value?: unknown }) => (n.type === 'Identifier' ? n.name! : String(n.value));

/** Every `import()` and `require()` with a literal source in the module's code, with its position. */
function callSources(node: unknown, out: { dynamic: string[]; required: Array<[number, string]> }): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach((n) => callSources(n, out));
    return;
  }
  const n = node as { type?: string; start?: number; source?: { type?: string; value?: unknown }; callee?: { type?: string; name?: string }; arguments?: Array<{ type?: string; value?: unknown }> };
  if (n.type === 'ImportExpression' && n.source?.type === 'Literal' && typeof n.source.value === 'string') out.dynamic.push(n.source.value);
  const arg = n.arguments?.[0];
  if (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && n.callee.name === 'require' && arg?.type === 'Literal' && typeof arg.value === 'string') {
    out.required.push([n.start ?? 0, arg.value]);
  }
  for (const v of Object.values(node)) if (v && typeof v === 'object') callSources(v, out);
}

/**
 * The plugin that records each module's imports, and the `codeSplitting`
 * groups built from them. `entry` is the app's entry module; its own chunk
 * stays the entry chunk (the federation bootstrap loads it by name).
 */
export function routeChunks(entry: string, routes: RouteChunks[]) {
  const modules = new Map<string, ModuleImports>();
  const pending: Array<Promise<void>> = [];
  const isPlain = (id: string) => !id.startsWith('\0') && !/virtual:|__mf|__prebuild__|__loadShare__|localSharedImportMap|hostAutoInit/.test(id);

  const plugin: Plugin = {
    name: 'atende:route-chunks',
    apply: 'build',
    moduleParsed(info) {
      if (!info.code || !isPlain(info.id) || !/\.[cm]?[jt]sx?(\?|$)|\.json$|\.css$/.test(info.id)) return;
      const code = info.code;
      const id = info.id;
      let body: Node[];
      let ast: ReturnType<typeof parseAst>;
      try {
        ast = parseAst(code, { lang: 'js' }, id);
        body = ast.body;
      } catch {
        return;
      }
      // One record per import or re-export statement; `*` stands for a whole module (namespace).
      type Rec = { source: string; start: number; named?: string[]; whole?: boolean; reexport?: Array<[string, string]>; star?: boolean };
      const recs: Rec[] = [];
      const locals = new Set<string>();
      // Imported bindings by local name, to tell `import { a } …; export { a }` (a re-export) from a local export.
      const imported = new Map<string, { rec: Rec; name: string }>();
      // A module made only of imports and exports (an index) imports its names to re-export them, not to run them.
      const indexOnly = body.every((n) => n.type === 'ImportDeclaration' || n.type === 'ExportAllDeclaration'
        || (n.type === 'ExportNamedDeclaration' && !n.declaration));
      for (const node of body) {
        if (node.type === 'ImportDeclaration') {
          const rec: Rec = { source: String(node.source.value), start: node.start, named: [], whole: node.specifiers.length === 0 };
          for (const sp of node.specifiers) {
            const name = sp.type === 'ImportSpecifier' ? nameOf(sp.imported) : sp.type === 'ImportDefaultSpecifier' ? 'default' : '*';
            imported.set(sp.local.name, { rec, name });
            if (indexOnly) continue;
            if (name === '*') rec.whole = true;
            else rec.named!.push(name);
          }
          recs.push(rec);
        } else if (node.type === 'ExportDefaultDeclaration') {
          locals.add('default');
        } else if (node.type === 'ExportNamedDeclaration' && node.source) {
          recs.push({ source: String(node.source.value), start: node.start, reexport: node.specifiers.map((sp) => [nameOf(sp.exported), nameOf(sp.local)] as [string, string]) });
        } else if (node.type === 'ExportNamedDeclaration') {
          const d = node.declaration;
          if (d && 'id' in d && d.id && d.id.type === 'Identifier') locals.add(d.id.name);
          if (d?.type === 'VariableDeclaration') for (const v of d.declarations) if (v.id.type === 'Identifier') locals.add(v.id.name);
          for (const sp of node.specifiers) {
            const from = imported.get(nameOf(sp.local));
            if (from) recs.push({ source: from.rec.source, start: from.rec.start, reexport: [[nameOf(sp.exported), from.name]] });
            else locals.add(nameOf(sp.exported));
          }
        } else if (node.type === 'ExportAllDeclaration') {
          // `export * as ns from` exposes the whole module under one name.
          if (node.exported) recs.push({ source: String(node.source.value), start: node.start, reexport: [[nameOf(node.exported), '*']] });
          else recs.push({ source: String(node.source.value), start: node.start, star: true });
        }
      }
      const calls = { dynamic: [] as string[], required: [] as Array<[number, string]> };
      callSources(ast, calls);
      // A CommonJS module's `require()` needs the whole module it names.
      for (const [start, source] of calls.required) recs.push({ source, start, whole: true });
      const dyn = calls.dynamic;
      const record = async () => {
        // Rolldown lists a module's static imports in source order, one per module: match them to
        // the sources when the counts agree, else ask the resolver for each.
        const sources = [...new Set([...recs].sort((x, y) => x.start - y.start).map((r) => r.source))];
        const resolved = new Map<string, string | undefined>();
        if (sources.length === info.importedIds.length) sources.forEach((s, i) => resolved.set(s, info.importedIds[i]));
        else {
          for (const s of sources) resolved.set(s, (await this.resolve(s, id))?.id);
        }
        const m: ModuleImports = { named: new Map(), whole: new Set(), reexports: new Map(), stars: [], locals, dynamic: [...info.dynamicallyImportedIds] };
        for (const r of recs) {
          const target = resolved.get(r.source);
          if (!target) continue;
          if (r.whole) m.whole.add(target);
          if (r.named?.length) {
            const set = m.named.get(target) ?? new Set<string>();
            r.named.forEach((n) => set.add(n));
            m.named.set(target, set);
          }
          if (r.reexport) for (const [exported, local] of r.reexport) m.reexports.set(exported, [target, local]);
          if (r.star) m.stars.push(target);
        }
        if (!m.dynamic.length && dyn.length) {
          for (const s of dyn) {
            const d = (await this.resolve(s, id))?.id;
            if (d) m.dynamic.push(d);
          }
        }
        modules.set(id, m);
      };
      pending.push(record());
    },
    async buildEnd() {
      await Promise.all(pending);
    },
  };

  /** Whether `id` exports `name` (itself or by re-export). */
  const provides = (id: string, name: string, seen = new Set<string>()): boolean => {
    const m = modules.get(id);
    if (!m || seen.has(id)) return false;
    seen.add(id);
    return m.locals.has(name) || m.reexports.has(name) || m.stars.some((s) => provides(s, name, seen));
  };
  /** The module that defines `name` as exported by `id`, through `export … from` chains (`*`: that whole module). */
  const owner = (id: string, name: string, depth = 0): [string, string] => {
    const m = modules.get(id);
    if (!m || depth > 50 || name === '*' || m.locals.has(name)) return [id, name];
    const re = m.reexports.get(name);
    if (re) return owner(re[0], re[1], depth + 1);
    const star = m.stars.find((st) => provides(st, name));
    return star ? owner(star, name, depth + 1) : [id, name];
  };
  /** The modules `roots` import, statically and transitively. */
  const reach = (roots: string[]): Set<string> => {
    const seen = new Set<string>();
    const wholes = new Set<string>();
    const stack = [...roots];
    // A module imported as a namespace needs every name it exports, re-exported ones too.
    const takeWhole = (id: string) => {
      if (wholes.has(id)) return;
      wholes.add(id);
      stack.push(id);
      const m = modules.get(id);
      if (!m) return;
      for (const [t, n] of m.reexports.values()) use(t, n);
      m.stars.forEach(takeWhole);
    };
    const use = (dep: string, name: string) => {
      const [id, n] = owner(dep, name);
      if (n === '*') takeWhole(id);
      else stack.push(id);
    };
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const m = modules.get(id);
      if (!m) continue;
      for (const [dep, names] of m.named) for (const n of names) use(dep, n);
      m.whole.forEach(takeWhole);
    }
    return seen;
  };

  let assignment: Map<string, string> | undefined;
  const assign = () => {
    const a = new Map<string, string>();
    const boot = reach([entry]);
    boot.delete(entry);
    for (const id of boot) a.set(id, 'boot');
    const routeRoots = new Set(routes.flatMap((r) => r.roots));
    // Every other screen (a dynamic import target of the shell's own code): who else uses a module.
    const others = new Set<string>();
    for (const m of modules.values()) for (const d of m.dynamic) if (isPlain(d) && !routeRoots.has(d)) others.add(d);
    const usedElsewhere = reach([...others]);
    const reached = routes.map((r) => reach(r.roots));
    for (const [i, route] of routes.entries()) {
      for (const id of reached[i]!) {
        if (a.has(id)) continue;
        // Needed by two of these first loads (the login page and the ticket screen): one file both fetch.
        if (reached.some((other, j) => j !== i && other.has(id))) a.set(id, 'first-common');
        else a.set(id, usedElsewhere.has(id) ? `${route.name}-shared` : route.name);
      }
    }
    return a;
  };

  /** Groups for `build.rolldownOptions.output.codeSplitting.groups`. */
  const group = {
    name: (id: string) => {
      if (!isPlain(id)) return null;
      assignment ??= assign();
      return assignment.get(id) ?? null;
    },
    debugName: 'atende-route-chunks',
    includeDependenciesRecursively: false,
  };
  return { plugin, group };
}
