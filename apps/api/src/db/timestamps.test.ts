import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './timestamps.js';

// Imported before connection.ts could replace it: pg's own parser (postgres-date).
const pgParser = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => unknown;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Texts in PostgreSQL's ISO output for timestamptz, for an instant, a fraction and an offset. */
function pgText(ms: number, fraction: string, offsetMinutes: number, offsetSeconds = 0): string {
  const d = new Date(ms + (offsetMinutes * 60 + Math.sign(offsetMinutes || 1) * offsetSeconds) * 1000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  let zone = `${sign}${pad(Math.floor(abs / 60))}`;
  if (abs % 60 || offsetSeconds) zone += `:${pad(abs % 60)}`;
  if (offsetSeconds) zone += `:${pad(offsetSeconds)}`;
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${date} ${time}${fraction ? `.${fraction}` : ''}${zone}`;
}

const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = pgParser(text);
  expect({ text, at: ours instanceof Date ? ours.getTime() : ours }).toEqual({
    text,
    at: theirs instanceof Date ? theirs.getTime() : theirs,
  });
};

describe('parseTimestamptz', () => {
  it('reads what PostgreSQL writes to the same millisecond as pg does, fractions and offsets included', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const fractions = ['', '1', '12', '123', '1234', '12345', '123456', '999999', '000001', '5', '035', '57', '29'];
    const offsets = [0, 0, 60, -180, 330, -570, 345, 840, -720];
    for (let n = 0; n < 5000; n++) {
      const ms = Math.floor((random() * 2 - 0.3) * 4e12);
      const fraction =
        n % 2 ? (fractions[n % fractions.length] ?? '') : String(Math.floor(random() * 1e6)).padStart(6, '0');
      same(pgText(ms, fraction, offsets[n % offsets.length] ?? 0));
    }
    same(pgText(Date.UTC(1880, 0, 1), '', 19, 32));
    same(pgText(Date.UTC(1900, 5, 1), '25', -4, 56));
  });

  it('leaves every other text to pg: infinity, BC, early and five-digit years, odd shapes', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2026-11-27 10:27:40+00 BC',
      '0050-01-01 00:00:00+00',
      '0999-12-31 23:59:59.5+00',
      '10000-01-01 00:00:00+00',
      '2026-11-27 10:27:40.+00',
      '2026-11-27 10:27:40Z',
      '2026-11-27T10:27:40+00',
      '2026-11-27 10:27:40+0',
      '2026-11-27 10:27:40+05:3',
      '2026-11-27 10:27:40',
      '2026-1x-27 10:27:40+00',
      '2026-02-30 10:27:40+00',
      '2026-11-27',
    ]) {
      same(text);
    }
  });
});
