/**
 * The shell: a module-federation host with no static remotes (they are
 * registered at run time from `GET /api/plugins/ui`, see src/shell/plugins.ts),
 * built to `ui-shell/dist` and served by the kernel at `/`.
 */
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
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

export default defineConfig({
  base: '/',
  plugins: [catalogueSections(), react(), hostFederation()],
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
        // these groups rank below its own. Every screen stays a lazy chunk.
        codeSplitting: {
          groups: [
            // The login screen and its layout: one request, not two. Signup and reset (plan
            // picker, captcha) are chunks of their own: the login page does not download them.
            // Only the matched modules move: their dependencies (the SDK, Mantine…) stay where they are.
            { name: 'auth', test: /[\\/]src[\\/]screens[\\/](auth[\\/]AuthLayout|Login)/, includeDependenciesRecursively: false },
            // The SDK's heavier components (tables, date inputs, dialogs) and their Mantine
            // dependencies stay out of the SDK chunk the entry imports: no first screen uses them.
            { name: 'sdk-table', test: /[\\/]src[\\/]sdk[\\/]components[\\/]DataTable\.tsx/, includeDependenciesRecursively: false },
            { name: 'sdk-dates', test: /[\\/]src[\\/]sdk[\\/]components[\\/]DateInputs\.tsx/, includeDependenciesRecursively: false },
            { name: 'sdk-confirm', test: /[\\/]src[\\/]sdk[\\/]components[\\/]ConfirmDialog\.tsx/, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
