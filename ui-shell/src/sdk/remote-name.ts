/**
 * The module-federation container name of a UI plugin remote. Shared by the
 * build (`mf-shared.ts`) and the shell's run-time loader so both always agree:
 * plugin ids are kebab-case, container names must be valid identifiers.
 */
export function remoteName(pluginId: string): string {
  return `atende_${pluginId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** The module every remote exposes: its `defineUiPlugin(...)` default export. */
export const REMOTE_EXPOSE = './plugin';
