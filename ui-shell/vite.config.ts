/**
 * The shell: a module-federation host with no static remotes (they are
 * registered at run time from `GET /api/plugins/ui`, see src/shell/plugins.ts),
 * built to `ui-shell/dist` and served by the kernel at `/`.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { routeChunks } from './chunking.ts';
import { hostFederation } from './mf-shared.ts';

/** Sections of the catalogue only the admin screens use (`admin.*`, and `channels.*` of the channel pages). */
const ADMIN_SECTIONS = ['admin', 'channels'];

/**
 * The bundled Portuguese catalogue goes with the entry, but its admin sections
 * (~8 KB gzip) are needed by neither the login page nor the ticket screen:
 * `./locales/pt.json` builds without them and `./locales/pt.json?admin` with
 * only them, which the admin routes load with their screen
 * (`ensureAdminStrings` in src/i18n/index.ts). Other languages are lazy chunks
 * already and stay whole.
 */
function catalogueSections(): Plugin {
  return {
    name: 'atende:catalogue-sections',
    // Before vite's JSON plugin: this hands it the reduced JSON text.
    enforce: 'pre',
    transform(code, id) {
      const [file, query] = id.split('?');
      if (!/[\\/]src[\\/]i18n[\\/]locales[\\/]pt\.json$/.test(file!)) return null;
      const all = Object.entries(JSON.parse(code) as Record<string, unknown>);
      const admin = Object.fromEntries(all.filter(([k]) => ADMIN_SECTIONS.includes(k)));
      // With a query the id is not a `.json` module to Vite: hand over JavaScript.
      if (query === 'admin') return { code: `export default ${JSON.stringify(admin)};`, map: null };
      if (query) return null;
      return { code: JSON.stringify(Object.fromEntries(all.filter(([k]) => !ADMIN_SECTIONS.includes(k)))), map: null };
    },
  };
}

/**
 * Mantine's ScrollArea takes `useMergeRefs` from `@floating-ui/react`; that
 * one import is resolved to `src/ui/merge-refs.ts` (Mantine's own ref merge),
 * so the first screens, which draw scroll areas but no floating element yet,
 * do not download floating-ui (~14 KB gzip; see that file). The check fails
 * the build if ScrollArea ever imports anything else from it.
 */
function scrollAreaRefs(): Plugin {
  const shim = fileURLToPath(new URL('./src/ui/merge-refs.ts', import.meta.url));
  const isScrollArea = (id: string | undefined) => !!id && /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/.test(id);
  return {
    name: 'atende:scroll-area-refs',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!isScrollArea(id)) return null;
      const imports = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']@floating-ui\/react["']/g)].map((m) => m[1]!.trim());
      if (imports.length !== 1 || imports[0] !== 'useMergeRefs') this.error(`Mantine's ScrollArea imports { ${imports.join(' / ')} } from @floating-ui/react: review scrollAreaRefs`);
      return null;
    },
    resolveId(source, importer) {
      return source === '@floating-ui/react' && isScrollArea(importer) ? shim : null;
    },
  };
}

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

/**
 * The first loads in a few files (see chunking.ts): the entry's imports in
 * `boot` (with the ticket screen's first queries, see `prefetchPath`); what
 * the login page and the ticket screen both use in `first-common`; the ticket
 * screen (the agent's whole day: its layout, list and conversation) in
 * `tickets-shared` and `tickets`; the login page in `login-shared` and `login`.
 */
const firstLoads = routeChunks(src('main.tsx'), [
  { name: 'tickets', roots: ['layout/StandaloneLayout.tsx', 'screens/tickets/TicketsScreen.tsx', 'screens/tickets/ChatScreen.tsx'].map(src) },
  { name: 'login', roots: ['screens/Login.tsx'].map(src) },
]);

export default defineConfig({
  base: '/',
  plugins: [catalogueSections(), scrollAreaRefs(), react(), hostFederation(), firstLoads.plugin],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Federation singletons are shipped whole (a remote may use any export):
    // @mantine/core alone is a ~720 KB chunk, which is expected, not a mistake.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // Vite 8 / Rolldown: `manualChunks` is ignored by the federation plugin;
        // these groups rank below its own. Every other screen stays a lazy chunk.
        codeSplitting: { groups: [firstLoads.group] },
      },
    },
  },
});
