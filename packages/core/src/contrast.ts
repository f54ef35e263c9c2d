/**
 * WCAG 2.x contrast, as the spec defines it (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio),
 * so the web theme can prove its text colours and pick readable text on any project colour.
 */

/** Colours as `#rgb` or `#rrggbb`; anything else throws, so a typo cannot pass as "readable". */
export function parseHex(color: string): [number, number, number] {
  const hex = color.trim().replace(/^#/, '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a hex colour: ${color}`);
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function toHex(rgb: [number, number, number]): string {
  return `#${rgb
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Relative luminance: 0 for black, 1 for white. */
export function relativeLuminance(color: string): number {
  const [r, g, b] = parseHex(color).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** From 1 (same colour) to 21 (black on white); order of the two colours does not matter. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG 2.2 AA for normal-size text. */
export const AA_TEXT = 4.5;

export const DARK_TEXT = '#1a1b1e';
export const LIGHT_TEXT = '#ffffff';

/** Dark or white text, whichever reads better on `background` (a project colour, a badge). */
export function readableTextColor(background: string): typeof DARK_TEXT | typeof LIGHT_TEXT {
  return contrastRatio(DARK_TEXT, background) >= contrastRatio(LIGHT_TEXT, background) ? DARK_TEXT : LIGHT_TEXT;
}

/**
 * `color` darkened in small steps toward black until it reaches `ratio` against every one of
 * `backgrounds`; returned unchanged when it already does.
 */
export function darkenToContrast(color: string, backgrounds: string[], ratio = AA_TEXT): string {
  let current = color;
  for (let step = 0; step < 100; step++) {
    if (backgrounds.every((bg) => contrastRatio(current, bg) >= ratio)) return current;
    current = toHex(parseHex(current).map((v) => v * 0.95) as [number, number, number]);
  }
  return '#000000';
}

/**
 * `color` lightened in small steps toward white until it reaches `ratio` against every one of
 * `backgrounds` (the dark scheme's counterpart of darkenToContrast); unchanged when it already does.
 */
export function lightenToContrast(color: string, backgrounds: string[], ratio = AA_TEXT): string {
  let current = color;
  for (let step = 0; step < 100; step++) {
    if (backgrounds.every((bg) => contrastRatio(current, bg) >= ratio)) return current;
    current = toHex(parseHex(current).map((v) => v + (255 - v) * 0.05) as [number, number, number]);
  }
  return '#ffffff';
}

/** `color` mixed with black by `amount` (0 to 1), as Mantine's darken() does, as a hex colour. */
export function shadeHex(color: string, amount: number): string {
  return toHex(parseHex(color).map((v) => v * (1 - amount)) as [number, number, number]);
}
