import { atom } from 'jotai';

/** One entry of `GET /api/publicSystemColors`: a `{name: value}` map. */
export type SystemColorMap = Record<string, string>;

const COLORS_KEY = 'systemColors';

function readCached(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(COLORS_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * Tenant colours by name (`primary`, `secondary`, …), cached so the next visit
 * paints in the right colour before the server answers.
 */
export const systemColorsAtom = atom<Record<string, string>>(readCached());

/** Persists colours for the next visit. */
export function cacheSystemColors(colors: Record<string, string>): void {
  try {
    localStorage.setItem(COLORS_KEY, JSON.stringify(colors));
  } catch {
    // Caching is an optimisation only.
  }
}

/** The tenant's primary colour, when it defined one. */
export const primaryColorAtom = atom((get) => get(systemColorsAtom).primary);
