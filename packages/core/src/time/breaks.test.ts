import { describe, expect, it } from 'vitest';
import { withBreak } from './breaks.js';

const at = (hhmm: string) => Date.parse(`2026-06-10T${hhmm}:00Z`);
const span = (a: string, b: string) => ({ startMs: at(a), endMs: at(b) });

describe('withBreak', () => {
  const entry = { startMs: at('09:00'), endMs: at('12:00'), breaks: [] };

  it('adds the part of the range inside a stopped entry', () => {
    expect(withBreak(entry, span('11:30', '13:00'), at('14:00'))).toEqual([span('11:30', '12:00')]);
    expect(withBreak(entry, span('08:00', '09:15'), at('14:00'))).toEqual([span('09:00', '09:15')]);
  });

  it('changes nothing when the range misses the entry or is already a break', () => {
    expect(withBreak(entry, span('12:00', '13:00'), at('14:00'))).toBeNull();
    const onBreak = { ...entry, breaks: [span('10:00', '11:00')] };
    expect(withBreak(onBreak, span('10:15', '10:45'), at('14:00'))).toBeNull();
  });

  it('joins overlapping and touching breaks into one, keeping others apart', () => {
    const withTwo = { ...entry, breaks: [span('09:30', '09:45'), span('10:00', '10:30')] };
    expect(withBreak(withTwo, span('10:20', '11:00'), at('14:00'))).toEqual([
      span('09:30', '09:45'),
      span('10:00', '11:00'),
    ]);
    expect(withBreak(withTwo, span('09:45', '10:00'), at('14:00'))).toEqual([span('09:30', '10:30')]);
  });

  it('clips a running entry to now and stops before its open break', () => {
    const running = { startMs: at('09:00'), endMs: null, breaks: [] };
    expect(withBreak(running, span('10:00', '12:00'), at('11:00'))).toEqual([span('10:00', '11:00')]);
    const paused = { ...running, breaks: [{ startMs: at('10:30'), endMs: null }] };
    expect(withBreak(paused, span('10:00', '12:00'), at('11:00'))).toEqual([span('10:00', '10:30')]);
    expect(withBreak(paused, span('10:40', '12:00'), at('11:00'))).toBeNull();
  });

  it('keeps whole seconds', () => {
    const result = withBreak(entry, { startMs: at('10:00') + 400, endMs: at('10:05') + 900 }, at('14:00'));
    expect(result).toEqual([{ startMs: at('10:00'), endMs: at('10:05') }]);
  });
});
