import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { readCalendar, writeFeed } from './calendars.ics.js';

const wrap = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const window = {
  from: new Date('2026-03-01T00:00:00Z'),
  to: new Date('2026-05-01T00:00:00Z'),
  email: 'ann@example.com',
  timeZone: 'America/New_York',
};

describe('reading a calendar', () => {
  it('reads a TZID the calendar does not define as the IANA zone it names, across its DST change', () => {
    const found = readCalendar(
      wrap(
        'BEGIN:VEVENT',
        'UID:standup@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;TZID=Europe/Berlin:20260323T090000',
        'DTEND;TZID=Europe/Berlin:20260323T091500',
        'RRULE:FREQ=WEEKLY;COUNT=2',
        'SUMMARY:Standup',
        'END:VEVENT',
      ),
      window,
    );
    // Berlin moves to summer time on 29 March 2026.
    expect(found.map((o) => o.start_at.toISOString())).toEqual([
      '2026-03-23T08:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
    expect(found.map((o) => o.occurrence)).toEqual(['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z']);
  });

  it('reads a floating time in the person’s zone and keeps a lone event without an occurrence key', () => {
    const [found] = readCalendar(
      wrap(
        'BEGIN:VEVENT',
        'UID:lunch@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20260402T120000',
        'DURATION:PT1H',
        'SUMMARY:Lunch',
        'END:VEVENT',
      ),
      window,
    );
    expect(found).toMatchObject({ occurrence: '', recurring: false, title: 'Lunch' });
    // New York is UTC-4 in April.
    expect(found?.start_at.toISOString()).toBe('2026-04-02T16:00:00.000Z');
    expect(found?.end_at.toISOString()).toBe('2026-04-02T17:00:00.000Z');
  });

  it('refuses text that is not a calendar', () => {
    expect(() => readCalendar('<html>Sign in</html>', window)).toThrow();
  });
});

describe('writing the feed', () => {
  it('escapes what a title holds and writes UTC times that read back the same', () => {
    const text = writeFeed(
      'Sundial: Acme',
      [
        {
          uid: 'e1@sundial',
          start: new Date('2026-04-02T08:00:00Z'),
          end: new Date('2026-04-02T09:30:00Z'),
          summary: 'Website, design; review',
          description: 'Project: Website\nNote: a long note',
          updatedAt: new Date('2026-04-02T10:00:00Z'),
        },
      ],
      new Date('2026-04-03T00:00:00Z'),
    );
    const vevent = new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent');
    if (!vevent) throw new Error('no event written');
    const event = new ICAL.Event(vevent);
    expect(event.summary).toBe('Website, design; review');
    expect(event.description).toBe('Project: Website\nNote: a long note');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-04-02T08:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-04-02T09:30:00.000Z');
    expect(text).toContain('SUMMARY:Website\\, design\\; review');
  });
});
