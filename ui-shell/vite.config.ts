/**
 * The shell: a module-federation host with no static remotes (they are
 * registered at run time from `GET /api/plugins/ui`, see src/shell/plugins.ts),
 * built to `ui-shell/dist` and served by the kernel at `/`.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { hostFederation } from './mf-shared.ts';

export default defineConfig({
  base: '/',
  plugins: [react(), hostFederation()],
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
