const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on toISOString writes a six-digit year with a sign. */
const YEAR_10000 = 253_402_300_800_000;

/**
 * `date.toISOString()`, the same text, written in JavaScript: the engine's own method formats
 * through C++ and took a twentieth of the week list's CPU (four dates an entry); this is about
 * twice as fast, strings included. Dates before 1970 or from the year 10000 on, and invalid
 * ones, still go to `toISOString` (which throws on an invalid date, as before).
 */
export function isoString(date: Date): string {
  const time = date.getTime();
  if (!(time >= 0 && time < YEAR_10000)) return date.toISOString();
  let days = Math.floor(time / DAY_MS);
  let ms = time - days * DAY_MS;
  const hours = Math.floor(ms / 3_600_000);
  ms -= hours * 3_600_000;
  const minutes = Math.floor(ms / 60_000);
  ms -= minutes * 60_000;
  const seconds = Math.floor(ms / 1000);
  ms -= seconds * 1000;
  // The civil date of a day count (Howard Hinnant's days_from_civil, inverted), from 0000-03-01.
  days += 719_468;
  const era = Math.floor(days / 146_097);
  const dayOfEra = days - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[ms]}Z`;
}
