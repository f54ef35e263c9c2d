import { describe, expect, it } from 'vitest';
import { type AwaySpan, awayPeriods } from './computer-time.away-periods.js';

const at = (hhmm: string) => new Date(`2026-06-10T${hhmm}Z`);
const away = (from: string, to: string, reason: AwaySpan['away_reason'] = 'idle'): AwaySpan => ({
  started_at: at(from),
  ended_at: at(to),
  away_reason: reason,
});

describe('awayPeriods', () => {
  it('makes spans that follow one another one period, named by the reason covering most of it', () => {
    const periods = awayPeriods([away('10:05:00', '10:50:00', 'locked'), away('10:00:00', '10:05:00', 'idle')]);
    expect(periods).toEqual([{ start: at('10:00:00'), end: at('10:50:00'), reason: 'locked' }]);
  });

  it('keeps spans with a gap between them apart', () => {
    const periods = awayPeriods([away('10:00:00', '10:05:00'), away('10:06:00', '10:10:00', 'suspended')]);
    expect(periods.map((p) => [p.start, p.end, p.reason])).toEqual([
      [at('10:00:00'), at('10:05:00'), 'idle'],
      [at('10:06:00'), at('10:10:00'), 'suspended'],
    ]);
  });

  it('treats a gap under a second as none, and overlapping spans (two computers) as one period', () => {
    const periods = awayPeriods([
      away('10:00:00', '10:05:00'),
      away('10:05:00.600', '10:20:00'),
      away('10:10:00', '10:30:00', 'locked'),
    ]);
    expect(periods).toHaveLength(1);
    expect(periods[0]?.end).toEqual(at('10:30:00'));
  });

  it('answers nothing for no spans and skips empty ones', () => {
    expect(awayPeriods([])).toEqual([]);
    expect(awayPeriods([away('10:00:00', '10:00:00')])).toEqual([]);
  });
});
