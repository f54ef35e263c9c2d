import ICAL from 'ical.js';
import type { ParsedOccurrence } from './calendars.repository.js';

/**
 * iCalendar both ways, through ical.js (no dependencies of its own): the feed written from time
 * entries, and a subscribed calendar read into timed occurrences, its recurrences (RRULE, RDATE,
 * EXDATE, RECURRENCE-ID overrides) expanded in the event's own zone (its VTIMEZONE, or the IANA
 * zone its TZID names), so a weekly meeting keeps its wall-clock time across a DST change.
 */

// ---- Out

export interface FeedEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  updatedAt: Date;
}

/** The feed's calendar: UTC times, refreshed hourly by the clients that honour the hint. */
export function writeFeed(name: string, events: readonly FeedEvent[], now: Date): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('prodid', '-//Sundial//Time entries//EN');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', 'PUBLISH');
  calendar.addPropertyWithValue('x-wr-calname', name);
  calendar.addPropertyWithValue('x-published-ttl', 'PT1H');
  const refresh = calendar.addPropertyWithValue('refresh-interval', ICAL.Duration.fromString('PT1H'));
  refresh.setParameter('value', 'DURATION');
  for (const event of events) {
    const vevent = new ICAL.Component('vevent');
    vevent.addPropertyWithValue('uid', event.uid);
    vevent.addPropertyWithValue('dtstamp', ICAL.Time.fromJSDate(now, true));
    vevent.addPropertyWithValue('last-modified', ICAL.Time.fromJSDate(event.updatedAt, true));
    vevent.addPropertyWithValue('dtstart', ICAL.Time.fromJSDate(event.start, true));
    vevent.addPropertyWithValue('dtend', ICAL.Time.fromJSDate(event.end, true));
    vevent.addPropertyWithValue('summary', event.summary);
    if (event.description) vevent.addPropertyWithValue('description', event.description);
    vevent.addPropertyWithValue('transp', 'OPAQUE');
    calendar.addSubcomponent(vevent);
  }
  return `${calendar.toString()}\r\n`;
}

// ---- In

/** Occurrences are read this far at most per series, so a rule without end cannot run away. */
const MAX_OCCURRENCES = 5000;

/** Wall-clock time in an IANA zone to UTC (two passes settle the zone's offset, DST included). */
function zonedToUtc(t: ICAL.Time, zone: string): Date {
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  let guess = wall;
  for (let i = 0; i < 2; i += 1) guess = wall - offsetOf(zone, guess);
  return new Date(guess);
}

function offsetOf(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return (
    Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(at / 1000) * 1000
  );
}

const isIanaZone = (zone: string | undefined): zone is string => {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/**
 * The instant of a time: its VTIMEZONE or UTC when it has one; a TZID the calendar does not define
 * read as the IANA zone it names; a floating time (or a TZID nobody knows) in the person's zone.
 */
function instantOf(t: ICAL.Time, tzid: string | undefined, personZone: string): Date {
  if (t.zone && t.zone !== ICAL.Timezone.localTimezone) return t.toJSDate();
  return zonedToUtc(t, isIanaZone(tzid) ? tzid : personZone);
}

const tzidOf = (event: ICAL.Event, name: 'dtstart' | 'dtend'): string | undefined => {
  const value = event.component.getFirstProperty(name)?.getParameter('tzid');
  return typeof value === 'string' ? value : undefined;
};

/** Whether the person declined it (an ATTENDEE with their address and PARTSTAT=DECLINED). */
function declinedBy(event: ICAL.Event, email: string): boolean {
  const address = `mailto:${email.toLowerCase()}`;
  return event.attendees.some(
    (attendee) =>
      String(attendee.getFirstValue()).toLowerCase() === address &&
      String(attendee.getParameter('partstat') ?? '').toUpperCase() === 'DECLINED',
  );
}

const cancelled = (event: ICAL.Event) =>
  String(event.component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';

export interface ReadOptions {
  /** Occurrences overlapping [from, to) are read. */
  from: Date;
  to: Date;
  /** The person's address: events they declined are left out. */
  email: string;
  /** Where a floating time is. */
  timeZone: string;
}

/**
 * The timed occurrences of an ICS text within the window: all-day events, events the person
 * declined and cancelled events or occurrences are left out. Throws on text that is not iCalendar.
 */
export function readCalendar(text: string, options: ReadOptions): ParsedOccurrence[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  if (calendar.name !== 'vcalendar') throw new Error('This is not an iCalendar file (no VCALENDAR).');
  // The calendar's own zones, for its times (removed after, so one calendar's never serve another's).
  const registered: string[] = [];
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
    const tzid = String(vtimezone.getFirstPropertyValue('tzid') ?? '');
    if (!tzid || ICAL.TimezoneService.has(tzid)) continue;
    ICAL.TimezoneService.register(vtimezone);
    registered.push(tzid);
  }
  try {
    return occurrencesOf(calendar, options);
  } finally {
    for (const tzid of registered) ICAL.TimezoneService.remove(tzid);
  }
}

function occurrencesOf(calendar: ICAL.Component, options: ReadOptions): ParsedOccurrence[] {
  const masters = new Map<string, ICAL.Event>();
  const overrides: ICAL.Event[] = [];
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    if (!event.uid || !event.component.hasProperty('dtstart')) continue;
    if (vevent.hasProperty('recurrence-id')) overrides.push(event);
    else masters.set(event.uid, event);
  }
  const lone: ICAL.Event[] = [];
  for (const override of overrides) {
    const master = masters.get(override.uid);
    if (master?.isRecurring()) master.relateException(override);
    else lone.push(override);
  }
  const found: ParsedOccurrence[] = [];
  const keep = (item: ICAL.Event, start: ICAL.Time, end: ICAL.Time, occurrence: string, recurring: boolean) => {
    if (start.isDate || cancelled(item) || declinedBy(item, options.email)) return;
    const startAt = instantOf(start, tzidOf(item, 'dtstart'), options.timeZone);
    const endAt = instantOf(end, tzidOf(item, 'dtend') ?? tzidOf(item, 'dtstart'), options.timeZone);
    if (endAt <= startAt || endAt <= options.from || startAt >= options.to) return;
    found.push({
      uid: item.uid,
      occurrence,
      recurring,
      title: item.summary ?? '',
      location: item.location ?? '',
      start_at: startAt,
      end_at: endAt,
    });
  };
  for (const event of [...masters.values(), ...lone]) {
    if (!event.isRecurring()) {
      const occurrence = event.component.hasProperty('recurrence-id')
        ? instantOf(event.recurrenceId, tzidOf(event, 'dtstart'), options.timeZone).toISOString()
        : '';
      keep(event, event.startDate, event.endDate, occurrence, occurrence !== '');
      continue;
    }
    const iterator = event.iterator();
    const tzid = tzidOf(event, 'dtstart');
    for (let i = 0, next = iterator.next(); next && i < MAX_OCCURRENCES; i += 1, next = iterator.next()) {
      const at = instantOf(next, tzid, options.timeZone);
      if (at >= options.to) break;
      const details = event.getOccurrenceDetails(next);
      keep(details.item, details.startDate, details.endDate, at.toISOString(), true);
    }
  }
  return found.sort((a, b) => a.start_at.getTime() - b.start_at.getTime());
}
