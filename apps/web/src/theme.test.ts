import { DEFAULT_THEME } from '@mantine/core';
import { AA_TEXT, contrastRatio } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import {
  BACKGROUNDS,
  cssVariablesResolver,
  DARK_BACKGROUNDS,
  DARK_DIMMED_BACKGROUNDS,
  DARK_SURFACES,
  SURFACES,
  theme,
} from './theme';

const { light, dark } = cssVariablesResolver({ ...DEFAULT_THEME, ...theme } as typeof DEFAULT_THEME);
const names = Object.keys(DEFAULT_THEME.colors).filter((name) => name !== 'dark');

/** Every pair that falls below AA, named, so a failure says which colour on which background. */
function failures(vars: Record<string, string>, pairs: [string, string[]][]): string[] {
  const out: string[] = [];
  for (const [variable, backgrounds] of pairs) {
    const color = vars[variable] ?? variable;
    for (const bg of backgrounds) {
      const background = vars[bg] ?? bg;
      const ratio = contrastRatio(color, background);
      if (ratio < AA_TEXT) out.push(`${variable} ${color} on ${bg} ${background}: ${ratio.toFixed(2)}`);
    }
  }
  return out;
}

describe('the theme holds text to WCAG 2.2 AA (4.5:1)', () => {
  it('in the light scheme: dimmed text, links, coloured text and filled buttons', () => {
    const pairs: [string, string[]][] = [
      ['--mantine-color-dimmed', BACKGROUNDS],
      ['--mantine-color-anchor', BACKGROUNDS],
    ];
    for (const name of names) {
      const own = [DEFAULT_THEME.colors[name]?.[0] ?? '', DEFAULT_THEME.colors[name]?.[1] ?? ''];
      pairs.push([`--mantine-color-${name}-text`, ['#ffffff', SURFACES.light.page, ...own]]);
      pairs.push([`--mantine-color-${name}-outline`, ['#ffffff', SURFACES.light.page]]);
      pairs.push([`--sundial-color-${name}-on-filled`, [`--mantine-color-${name}-filled`]]);
      pairs.push([`--sundial-color-${name}-on-filled`, [`--mantine-color-${name}-filled-hover`]]);
    }
    expect(failures(light, pairs)).toEqual([]);
  });

  it('in the dark scheme: on the page, the body, cards, hovers and every light fill', () => {
    // Mantine's own dark text and Sundial's surfaces are among the backgrounds proven here.
    expect(DARK_SURFACES).toEqual(expect.arrayContaining([SURFACES.dark.page, SURFACES.dark.surface]));
    const pairs: [string, string[]][] = [
      ['--mantine-color-dimmed', DARK_DIMMED_BACKGROUNDS],
      ['--mantine-color-anchor', DARK_BACKGROUNDS],
      ['--mantine-color-error', DARK_SURFACES],
      [DEFAULT_THEME.colors.dark[0], DARK_BACKGROUNDS],
    ];
    for (const name of names) {
      const fills = [`--mantine-color-${name}-light`, `--mantine-color-${name}-light-hover`];
      pairs.push([`--mantine-color-${name}-text`, [...DARK_SURFACES, ...fills]]);
      pairs.push([`--mantine-color-${name}-light-color`, [...DARK_SURFACES, ...fills]]);
      pairs.push([`--mantine-color-${name}-outline`, DARK_SURFACES]);
      pairs.push([`--sundial-color-${name}-on-filled`, [`--mantine-color-${name}-filled`]]);
      pairs.push([`--sundial-color-${name}-on-filled`, [`--mantine-color-${name}-filled-hover`]]);
    }
    expect(failures(dark, pairs)).toEqual([]);
  });

  it('changes what Mantine gets wrong in the dark scheme, and only as far as needed', () => {
    expect(contrastRatio(DEFAULT_THEME.colors.dark[2], DEFAULT_THEME.colors.dark[7])).toBeLessThan(AA_TEXT);
    const dimmed = dark['--mantine-color-dimmed'] ?? '';
    expect(contrastRatio(dimmed, DEFAULT_THEME.colors.dark[7])).toBeLessThan(8);
    // Dimmed stays quieter than body text.
    expect(contrastRatio(dimmed, DEFAULT_THEME.colors.dark[7])).toBeLessThan(
      contrastRatio(DEFAULT_THEME.colors.dark[0], DEFAULT_THEME.colors.dark[7]),
    );
    // The scheme's surfaces really are dark and light.
    expect(contrastRatio(SURFACES.light.surface, SURFACES.dark.surface)).toBeGreaterThan(10);
  });

  it('lets Mantine stop its transitions when the system asks for reduced motion', () => {
    expect(theme.respectReducedMotion).toBe(true);
  });
});
