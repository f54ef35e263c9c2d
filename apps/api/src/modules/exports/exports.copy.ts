import { type RawBuilder, sql } from 'kysely';
import { FORMULA_AFTER_SEPARATOR, FORMULA_AT_START } from './exports.format.js';
import type { ColumnType, ExportTable } from './exports.table.js';

/**
 * The CSV writer's cell texts (exports.csv.ts, exports.format.ts) as SQL, for a CSV that the
 * database writes itself with COPY: each function gives the same text as its twin, or null for an
 * empty field (COPY writes null as an empty field and quotes an empty string, which the writer
 * does not). exports.copy.int.test.ts holds the two to the same bytes.
 */

/** to_char patterns of the profile's date formats (core's formatCalendarDay) and time formats (formatClock). */
const DAY_PATTERNS: Record<string, string> = {
  'YYYY-MM-DD': 'YYYY-MM-DD',
  'DD/MM/YYYY': 'DD/MM/YYYY',
  'MM/DD/YYYY': 'MM/DD/YYYY',
  'DD.MM.YYYY': 'DD.MM.YYYY',
};
const dayPattern = (dateFormat: string) => DAY_PATTERNS[dateFormat] ?? 'YYYY-MM-DD';
// FM drops the hour's leading zero ("9:30 AM"), as formatClock writes it; it applies to HH12 only.
const clockPattern = (timeFormat: string) => (timeFormat === '12h' ? 'FMHH12:MI AM' : 'HH24:MI');

const sign = (value: RawBuilder<unknown>) => sql`case when ${value} < 0 then '-' else '' end`;
const twoDigits = (value: RawBuilder<unknown>) => sql`lpad((${value})::text, 2, '0')`;

/** hms: h:mm:ss of whole seconds. */
const hms = (s: RawBuilder<unknown>) =>
  sql`${sign(s)} || (abs(${s}) / 3600)::text || ':' || ${twoDigits(sql`abs(${s}) % 3600 / 60`)} || ':' || ${twoDigits(sql`abs(${s}) % 60`)}`;

/** decimalHours: hundredths of an hour, rounded half up, from integers. */
const decimalHours = (s: RawBuilder<unknown>) => {
  const hundredths = sql`((abs(${s}) * 100 + 1800) / 3600)`;
  return sql`case when ${s} < 0 and ${hundredths} > 0 then '-' else '' end || (${hundredths} / 100)::text || '.' || ${twoDigits(sql`${hundredths} % 100`)}`;
};

/** decimalMoney: integer cents as a plain decimal. */
const decimalMoney = (c: RawBuilder<unknown>) =>
  sql`${sign(c)} || (abs(${c}) / 100)::text || '.' || ${twoDigits(sql`abs(${c}) % 100`)}`;

/**
 * safeText: an apostrophe before text that would start a formula, and after each separator inside
 * it a formula could follow. Text without = + @ - that does not start with a tab or carriage return
 * holds no formula and is taken as it is: the two regular expressions on every cell cost 18 % of a
 * year's export (190,000 rows: 3.48 s against 2.86 s), and most notes and names have none of those.
 */
const safeText = (t: RawBuilder<unknown>) =>
  sql`case when translate(${t}, '=+@-', '') = ${t} and left(${t}, 1) not in (${'\t'}, ${'\r'}) then nullif(${t}, '') else nullif(case when ${t} ~ ${FORMULA_AT_START} then '''' else '' end || regexp_replace(${t}, ${FORMULA_AFTER_SEPARATOR}, ${"\\1'"}, 'g'), '') end`;

/**
 * A column's cell as CSV text in SQL, given its value: `date` and `datetime` a local timestamp
 * (`instant at time zone zone`), `duration` and `hours` seconds, `money` cents, `count` an
 * integer, `text` text.
 */
export function sqlCellText(
  type: ColumnType,
  value: RawBuilder<unknown>,
  formats: Pick<ExportTable, 'dateFormat' | 'timeFormat'>,
): RawBuilder<unknown> {
  switch (type) {
    case 'date':
      return sql`to_char(${value}, ${dayPattern(formats.dateFormat)})`;
    case 'datetime':
      return sql`to_char(${value}, ${`${dayPattern(formats.dateFormat)} ${clockPattern(formats.timeFormat)}`})`;
    case 'duration':
      return hms(value);
    case 'hours':
      return decimalHours(value);
    case 'money':
      return decimalMoney(value);
    case 'count':
      return sql`(${value})::text`;
    case 'text':
      return safeText(value);
  }
}
