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

/** Seconds as "h:mm", or "h:mm:ss" with seconds; negative values get a minus sign. */
export function formatDuration(seconds: number, options: { seconds?: boolean } = {}): string {
  const sign = seconds < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(seconds));
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const mm = String(m).padStart(2, '0');
  return options.seconds ? `${sign}${h}:${mm}:${String(s).padStart(2, '0')}` : `${sign}${h}:${mm}`;
}

/** Seconds as decimal hours with two places ("1.50"), as reports and exports show them. */
export const formatDecimalHours = (seconds: number): string => (seconds / 3600).toFixed(2);
