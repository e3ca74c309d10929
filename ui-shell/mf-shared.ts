/**
 * Module-federation settings shared by EVERY vite config (the shell and each
 * remote). Keeping them in one module is what guarantees a single React,
 * router, jotai store, Mantine theme, query client and SDK instance at run
 * time: a remote that declared its own list could silently bundle a second
 * React and break hooks, context and atoms in subtle ways.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { parseAst, type Plugin, type UserConfig } from 'vite';
import { REMOTE_EXPOSE, remoteName } from './src/sdk/remote-name.ts';

const shellDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(shellDir, '..');

/** Packages that must exist once per page. */
export const SINGLETONS = [
  'react',
  'react-dom',
  'react-router',
  'react-router-dom',
  'jotai',
  '@mantine/core',
  '@mantine/hooks',
  '@mantine/notifications',
  '@tanstack/react-query',
  'react-i18next',
  'i18next',
  '@mantine/form',
  // Plugin contracts (`@atende/plugin-<id>/contract`) carry zod schemas the remotes validate forms with: one copy per page.
  'zod',
  '@atende/ui-shell/sdk',
] as const;

function versionOf(pkg: string): string {
  // The SDK is versioned with the shell package; everything else comes from
  // the root node_modules (remotes have no dependencies of their own).
  const file = pkg === '@atende/ui-shell/sdk'
    ? resolve(shellDir, 'package.json')
    : resolve(repoRoot, 'node_modules', pkg, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

type SharedConfig = { singleton: true; version: string; requiredVersion: string };

/** The `shared` option for `federation()`. */
export const mfShared: Record<string, SharedConfig> = Object.fromEntries(
  SINGLETONS.map((name) => {
    const version = versionOf(name);
    return [name, { singleton: true, version, requiredVersion: `^${version}` }];
  }),
);

/**
 * A remote's view of the singletons: `import: false`, so it bundles no
 * fallback copy of them. The shell provides every singleton before any remote
 * loads, so a fallback would never run — and building one made each remote a
 * 4 MB, CPU-heavy build (the first `npm start` builds them all), and could let
 * a remote win the share scope with its own copy if remotes loaded at once.
 */
const remoteShared = Object.fromEntries(Object.entries(mfShared).map(([name, cfg]) => [name, { ...cfg, import: false as const }]));

/** Options common to host and remotes. */
const common = {
  shared: mfShared,
  // Type archives are not used: remotes type-check against the SDK source.
  dts: false,
  // Remotes can be registered at run time only after the shell has booted,
  // so the host must not wait for remote entries to negotiate versions.
  shareStrategy: 'loaded-first',
  // The plugin stops waiting for its shared-import analysis after 10 s without
  // a parsed module and builds with what it has ("some shared dependencies may
  // be missing"); on a busy 2-core machine that happens. Wait for real.
  moduleParseIdleTimeout: 180,
} as const;

/** Whether an import specifier names a singleton or one of its subpaths (`react/jsx-runtime`), not a stylesheet. */
function isSingletonImport(source: string): boolean {
  if (/\.css(\?|$)/.test(source)) return false;
  return SINGLETONS.some((name) => source === name || source.startsWith(`${name}/`));
}

/** Modules the federation plugin generates (share wrappers, fallbacks, the host init): they keep its own resolution. */
function isFederationModule(id: string): boolean {
  return id.startsWith('\0') || id.includes('__mf__virtual') || id.includes('virtual:mf') || id.includes('__prebuild__')
    || id.includes('__loadShare__') || id.includes('localSharedImportMap') || id.includes('hostAutoInit') || id.includes('__H_A_I__');
}

/**
 * The shell imports its singletons straight from their packages, tree-shaken
 * and split per screen like any other dependency, instead of through the
 * federation's `loadShare` wrapper (which hands over the whole package: all of
 * Mantine, ~220 KB gzip, before the login page can paint).
 *
 * The singleton rule still holds: the host keeps PROVIDING every singleton to
 * the share scope (its `__prebuild__` fallback, now a lazy chunk fetched the
 * first time a remote asks). That fallback imports the very same module files
 * from the same build, so a remote's `@mantine/core` is the module instance
 * whose context the shell's MantineProvider filled, one React, one SDK. The
 * host registers its shares at boot, before any remote, and the runtime keeps
 * the first provider of a version, so a remote's own fallback is never chosen.
 */
function hostDirectSingletons(): Plugin {
  return {
    name: 'atende:host-direct-singletons',
    enforce: 'pre',
    apply: 'build',
    async resolveId(source, importer, options) {
      if (!importer || !isSingletonImport(source) || isFederationModule(importer)) return null;
      // The flag is the federation plugin's own "plain resolution" marker
      // (what its tree-shaking graph uses): it then leaves the import alone.
      return this.resolve(source, importer, { ...options, skipSelf: true, custom: { ...options.custom, __mfTreeShakingGraph: true } });
    },
  };
}

/**
 * The shell's own code imports SDK members from the modules that define them,
 * not through the SDK's index (`@atende/ui-shell/sdk`).
 *
 * Why: Rolldown's code splitting counts every module re-exported by the index
 * as reachable from each module that imports the index, used or not. Through
 * the SDK index that made the table, date-input and confirm-dialog components
 * and their Mantine dependencies (Pagination, Table, Select, Combobox, Modal,
 * Popover…) part of the chunks the entry loads, on the login page and on every
 * first load. Importing `api` from `src/sdk/api.ts` instead of from the index
 * leaves only what is really used on the path.
 *
 * The singleton rule is untouched: the index re-exports those very modules,
 * and remotes still receive the index (the host's share), so a remote's
 * `api` or `sessionAtom` is the same module instance the shell uses.
 */
function hostDirectSdk(): Plugin {
  const sdkIndex = resolve(shellDir, 'src/sdk/index.ts');
  const srcDir = resolve(shellDir, 'src');
  // Exported name → [defining module, its local name], read from the index's `export { … } from '…'` lines.
  let owners: Map<string, [string, string]> | undefined;
  const readOwners = () => {
    const map = new Map<string, [string, string]>();
    const ast = parseAst(readFileSync(sdkIndex, 'utf8'), { lang: 'ts' });
    for (const node of ast.body) {
      if (node.type !== 'ExportNamedDeclaration' || !node.source || node.exportKind === 'type') continue;
      const file = resolve(dirname(sdkIndex), String(node.source.value));
      for (const s of node.specifiers) {
        if (s.exportKind === 'type') continue;
        const name = (n: typeof s.local) => (n.type === 'Identifier' ? n.name : String(n.value));
        map.set(name(s.exported), [file, name(s.local)]);
      }
    }
    return map;
  };
  return {
    name: 'atende:host-direct-sdk',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!file.startsWith(srcDir) || file === sdkIndex || !/\.[cm]?[jt]sx?$/.test(file) || !code.includes('@atende/ui-shell/sdk')) return null;
      owners ??= readOwners();
      const ast = parseAst(code, { lang: /x$/.test(file) ? 'tsx' : 'ts' }, file);
      const edits: Array<{ start: number; end: number; text: string }> = [];
      for (const node of ast.body) {
        if (node.type !== 'ImportDeclaration' || node.source.value !== '@atende/ui-shell/sdk' || node.importKind === 'type') continue;
        // Default or namespace imports keep the index (there are none today).
        if (node.specifiers.some((s) => s.type !== 'ImportSpecifier')) continue;
        const byFile = new Map<string, string[]>();
        const unknown: string[] = [];
        for (const s of node.specifiers) {
          if (s.type !== 'ImportSpecifier' || s.importKind === 'type') continue;
          const imported = s.imported.type === 'Identifier' ? s.imported.name : String(s.imported.value);
          const owner = owners.get(imported);
          if (!owner) {
            unknown.push(code.slice(s.start, s.end));
            continue;
          }
          const spec = owner[1] === s.local.name ? s.local.name : `${owner[1]} as ${s.local.name}`;
          byFile.set(owner[0], [...(byFile.get(owner[0]) ?? []), spec]);
        }
        const lines = [...byFile].map(([f, specs]) => `import { ${specs.join(', ')} } from ${JSON.stringify(f)};`);
        if (unknown.length) lines.push(`import { ${unknown.join(', ')} } from '@atende/ui-shell/sdk';`);
        // Same number of lines as the statement replaced, so positions below it do not move.
        const original = code.slice(node.start, node.end);
        const newlines = original.split('\n').length - 1;
        edits.push({ start: node.start, end: node.end, text: lines.join(' ') + '\n'.repeat(newlines) });
      }
      if (!edits.length) return null;
      let out = code;
      for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
      return { code: out, map: null };
    },
  };
}

