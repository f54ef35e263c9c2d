import { formatCalendarDay } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { decimalHours, decimalMoney, formatClock, hms, localTime, safeText } from './exports.format.js';

describe('export formats', () => {
  it('reads local wall-clock times across DST changes and :45 offsets as Intl does', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC'];
    // One formatter a zone (making one is the slow part), and one comparison of all the differences:
    // 12,000 cases in well under a second even on a loaded machine (issue 31).
    const formatters = new Map(
      zones.map((timeZone) => [
        timeZone,
        new Intl.DateTimeFormat('sv-SE', {
          timeZone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        }),
      ]),
    );
    const intl = (iso: string, timeZone: string) =>
      (formatters.get(timeZone) as Intl.DateTimeFormat).format(new Date(iso)).replace(' ', 'T');
    const wrong: string[] = [];
    let cases = 0;
    // Every 7 minutes 13 seconds over the days around the 2026 DST changes.
    for (const from of [Date.UTC(2026, 2, 7), Date.UTC(2026, 2, 28), Date.UTC(2026, 9, 24), Date.UTC(2026, 10, 1)])
      for (let ms = from; ms < from + 3 * 86_400_000; ms += 433_000)
        for (const zone of zones) {
          const iso = new Date(ms).toISOString();
          const ours = localTime(iso, zone);
          const theirs = intl(iso, zone);
          cases++;
          if (ours !== theirs) wrong.push(`${iso} in ${zone}: ${ours}, Intl ${theirs}`);
        }
    expect(cases).toBeGreaterThan(11_000);
    expect(wrong).toEqual([]);
    // Milliseconds are cut, as toISOString would; days before 1970 too; out of order as in order.
    for (const [iso, local] of [
      ['2026-11-02T09:30:15.999Z', '2026-11-02T09:30:15'],
      ['1969-12-31T23:59:59.500Z', '1969-12-31T23:59:59'],
      ['2026-11-02T00:00:00.000Z', '2026-11-02T00:00:00'],
      ['2026-11-01T23:59:59.999Z', '2026-11-01T23:59:59'],
    ])
      expect(localTime(iso as string, 'UTC')).toBe(local);
  });

  it('writes days, clocks, durations and money as a spreadsheet reads them', () => {
    expect(formatCalendarDay('2026-11-02', 'DD.MM.YYYY')).toBe('02.11.2026');
    expect(formatCalendarDay('2026-11-02', 'MM/DD/YYYY')).toBe('11/02/2026');
    expect(formatClock('2026-11-02T00:05:00', '12h')).toBe('12:05 AM');
    expect(formatClock('2026-11-02T13:05:00', '24h')).toBe('13:05');
    expect(hms(27 * 3600 + 5 * 60 + 9)).toBe('27:05:09');
    expect(decimalHours(5400)).toBe('1.50');
    expect(decimalMoney(-305)).toBe('-3.05');
  });

  it('makes a cell that would run as a formula inert', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(safeText(cell)).toBe(`'${cell}`);
    // A tab or a line break is a separator too: the formula after it is made inert as well.
    expect(safeText('\t=1')).toBe("'\t'=1");
    expect(safeText('Plain text')).toBe('Plain text');
    expect(safeText('a=b')).toBe('a=b');
    expect(safeText('safe;=1+1')).toBe("safe;'=1+1");
    expect(safeText(' =1')).toBe("' =1");
    expect(safeText('a,"=1;\t@x\n-y')).toBe(`a,'"=1;'\t'@x\n'-y`);
  });
});
