import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayBounds, dayPieces, findOverlaps, weekDays, workSeconds, zonedInstant } from './days.js';
import { ROUNDING_MINUTES, ROUNDING_MODES } from './rounding.js';
import { calendarView, gridView, layoutLanes, listView, type ViewEntry } from './views.js';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';

const entry = (id: string, start: string, end: string | null, extra: Partial<ViewEntry> = {}): ViewEntry => ({
  id,
  start,
  end,
  projectId: null,
  taskId: null,
  ...extra,
});

describe('local days', () => {
  it('knows that DST days are 23 and 25 hours long', () => {
    const spring = dayBounds('2026-03-29', BERLIN);
    const autumn = dayBounds('2026-10-25', BERLIN);
    expect((spring.endMs - spring.startMs) / 3_600_000).toBe(23);
    expect((autumn.endMs - autumn.startMs) / 3_600_000).toBe(25);
    expect((dayBounds('2026-03-08', NEW_YORK).endMs - dayBounds('2026-03-08', NEW_YORK).startMs) / 3_600_000).toBe(23);
  });

  it('starts the week on the user week start', () => {
    expect(weekDays('2026-11-25', 'monday')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(weekDays('2026-11-25', 'sunday')[0]).toBe('2026-11-22');
    expect(weekDays('2026-11-25', 'saturday')[0]).toBe('2026-11-21');
  });

  it('splits an entry crossing midnight into the local days it touches', () => {
    const start = new Date(zonedInstant('2026-11-23', '22:00', BERLIN)).toISOString();
    const end = new Date(zonedInstant('2026-11-24', '01:30', BERLIN)).toISOString();
    const pieces = dayPieces(entry('a', start, end), { timeZone: BERLIN });
    expect(pieces.map((p) => [p.day, p.seconds])).toEqual([
      ['2026-11-23', 7200],
      ['2026-11-24', 5400],
    ]);
  });

  it('counts the real hours across the autumn DST change', () => {
    const start = new Date(zonedInstant('2026-10-25', '00:00', BERLIN)).toISOString();
    const end = new Date(zonedInstant('2026-10-25', '06:00', BERLIN)).toISOString();
    expect(workSeconds(entry('a', start, end))).toBe(7 * 3600);
    expect(dayPieces(entry('a', start, end), { timeZone: BERLIN })).toHaveLength(1);
  });

  it('leaves breaks and the paused time of a running entry out of the work', () => {
    const e: ViewEntry = {
      ...entry('a', '2026-11-23T08:00:00Z', null),
      breaks: [
        { start: '2026-11-23T09:00:00Z', end: '2026-11-23T09:30:00Z' },
        { start: '2026-11-23T10:00:00Z', end: null },
      ],
    };
    expect(workSeconds(e, '2026-11-23T11:00:00Z')).toBe(90 * 60);
  });

  it('flags overlapping entries', () => {
    const list = [
      entry('a', '2026-11-23T08:00:00Z', '2026-11-23T09:00:00Z'),
      entry('b', '2026-11-23T08:30:00Z', '2026-11-23T08:45:00Z'),
      entry('c', '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z'),
    ];
    expect([...findOverlaps(list)].sort()).toEqual(['a', 'b']);
  });
});

describe('totals of list, grid and calendar', () => {
  const projects = ['p1', 'p2', null] as const;
  const arbitraryEntries = (zone: string, day: string) => {
    const base = zonedInstant(day, '00:00', zone) - 3 * 86_400_000;
    return fc
      .array(
        fc.record({
          offsetMinutes: fc.integer({ min: 0, max: 7 * 24 * 60 }),
          lengthSeconds: fc.integer({ min: 0, max: 26 * 3600 }),
          project: fc.constantFrom(...projects),
          tag: fc.constantFrom('t1', 't2', undefined),
          breakMinutes: fc.option(fc.tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 1, max: 120 }))),
        }),
        { maxLength: 40 },
      )
      .map((items) =>
        items.map((item, i): ViewEntry => {
          const start = base + item.offsetMinutes * 60_000;
          const end = start + item.lengthSeconds * 1000;
          const breaks = item.breakMinutes
            ? [
                {
                  start: start + item.breakMinutes[0] * 60_000,
                  end: start + (item.breakMinutes[0] + item.breakMinutes[1]) * 60_000,
                },
              ]
            : [];
          return {
            id: `e${i}`,
            start: new Date(start).toISOString(),
            end: new Date(end).toISOString(),
            breaks: breaks.map((b) => ({ start: new Date(b.start).toISOString(), end: new Date(b.end).toISOString() })),
            projectId: item.project,
            taskId: null,
            tagIds: item.tag ? [item.tag] : [],
          };
        }),
      );
  };

  for (const [zone, dstDay] of [
    [BERLIN, '2026-03-29'],
    [BERLIN, '2026-10-25'],
    [NEW_YORK, '2026-11-01'],
  ] as const) {
    it(`agree for random entries around the DST change of ${dstDay} in ${zone}`, () => {
      fc.assert(
        fc.property(
          arbitraryEntries(zone, dstDay),
          fc.constantFrom(...ROUNDING_MODES),
          fc.constantFrom(...ROUNDING_MINUTES),
          (entries, mode, minutes) => {
            const options = { timeZone: zone, rounding: { mode, minutes }, now: '2030-01-01T00:00:00Z' };
            const days = Array.from({ length: 14 }, (_, i) => {
              const d = new Date(`${dstDay}T12:00:00Z`);
              d.setUTCDate(d.getUTCDate() - 5 + i);
              return d.toISOString().slice(0, 10);
            });
            const list = listView(entries, options);
            const grid = gridView(entries, days, options);
            const calendar = calendarView(entries, days, options);
            for (const day of days) {
              const listDay = list.days.find((d) => d.day === day)?.total ?? 0;
              const gridRowsSum = grid.rows.reduce((sum, row) => sum + (row.cells[day] ?? 0), 0);
              expect(grid.columnTotals[day]).toBe(listDay);
              expect(gridRowsSum).toBe(listDay);
              expect(calendar.columns.find((c) => c.day === day)?.total).toBe(listDay);
            }
            expect(grid.total).toBe(calendar.total);
            expect(grid.rows.reduce((sum, row) => sum + row.total, 0)).toBe(grid.total);
            for (const column of calendar.columns) {
              for (const block of column.blocks) {
                expect(block.top).toBeGreaterThanOrEqual(0);
                expect(block.bottom).toBeLessThanOrEqual(24 * 60);
                expect(block.bottom).toBeGreaterThanOrEqual(block.top);
              }
            }
            if (mode === 'none') {
              const work = entries.reduce((sum, e) => sum + workSeconds(e), 0);
              expect(list.total).toBe(work);
            }
          },
        ),
        { numRuns: 200 },
      );
    });
  }
});

