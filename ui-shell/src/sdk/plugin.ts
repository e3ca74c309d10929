import i18next from 'i18next';
import { atom } from 'jotai';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Zones of the shell where remotes can mount widgets, with the props each
 * zone passes. Adding a zone is a change of this contract.
 */
export interface WidgetZoneProps {
  /** Right-hand contact panel of the ticket screen. */
  'ticket.sidebar': { ticketId: number; contactId?: number };
  /** Action area of the ticket header. */
  'ticket.header': { ticketId: number };
  /** Cards on the dashboard (`/home`). */
  'dashboard.cards': Record<string, never>;
  /** Extra items in the main layout header. */
  'layout.header': Record<string, never>;
}
export type WidgetZone = keyof WidgetZoneProps;

/** A screen a remote provides for one of the spec's routes. */
export interface UiPluginRoute {
  /** The hash route path exactly as declared in the shell's route table (e.g. `/configuracoes/motivos`). */
  path: string;
  /** Either a ready element… */
  element?: ReactNode;
  /** …or a lazily loaded screen (preferred: keeps the remote's entry tiny). */
  lazy?: () => Promise<{ default: ComponentType }>;
  /** Menu key guarding the route, when it differs from the shell table's. */
  menu?: string;
}

/** What a remote default-exports. */
export interface UiPluginDefinition {
  /** Same id as the server plugin (`plugins/<id>`), kebab-case. */
  id: string;
  routes: UiPluginRoute[];
  widgets?: { [Z in WidgetZone]?: ComponentType<WidgetZoneProps[Z]> };
  /**
   * The remote's own strings by language (`pt`, `en`, `es`, …), registered
   * as the i18next namespace `<id>`; read them with `usePluginTranslation(id)`.
   */
  locales?: Partial<Record<string, Record<string, string>>>;
}

const ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Declares a UI plugin. Validates the definition at load time so a malformed
 * remote fails loudly in its own error box instead of half-working.
 */
export function defineUiPlugin(def: UiPluginDefinition): UiPluginDefinition {
  if (!ID_RE.test(def.id)) throw new Error(`UI plugin id "${def.id}" must be kebab-case`);
  for (const r of def.routes) {
    if (!r.path.startsWith('/')) throw new Error(`UI plugin ${def.id}: route "${r.path}" must start with "/"`);
    if ((r.element === undefined) === (r.lazy === undefined)) {
      throw new Error(`UI plugin ${def.id}: route "${r.path}" needs exactly one of element or lazy`);
    }
  }
  return Object.freeze({ ...def, routes: [...def.routes] });
}

/** Registers a plugin's strings as its own i18next namespace. */
export function registerPluginLocales(def: UiPluginDefinition): void {
  for (const [lng, strings] of Object.entries(def.locales ?? {})) {
    if (strings) i18next.addResourceBundle(lng.toLowerCase(), def.id, strings, true, true);
  }
}

/**
 * `t` for a remote: looks in the remote's namespace first, then (through the
 * shell's `fallbackNS`) in the shell's catalogue, so `t('common.save')` works
 * from a plugin too.
 */
export function usePluginTranslation(pluginId: string) {
  return useTranslation([pluginId, 'translation']);
}

export interface UiPluginsState {
  status: 'idle' | 'loading' | 'ready';
  plugins: UiPluginDefinition[];
  /** Remotes that failed to load, with the reason (shown in their routes' error boxes). */
  failed: Array<{ id: string; error: string }>;
}

/** The remotes loaded for the current user (filled by the shell). */
export const uiPluginsAtom = atom<UiPluginsState>({ status: 'idle', plugins: [], failed: [] });
