/**
 * Module-federation settings shared by EVERY vite config (the shell and each
 * remote). Keeping them in one module is what guarantees a single React,
 * router, jotai store, Mantine theme, query client and SDK instance at run
 * time: a remote that declared its own list could silently bundle a second
 * React and break hooks, context and atoms in subtle ways.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import type { UserConfig } from 'vite';
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

/** Options common to host and remotes. */
const common = {
  shared: mfShared,
  // Type archives are not used: remotes type-check against the SDK source.
  dts: false,
  // Remotes can be registered at run time only after the shell has booted,
  // so the host must not wait for remote entries to negotiate versions.
  shareStrategy: 'loaded-first',
} as const;

/** The shell's federation plugin (a host without static remotes). */
export function hostFederation() {
  return federation({
    ...common,
    name: 'atende_shell',
    remotes: {},
    // The host publishes the federation runtime once per page; remotes reuse it
    // instead of each bundling their own copy (~19 KB gzip per remote).
    experiments: { provideExternalRuntime: true },
  });
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
      federation({
        ...common,
        name: remoteName(id),
        filename: 'remoteEntry.js',
        exposes: { [REMOTE_EXPOSE]: './src/index.tsx' },
        manifest: true,
        experiments: { externalRuntime: true },
      }),
    ],
    build: { outDir: resolve(root, 'dist'), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 800 },
  };
}
