import { createTheme, type CSSVariablesResolver, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';

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
export function buildTheme(primary: string | undefined, labels: { close?: string } = {}): MantineThemeOverride {
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
      // Every dialog's close button is named in the user's language (screen readers, axe: button-name).
      Modal: { defaultProps: { radius: 'md', overlayProps: { backgroundOpacity: 0.45, blur: 2 }, closeButtonProps: { 'aria-label': labels.close } }, styles: { title: { fontWeight: 600 } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': labels.close } } },
    },
  });
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const rgb = parseHex(hex);
  if (!rgb) return 0;
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/** The colour mixed with black by `t` (0..1), as #rrggbb. */
const darken = (hex: string, t: number) => toHex(mix(parseHex(hex) ?? [0, 0, 0], [0, 0, 0], t));

/** AA for normal text (WCAG 1.4.3), with a little margin for rounding and anti-aliasing. */
const AA = 4.6;

/** The first of `shades` (then shade 9 darkened step by step) that reads at AA against `background`. */
function readable(palette: readonly string[], from: number, background: string): string {
  for (let i = from; i < 10; i++) if (contrast(palette[i]!, background) >= AA) return palette[i]!;
  for (let k = 1; k <= 10; k++) {
    const c = darken(palette[9]!, k * 0.06);
    if (contrast(c, background) >= AA) return c;
  }
  return '#000000';
}

/**
 * Mantine's default palettes put white text on shade 6 (2:1 for green, 1.6:1
 * for yellow) and shade 9 text on shade 1 for light badges (3.8:1 for green).
 * The buttons, badges and indicators of the product must read at WCAG AA
 * (4.5:1; issue U2): each colour's filled background becomes the first shade
 * white reads on at AA (darkened past shade 9 when none does), and a light
 * variant's text the first that reads on its tint. Helper text (`dimmed`) is a
 * darker grey for the same reason. The tenant's primary colour goes through
 * the same rule, so a light brand colour still gives readable buttons.
 */
export const accessibleColors: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': '#5c636a',
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': '#adadad',
  };
  for (const [name, palette] of Object.entries(theme.colors)) {
    if (name === 'dark' || !palette?.[9] || !parseHex(palette[9])) continue;
    const filledLight = readable(palette, 6, '#ffffff');
    light[`--mantine-color-${name}-filled`] = filledLight;
    light[`--mantine-color-${name}-filled-hover`] = darken(filledLight, 0.1);
    light[`--mantine-color-${name}-outline`] = filledLight;
    light[`--mantine-color-${name}-text`] = filledLight;
    light[`--mantine-color-${name}-light-color`] = readable(palette, 9, palette[1]!);
    const filledDark = readable(palette, 5, '#ffffff');
    dark[`--mantine-color-${name}-filled`] = filledDark;
    dark[`--mantine-color-${name}-filled-hover`] = darken(filledDark, 0.1);
  }
  return { variables: {}, light, dark };
};