describe('in a process whose own time zone is not UTC', () => {
  it('splits by the user time zone, not the machine one', () => {
    const saved = process.env.TZ;
    process.env.TZ = 'Pacific/Chatham';
    try {
      const start = new Date(zonedInstant('2026-03-28', '23:00', BERLIN)).toISOString();
      const end = new Date(zonedInstant('2026-03-29', '04:00', BERLIN)).toISOString();
      const pieces = dayPieces(entry('a', start, end), { timeZone: BERLIN });
      expect(pieces.map((p) => [p.day, p.seconds])).toEqual([
        ['2026-03-28', 3600],
        ['2026-03-29', 3 * 3600],
      ]);
      expect(weekDays('2026-03-29', 'monday')[0]).toBe('2026-03-23');
    } finally {
      process.env.TZ = saved;
    }
  });
});

describe('calendar lanes', () => {
  it('puts overlapping blocks side by side and leaves others full width', () => {
    const lanes = layoutLanes([
      { top: 540, bottom: 600 }, // 09:00–10:00
      { top: 570, bottom: 630 }, // 09:30–10:30, overlaps the first
      { top: 610, bottom: 660 }, // 10:10–11:00, overlaps the second only: reuses lane 0
      { top: 720, bottom: 780 }, // 12:00–13:00, alone
      { top: 600, bottom: 605 }, // 10:00–10:05: lane 0 is free again at 10:00
    ]);
    expect(lanes).toEqual([
      { lane: 0, lanes: 2 },
      { lane: 1, lanes: 2 },
      { lane: 0, lanes: 2 },
      { lane: 0, lanes: 1 },
      { lane: 0, lanes: 2 },
    ]);
    expect(
      layoutLanes(
        [
          { top: 0, bottom: 10 },
          { top: 10, bottom: 20 },
        ],
        15,
      ),
    ).toEqual([
      { lane: 0, lanes: 2 },
      { lane: 1, lanes: 2 },
    ]);
    expect(
      layoutLanes([
        { top: 0, bottom: 10 },
        { top: 10, bottom: 20 },
      ]),
    ).toEqual([
      { lane: 0, lanes: 1 },
      { lane: 0, lanes: 1 },
    ]);
  });

  it('never gives two overlapping blocks the same lane (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1400 }), fc.integer({ min: 1, max: 300 })), { maxLength: 30 }),
        (raw) => {
          const blocks = raw.map(([top, length]) => ({ top, bottom: top + length }));
          const lanes = layoutLanes(blocks);
          blocks.forEach((a, i) => {
            const la = lanes[i] as { lane: number; lanes: number };
            expect(la.lane).toBeLessThan(la.lanes);
            blocks.forEach((b, j) => {
              if (i !== j && a.top < b.bottom && b.top < a.bottom) {
                expect(la.lane).not.toBe(lanes[j]?.lane);
                expect(la.lanes).toBe(lanes[j]?.lanes);
              }
            });
          });
        },
      ),
    );
  });
});
