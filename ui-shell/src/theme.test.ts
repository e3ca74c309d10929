import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { accessibleColors, buildTheme, contrast } from './theme.ts';

const vars = (primary?: string) => accessibleColors(mergeMantineTheme(DEFAULT_THEME, buildTheme(primary)));

describe('accessible colours (WCAG AA, issue U2)', () => {
  it('white reads at 4.5:1 or more on every filled colour, light and dark, and light badges read on their tint', () => {
    for (const primary of [undefined, '#25d366', '#ffd43b']) {
      const { light, dark } = vars(primary);
      const theme = mergeMantineTheme(DEFAULT_THEME, buildTheme(primary));
      for (const name of Object.keys(theme.colors).filter((n) => n !== 'dark')) {
        expect(contrast(light[`--mantine-color-${name}-filled`]!, '#ffffff'), `${name} filled (light), primary ${primary}`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(dark[`--mantine-color-${name}-filled`]!, '#ffffff'), `${name} filled (dark), primary ${primary}`).toBeGreaterThanOrEqual(4.5);
        expect(contrast(light[`--mantine-color-${name}-light-color`]!, theme.colors[name]![1]!), `${name} light badge`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('helper text is a grey that reads on white and on the ticket screen tints', () => {
    const { light, dark } = vars();
    for (const bg of ['#ffffff', '#f0f2f5', '#efeae2', '#dce1f9']) expect(contrast(light['--mantine-color-dimmed']!, bg)).toBeGreaterThanOrEqual(4.5);
    for (const bg of ['#242424', '#2e2e2e', '#1f1f1f', '#3b3b3b']) expect(contrast(dark['--mantine-color-dimmed']!, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps the first shade that reads: blue filled is shade 8, a dark brand stays itself', () => {
    const { light } = vars('#1c3faa');
    expect(light['--mantine-color-blue-filled']).toBe(DEFAULT_THEME.colors.blue[8]);
    expect(light['--mantine-color-brand-filled']).toBe('#1c3faa');
  });
});