/**
 * What the shell hands remotes from `react-router` / `react-router-dom`:
 * the hooks and components a plugin screen uses inside the shell's router.
 * React Router ships as one large module; providing every export (framework
 * mode, server rendering, cookies and sessions, RSC) made all of it live, so
 * none of it could be tree-shaken out of the shell's first load (~61 KB gzip).
 * A remote importing a name outside this list fails its build
 * (`remoteRouterSurfaceCheck`), rather than getting `undefined` at run time.
 */
export const ROUTER_SURFACE = [
  'Link', 'NavLink', 'Navigate', 'Outlet',
  'useNavigate', 'useParams', 'useLocation', 'useSearchParams', 'useOutletContext', 'useMatch', 'useMatches',
  'useHref', 'useResolvedPath', 'useInRouterContext', 'useNavigation', 'useRevalidator', 'useBlocker', 'useBeforeUnload',
  'useLoaderData', 'useRouteError', 'isRouteErrorResponse', 'generatePath', 'matchPath', 'createSearchParams', 'redirect',
] as const;

const isRouterShare = (id: string) => id.includes('__prebuild__') && /__prebuild__react_mf_2_router(_mf_2_dom)?__prebuild__/.test(id);

/**
 * Narrows the host's share of the router to `ROUTER_SURFACE`. The federation
 * plugin generates its share module as `import * as ns` and one
 * `const __mf_N = ns["Name"]` per export of the package; this replaces it with
 * named imports of the listed names, so the rest of the package is dropped
 * from the build.
 */
