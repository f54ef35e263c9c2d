import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';
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
  it('shows hours and minutes, optionally seconds', () => {
    expect(formatDuration(5400)).toBe('1:30');
    expect(formatDuration(59)).toBe('0:00');
    expect(formatDuration(90_061, { seconds: true })).toBe('25:01:01');
    expect(formatDuration(-600)).toBe('-0:10');
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
