import fs from 'node:fs';
import path from 'node:path';

/**
 * Built UI files the server needs, relative to the install root, that are
 * missing: the shell's index.html and the federation manifest of each UI
 * plugin (`ui-plugins/<id>` with a package.json). The kernel serves only what
 * exists, so a missing build shows up as blank screens, not as an error.
 */
export function missingUiBuilds(rootDir: string): string[] {
  const missing: string[] = [];
  if (!fs.existsSync(path.join(rootDir, 'ui-shell', 'dist', 'index.html'))) missing.push('ui-shell/dist/index.html');
  const remotes = path.join(rootDir, 'ui-plugins');
  const ids = fs.existsSync(remotes) ? fs.readdirSync(remotes, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : [];
  for (const id of ids.sort()) {
    if (!fs.existsSync(path.join(remotes, id, 'package.json'))) continue;
    if (!fs.existsSync(path.join(remotes, id, 'dist', 'mf-manifest.json'))) missing.push(`ui-plugins/${id}/dist/mf-manifest.json`);
  }
  return missing;
}

/** How many UI plugins the install has (for the doctor's summary). */
export function uiPluginCount(rootDir: string): number {
  const remotes = path.join(rootDir, 'ui-plugins');
  if (!fs.existsSync(remotes)) return 0;
  return fs.readdirSync(remotes, { withFileTypes: true }).filter((e) => e.isDirectory() && fs.existsSync(path.join(remotes, e.name, 'package.json'))).length;
}
