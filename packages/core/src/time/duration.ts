/**
 * Durations typed by people: "1:30", "1:30:15", "1.5h", "1,5h", "90m", "1h 30m", "45s", "2".
 * A bare number means hours. Returns whole seconds, or null when the text is not a duration.
 */
export function parseDuration(input: string): number | null {
  const text = input.trim().toLowerCase().replace(/,/g, '.');
  if (text === '') return null;

  const clock = /^(\d{1,3}):([0-5]?\d)(?::([0-5]?\d))?$/.exec(text);
  if (clock) {
    const [, h, m, s] = clock;
    return Number(h) * 3600 + Number(m) * 60 + Number(s ?? 0);
  }

  const bare = /^\d+(?:\.\d+)?$/.exec(text);
  if (bare) return Math.round(Number(text) * 3600);

  const units = /(\d+(?:\.\d+)?)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])/y;
  let total = 0;
  let matched = false;
  let index = 0;
  while (index < text.length) {
    if (text[index] === ' ') {
      index += 1;
      continue;
    }
    units.lastIndex = index;
    const part = units.exec(text);
    if (!part) return null;
    const value = Number(part[1]);
    const unit = part[2] ?? '';
    total += unit.startsWith('h') ? value * 3600 : unit.startsWith('m') ? value * 60 : value;
    matched = true;
    index = units.lastIndex;
  }
  return matched ? Math.round(total) : null;
}

/** How a person wants durations shown: a user preference (GET/PATCH /me), used by every screen. */
export const DURATION_FORMATS = ['h:mm:ss', 'h:mm', 'decimal'] as const;
export type DurationFormat = (typeof DURATION_FORMATS)[number];
export const DEFAULT_DURATION_FORMAT: DurationFormat = 'h:mm:ss';

/**
 * The one way a duration (whole seconds) becomes text: "1:30:15" (h:mm:ss, the default),
 * "1:30" (h:mm, to the nearest minute) or "1.50" (decimal hours, to the nearest hundredth).
 * Halves round up; hours go past 24 ("25:01:01"); a negative value keeps its minus sign unless it
 * rounds to zero. Every format reads back with parseDuration.
 */
export function formatDuration(seconds: number, format: DurationFormat = DEFAULT_DURATION_FORMAT): string {
  const abs = Math.abs(seconds);
  const signed = (unsigned: number, text: string) => (seconds < 0 && unsigned > 0 ? `-${text}` : text);
  if (format === 'decimal') {
    // Integer hundredths of an hour (36 s each), so 18 s is 0.01 and never lost to a float.
    const hundredths = Math.round(abs / 36);
    return signed(hundredths, `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`);
  }
  if (format === 'h:mm') {
    const minutes = Math.round(abs / 60);
    return signed(minutes, `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`);
  }
  const whole = Math.round(abs);
  const h = Math.floor(whole / 3600);
  const mm = String(Math.floor((whole % 3600) / 60)).padStart(2, '0');
  return signed(whole, `${h}:${mm}:${String(whole % 60).padStart(2, '0')}`);
}
