import { describe, expect, it } from 'vitest';
import { DEFAULT_DURATION_FORMAT, DURATION_FORMATS, formatDuration, parseDuration } from './duration.js';
import { roundDuration } from './rounding.js';

describe('parseDuration', () => {
  it.each([
    ['1:30', 5400],
    ['0:45', 2700],
    ['1:30:15', 5415],
    ['1.5h', 5400],
    ['1,5h', 5400],
    ['90m', 5400],
    ['90 min', 5400],
    ['1h 30m', 5400],
    ['1h30m', 5400],
    ['2 hours', 7200],
    ['45s', 45],
    ['2', 7200],
    ['0.25', 900],
    [' 3:05 ', 11_100],
  ])('reads %s as %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', 'abc', '1:75', '-1h', '1x', 'h', '1:30pm'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('formatDuration', () => {
  it('shows hours, minutes and seconds by default, so a 40-second entry is not 0:00', () => {
    expect(formatDuration(40)).toBe('0:00:40');
    expect(formatDuration(5400)).toBe('1:30:00');
    expect(formatDuration(0)).toBe('0:00:00');
    expect(formatDuration(40, DEFAULT_DURATION_FORMAT)).toBe('0:00:40');
  });

  it.each([
    // seconds, h:mm:ss, h:mm, decimal
    [0, '0:00:00', '0:00', '0.00'],
    [40, '0:00:40', '0:01', '0.01'],
    [29, '0:00:29', '0:00', '0.01'],
    [30, '0:00:30', '0:01', '0.01'],
    [17, '0:00:17', '0:00', '0.00'],
    [18, '0:00:18', '0:00', '0.01'],
    [59, '0:00:59', '0:01', '0.02'],
    [5400, '1:30:00', '1:30', '1.50'],
    [5415, '1:30:15', '1:30', '1.50'],
    [5370, '1:29:30', '1:30', '1.49'],
    [3599, '0:59:59', '1:00', '1.00'],
    [86_400, '24:00:00', '24:00', '24.00'],
    [90_061, '25:01:01', '25:01', '25.02'],
    [604_800, '168:00:00', '168:00', '168.00'],
    [-600, '-0:10:00', '-0:10', '-0.17'],
    [-5415, '-1:30:15', '-1:30', '-1.50'],
    [-20, '-0:00:20', '0:00', '-0.01'],
    [-10, '-0:00:10', '0:00', '0.00'],
    [40.6, '0:00:41', '0:01', '0.01'],
  ])('shows %d seconds as %s, %s or %s hours', (seconds, hms, hm, decimal) => {
    expect(formatDuration(seconds, 'h:mm:ss')).toBe(hms);
    expect(formatDuration(seconds, 'h:mm')).toBe(hm);
    expect(formatDuration(seconds, 'decimal')).toBe(decimal);
  });

  it('reads back what it writes in every format, for values each format can hold', () => {
    for (const format of DURATION_FORMATS) {
      for (const seconds of [0, 900, 5400, 90_000]) {
        expect(parseDuration(formatDuration(seconds, format))).toBe(seconds);
      }
    }
  });

  it('treats an unknown format as the default', () => {
    expect(formatDuration(40, 'hh' as never)).toBe('0:00:40');
  });
});

describe('roundDuration', () => {
  it('rounds up, down and to the nearest step', () => {
    const seven = 7 * 60;
    expect(roundDuration(seven, { mode: 'up', minutes: 15 })).toBe(900);
    expect(roundDuration(seven, { mode: 'down', minutes: 15 })).toBe(0);
    expect(roundDuration(seven, { mode: 'nearest', minutes: 15 })).toBe(0);
    expect(roundDuration(450, { mode: 'nearest', minutes: 15 })).toBe(900);
    expect(roundDuration(seven, { mode: 'nearest', minutes: 6 })).toBe(360);
    expect(roundDuration(61, { mode: 'up', minutes: 1 })).toBe(120);
    expect(roundDuration(3599, { mode: 'nearest', minutes: 60 })).toBe(3600);
    expect(roundDuration(1234, { mode: 'none', minutes: 15 })).toBe(1234);
  });

  it('leaves whole steps alone in every mode', () => {
    for (const mode of ['up', 'down', 'nearest'] as const) {
      expect(roundDuration(1800, { mode, minutes: 30 })).toBe(1800);
      expect(roundDuration(0, { mode, minutes: 5 })).toBe(0);
    }
  });
});
