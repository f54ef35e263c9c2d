import { describe, expect, it } from 'vitest';
import {
  AA_TEXT,
  contrastRatio,
  DARK_TEXT,
  darkenToContrast,
  LIGHT_TEXT,
  lightenToContrast,
  parseHex,
  readableTextColor,
  shadeHex,
} from './contrast.js';

describe('WCAG contrast', () => {
  it('gives 21:1 for black on white and 1:1 for a colour on itself, either way round', () => {
    expect(contrastRatio('#000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#228be6', '#228be6')).toBe(1);
  });

  it('matches the ratios the accessibility audit reported', () => {
    // Mantine's dimmed grey on white, and its blue link on the trial banner's yellow.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(contrastRatio('#228be6', '#fff3bf')).toBeCloseTo(3.19, 2);
  });

  it('rejects what is not a hex colour', () => {
    expect(() => parseHex('blue')).toThrow(/not a hex colour/);
    expect(parseHex('#0f8')).toEqual([0, 255, 136]);
  });

  it('picks dark text on light project colours and white on dark ones, always at least AA', () => {
    expect(readableTextColor('#fab005')).toBe(DARK_TEXT);
    expect(readableTextColor('#ffffff')).toBe(DARK_TEXT);
    expect(readableTextColor('#1864ab')).toBe(LIGHT_TEXT);
    expect(readableTextColor('#000000')).toBe(LIGHT_TEXT);
    for (const color of ['#228be6', '#40c057', '#fa5252', '#7950f2', '#fd7e14', '#15aabf', '#868e96', '#e64980']) {
      expect(contrastRatio(readableTextColor(color), color), color).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('darkens a colour only as far as needed to reach the ratio on every background', () => {
    expect(darkenToContrast('#000000', ['#ffffff'])).toBe('#000000');
    const link = darkenToContrast('#228be6', ['#ffffff', '#fff3bf']);
    expect(contrastRatio(link, '#fff3bf')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(link, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(link, '#ffffff')).toBeLessThan(6);
  });

  it('lightens a colour only as far as needed on dark backgrounds', () => {
    expect(lightenToContrast('#ffffff', ['#242424'])).toBe('#ffffff');
    // Mantine's dark-scheme dimmed grey reads 4.1:1 on its own body colour.
    expect(contrastRatio('#828282', '#242424')).toBeLessThan(AA_TEXT);
    const dimmed = lightenToContrast('#828282', ['#242424', '#2e2e2e', '#3b3b3b']);
    for (const bg of ['#242424', '#2e2e2e', '#3b3b3b'])
      expect(contrastRatio(dimmed, bg)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(dimmed, '#242424')).toBeLessThan(7);
  });

  it('shades a colour toward black the way Mantine darkens its dark-scheme fills', () => {
    expect(shadeHex('#1864ab', 0.5)).toBe('#0c3256');
    expect(shadeHex('#ffffff', 0)).toBe('#ffffff');
    expect(shadeHex('#ffffff', 1)).toBe('#000000');
  });
});
