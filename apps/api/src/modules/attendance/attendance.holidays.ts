import Holidays from 'date-holidays';

/**
 * Public holidays by country and region (issue 37), from date-holidays (its data: CC BY 3.0): the
 * days a person's location takes off, which expected time leaves out and the attendance grid shows.
 * Only holidays of type "public" count; bank, school and optional days and observances do not.
 */
export interface PublicHoliday {
  day: string;
  name: string;
  /** A substitute day for a holiday on a weekend (where the country has them). */
  substitute: boolean;
}

export interface HolidayPlace {
  /** ISO 3166-1 alpha-2, e.g. "DE". */
  country: string;
  /** The region's code within the country, e.g. "BY" for Bavaria; null for the whole country's only. */
  region: string | null;
}

/** One calendar per place and language: date-holidays parses its rules when made. */
const calendars = new Map<string, Holidays>();

function calendarOf(place: HolidayPlace, language: string): Holidays {
  const key = `${place.country}\u0000${place.region ?? ''}\u0000${language}`;
  let calendar = calendars.get(key);
  if (!calendar) {
    calendar = place.region
      ? new Holidays(place.country, place.region, { languages: [language], types: ['public'] })
      : new Holidays(place.country, { languages: [language], types: ['public'] });
    calendars.set(key, calendar);
  }
  return calendar;
}

/** The countries that have holiday data, by code, named in `language` (English when it has none). */
export function holidayCountries(language = 'en'): { code: string; name: string }[] {
  const countries = new Holidays().getCountries(language) ?? {};
  return Object.entries(countries)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

/** The codes of the countries with holiday data (read once). */
let knownCountries: Set<string> | undefined;
const hasHolidays = (country: string) => {
  knownCountries ??= new Set(Object.keys(new Holidays().getCountries() ?? {}));
  return knownCountries.has(country);
};

/** A country's regions with holidays of their own; [] when it has none, null for a country without data. */
export function holidayRegions(country: string, language = 'en'): { code: string; name: string }[] | null {
  if (!hasHolidays(country)) return null;
  const regions = new Holidays().getStates(country, language) ?? {};
  return Object.entries(regions)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

/** Whether a place has holiday data (a known country, and a known region of it when one is given). */
export function isHolidayPlace(place: HolidayPlace): boolean {
  const regions = holidayRegions(place.country);
  return regions !== null && (place.region === null || regions.some((r) => r.code === place.region));
}

/** The public holidays of a place over the days from..to (inclusive), in order; names in `language`. */
export function publicHolidays(place: HolidayPlace, from: string, to: string, language = 'en'): PublicHoliday[] {
  if (!isHolidayPlace(place) || to < from) return [];
  const calendar = calendarOf(place, language);
  const days: PublicHoliday[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const holiday of calendar.getHolidays(year) || []) {
      const day = holiday.date.slice(0, 10);
      if (holiday.type !== 'public' || day < from || day > to) continue;
      // Two rules on one day (a holiday and its substitute elsewhere) are one day off.
      if (days.some((d) => d.day === day)) continue;
      days.push({ day, name: holiday.name, substitute: Boolean(holiday.substitute) });
    }
  }
  return days.sort((a, b) => a.day.localeCompare(b.day));
}