function hostCuratedRouter(): Plugin {
  return {
    name: 'atende:host-curated-router',
    apply: 'build',
    transform(code, id) {
      if (!isRouterShare(id)) return null;
      const source = /import \* as __mfPrebuildNamespace from ("[^"]+");/.exec(code)?.[1];
      const names = [...code.matchAll(/^\s*const __mf_\d+ = __mfPrebuildExports\["([^"]+)"\];\s*$/gm)].map((m) => m[1]!);
      if (!source || !names.length) this.error(`router share ${id} has an unexpected shape: @module-federation/vite changed, review hostCuratedRouter`);
      const missing = ROUTER_SURFACE.filter((n) => !names.includes(n));
      if (missing.length) this.error(`router share ${id} lacks ${missing.join(', ')}`);
      // Named imports, not the namespace: a namespace read by computed keys keeps every export of the package.
      return {
        code: [
          `import { ${ROUTER_SURFACE.map((n) => `${n} as __r_${n}`).join(', ')} } from ${source};`,
          `export { ${ROUTER_SURFACE.map((n) => `__r_${n} as ${n}`).join(', ')} };`,
          // The plugin's default export is the package namespace; remotes read named exports first, so the same set will do.
          `export default { ${ROUTER_SURFACE.map((n) => `${n}: __r_${n}`).join(', ')} };`,
        ].join('\n'),
        map: null,
      };
    },
  };
}

/**
 * A remote's imports from the router must stay within `ROUTER_SURFACE` (what
 * the shell provides): checked in its sources at build time.
 */
function remoteRouterSurfaceCheck(): Plugin {
  const allowed = new Set<string>(ROUTER_SURFACE);
  return {
    name: 'atende:remote-router-surface',
    apply: 'build',
    transform(code, id) {
      if (id.includes('node_modules') || id.startsWith('\0') || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0]!)) return null;
      for (const m of code.matchAll(/import\s+([^;]*?)\s+from\s+['"](react-router(?:-dom)?)['"]/g)) {
        const clause = m[1]!.trim();
        if (clause.startsWith('type ')) continue;
        const named = /^\{([^}]*)\}$/.exec(clause);
        if (!named) this.error(`${id}: only named imports from ${m[2]} are shared with remotes (found \`import ${clause}\`)`);
        for (const spec of named![1]!.split(',').map((x) => x.trim()).filter(Boolean)) {
          if (spec.startsWith('type ')) continue;
          const name = spec.split(/\s+as\s+/)[0]!;
          if (!allowed.has(name)) this.error(`${id}: \`${name}\` from ${m[2]} is not shared with remotes; add it to ROUTER_SURFACE in ui-shell/mf-shared.ts`);
        }
      }
      return null;
    },
  };
}

/** Name of the page-global function that initialises the federation host (see `hostLazyInit`). */
export const FEDERATION_INIT_GLOBAL = '__atendeFederationInit';

/**
 * The federation runtime (~30 KB gzip: runtime, host `remoteEntry`, share
 * map) is only needed to load remotes, which happens after login, once the
 * first screen is up. The plugin's HTML bootstrap awaits it before the app
 * may even start; this rewrites that bootstrap so the app starts at once and
 * the same init runs on first call of `globalThis.__atendeFederationInit()`
 * (src/shell/plugins.ts calls it before registering remotes), and drops the
 * HTML's modulepreload links to files the app's entry does not import.
 */
