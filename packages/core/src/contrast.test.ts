import { describe, expect, it } from 'vitest';
import {
  AA_TEXT,
  contrastRatio,
  DARK_TEXT,
  darkenToContrast,
  LIGHT_TEXT,
  parseHex,
  readableTextColor,
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
});
