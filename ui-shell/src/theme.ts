import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';

/** Atende's own primary, used until (or unless) the tenant defines one. */
export const DEFAULT_PRIMARY = '#3b5bdb';

function parseHex(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? m[1]!.split('').map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

const toHex = (rgb: number[]) => `#${rgb.map((v) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, '0')).join('')}`;
const mix = (a: number[], b: number[], t: number) => a.map((v, i) => v + (b[i]! - v) * t);

/**
 * Ten shades around the tenant colour: index 6 is the colour itself (Mantine's
 * light primary shade), lighter shades mix in white, darker ones black.
 */
export function paletteFrom(hex: string): MantineColorsTuple | null {
  const base = parseHex(hex);
  if (!base) return null;
  const white = [255, 255, 255];
  const black = [0, 0, 0];
  const lighter = [0.92, 0.82, 0.66, 0.5, 0.34, 0.16].map((t) => toHex(mix(base, white, t)));
  const darker = [0.14, 0.27, 0.4].map((t) => toHex(mix(base, black, t)));
  return [...lighter, toHex(base), ...darker] as unknown as MantineColorsTuple;
}

/** The Mantine theme: tenant primary palette, system font, calm radii. */
export function buildTheme(primary: string | undefined): MantineThemeOverride {
  const palette = paletteFrom(primary ?? DEFAULT_PRIMARY) ?? paletteFrom(DEFAULT_PRIMARY)!;
  return createTheme({
    primaryColor: 'brand',
    primaryShade: { light: 6, dark: 5 },
    colors: { brand: palette },
    fontFamily: "Inter, 'Segoe UI Variable', 'Segoe UI', system-ui, -apple-system, Roboto, 'Helvetica Neue', Arial, sans-serif",
    headings: { fontFamily: "Inter, 'Segoe UI Variable', 'Segoe UI', system-ui, -apple-system, Roboto, 'Helvetica Neue', Arial, sans-serif", fontWeight: '700' },
    defaultRadius: 'md',
    cursorType: 'pointer',
    components: {
      Button: { defaultProps: { radius: 'md' } },
      TextInput: { defaultProps: { radius: 'md' } },
      PasswordInput: { defaultProps: { radius: 'md' } },
      Modal: { defaultProps: { radius: 'md', overlayProps: { backgroundOpacity: 0.45, blur: 2 } }, styles: { title: { fontWeight: 600 } } },
    },
  });
}