function hostLazyInit(): Plugin {
  return {
    name: 'atende:host-lazy-federation-init',
    enforce: 'post',
    apply: 'build',
    generateBundle(_options, bundle) {
      const bootName = Object.keys(bundle).find((f) => /(^|\/)mf-entry-bootstrap-[^/]*\.js$/.test(f));
      const boot = bootName ? bundle[bootName] : undefined;
      if (!boot || boot.type !== 'asset') this.error('host bootstrap not found: @module-federation/vite changed, review hostLazyInit');
      const code = String(boot.source);
      // `(async () => { <init> })().then(() => __mfImport("./index-….js"));`
      const m = /\(async \(\) => \{([\s\S]*)\}\)\(\)\.then\(\(\) => (__mfImport\("[^"]+"\))\);\s*$/.exec(code);
      if (!m) this.error('host bootstrap has an unexpected shape: @module-federation/vite changed, review hostLazyInit');
      boot.source = `${code.slice(0, m.index)}let __atendeInit;
globalThis.${FEDERATION_INIT_GLOBAL} = () => (__atendeInit ??= (async () => {${m[1]}})());
${m[2]};
`;
      const entryFile = join(dirname(bootName!), /"([^"]+)"/.exec(m[2])![1]!).replaceAll('\\', '/');
      const entry = bundle[entryFile];
      if (!entry || entry.type !== 'chunk') this.error(`host entry ${entryFile} not in the bundle`);
      // Files the entry needs before it runs: its static import closure.
      const needed = new Set<string>();
      const visit = (file: string) => {
        if (needed.has(file)) return;
        needed.add(file);
        const chunk = bundle[file];
        if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      for (const html of Object.values(bundle)) {
        if (html.type !== 'asset' || !html.fileName.endsWith('.html')) continue;
        html.source = String(html.source).replace(/<link rel="modulepreload"[^>]*href="\/([^"]+)"[^>]*>/g, (tag, file: string) => (needed.has(file) ? tag : ''));
      }
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `.br` and `.gz` next to every text asset of the build, at maximum
 * compression: the kernel serves them with `Content-Encoding` to browsers that
 * accept it (core/src/app.ts), so nothing is compressed per request and
 * users get brotli's ~15 % over gzip. Kept only when smaller than the file.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'atende:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files: string[] = [];
      const walk = async (dir: string) => {
        for (const e of await readdir(dir, { withFileTypes: true })) {
          const full = join(dir, e.name);
          if (e.isDirectory()) await walk(full);
          else if (/\.(m?js|css|html|svg|json|map)$/.test(e.name)) files.push(full);
        }
      };
      await walk(outDir);
      await Promise.all(files.map(async (file) => {
        const body = await readFile(file);
        const [br, gz] = await Promise.all([
          brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
          gzipAsync(body, { level: 9 }),
        ]);
        if (br.length < body.length) await writeFile(`${file}.br`, br);
        if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
      }));
    },
  };
}

/** The shell's federation plugins (a host without static remotes). */
export function hostFederation() {
  return [hostDirectSdk(), hostDirectSingletons(), hostCuratedRouter(), federation({
    ...common,
    name: 'atende_shell',
    remotes: {},
    // The host publishes the federation runtime once per page; remotes reuse it
    // instead of each bundling their own copy (~19 KB gzip per remote).
    experiments: { provideExternalRuntime: true },
  }), hostLazyInit(), precompress()];
}

/**
 * Complete vite config of a UI plugin remote `ui-plugins/<id>`: served by the
 * kernel at `/plugins/<id>/`, exposing `./plugin` (its `src/index.tsx`,
 * which default-exports `defineUiPlugin(...)`) and an `mf-manifest.json`.
 */
export function remoteViteConfig(id: string): UserConfig {
  const root = resolve(repoRoot, 'ui-plugins', id);
  return {
    root,
    base: `/plugins/${id}/`,
    plugins: [
      react(),
      remoteRouterSurfaceCheck(),
      federation({
        ...common,
        shared: remoteShared,
        name: remoteName(id),
        filename: 'remoteEntry.js',
        exposes: { [REMOTE_EXPOSE]: './src/index.tsx' },
        manifest: true,
        experiments: { externalRuntime: true },
      }),
      precompress(),
    ],
    build: { outDir: resolve(root, 'dist'), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 800 },
  };
}
