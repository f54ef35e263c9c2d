/** How exported values read as text: dates in the viewer's format, durations, money, safe cells. */

import { formatCalendarDay } from '@sundial/core';

/**
 * Whether a date or datetime column's cell holds a day ("2026-11-02…"): the same column also holds
 * labels (the totals row's "Total"), which every writer shows as text.
 */
export const isDayValue = (value: string | number): boolean => /^\d{4}-\d\d-\d\d/.test(String(value));

/** A profile's date format as a spreadsheet's number format ("dd/mm/yyyy"). */
export function excelDateFormat(dateFormat: string): string {
  return (
    { 'DD/MM/YYYY': 'dd/mm/yyyy', 'MM/DD/YYYY': 'mm/dd/yyyy', 'DD.MM.YYYY': 'dd.mm.yyyy' }[dateFormat] ?? 'yyyy-mm-dd'
  );
}

/** A local wall-clock time ("2026-11-02T09:30:00") as the viewer writes times: "09:30" or "9:30 AM". */
export function formatClock(local: string, timeFormat: string): string {
  const h = Number(local.slice(11, 13));
  const mm = local.slice(14, 16);
  if (timeFormat === '12h') return `${h % 12 === 0 ? 12 : h % 12}:${mm} ${h < 12 ? 'AM' : 'PM'}`;
  return `${local.slice(11, 13)}:${mm}`;
}

/** A local wall-clock time as date and time in the viewer's formats. */
export const formatDateTime = (local: string, dateFormat: string, timeFormat: string) =>
  `${formatCalendarDay(local, dateFormat)} ${formatClock(local, timeFormat)}`;

/** Seconds as h:mm:ss ("27:05:09"; negative with a sign). */
export function hms(seconds: number): string {
  const abs = Math.abs(Math.round(seconds));
  const text = `${Math.floor(abs / 3600)}:${String(Math.floor((abs % 3600) / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return seconds < 0 && abs > 0 ? `-${text}` : text;
}

/** Seconds as decimal hours with two places ("1.50"), from integer hundredths so no float creeps in. */
export function decimalHours(seconds: number): string {
  const hundredths = Math.round(Math.abs(seconds) / 36);
  const text = `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
  return seconds < 0 && hundredths > 0 ? `-${text}` : text;
}

/** Integer cents as a plain decimal ("1234.50", "-3.05"): what spreadsheets read as a number. */
export function decimalMoney(cents: number): string {
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}

/**
 * Where a spreadsheet may start a cell inside our text: after a comma, a semicolon (the list
 * separator of German or French Excel, which splits our comma-separated lines there and reads
 * quotes only at a field's start), a tab, or a line break (which ends a record wherever a field
 * did not start with a quote). Such a place followed (past spaces, tabs and quotes) by = + - @
 * would begin a formula. The patterns hold the characters themselves, so JavaScript and
 * PostgreSQL read them alike.
 */
export const FORMULA_AFTER_SEPARATOR = '([,;\t\r\n])(?=[ \t"]*[=+@-])';
/** A cell that begins (past blank space) with = + - @, or with a tab or carriage return that some programs strip. */
export const FORMULA_AT_START = '^[ \t\r\n]*[=+@-]|^[\t\r]';
const afterSeparator = new RegExp(FORMULA_AFTER_SEPARATOR, 'g');
const atStart = new RegExp(FORMULA_AT_START);

/**
 * A text cell made inert for spreadsheets (OWASP's CSV injection advice, for every separator Excel
 * and LibreOffice split a .csv on): a leading apostrophe when it would start as a formula, and
 * one after each separator inside it that a formula could follow ("safe;=1+1" becomes
 * "safe;'=1+1"). Numbers, money and dates are not text and stay as they are. exports.copy.ts
 * does the same in SQL with the same two patterns.
 */
export function safeText(value: string): string {
  const inner = value.replace(afterSeparator, "$1'");
  return atStart.test(value) ? `'${inner}` : inner;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();
/** Per zone, the offset of each quarter hour met so far (by its first instant). */
const offsets = new Map<string, Map<number, number>>();
/** Time zones change their offset on quarter hours: one offset per zone and quarter hour serves every instant in it. */
const QUARTER_HOUR = 900_000;

function offsetOf(ms: number, timeZone: string): number {
  const bucket = Math.floor(ms / QUARTER_HOUR) * QUARTER_HOUR;
  let zone = offsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  let offset = zone.get(bucket);
  if (offset === undefined) {
    let format = wallClocks.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      wallClocks.set(timeZone, format);
    }
    const p: Record<string, string> = {};
    for (const part of format.formatToParts(new Date(bucket))) p[part.type] = part.value;
    offset =
      Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) -
      bucket;
    if (zone.size > 100_000) zone.clear();
    zone.set(bucket, offset);
  }
  return offset;
}

const DAY = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** The last local day written: an export's rows come in order, so most share their neighbour's day. */
let lastDay = Number.NaN;
let lastDayText = '';

/** An instant's local wall-clock time in a time zone, as "YYYY-MM-DDTHH:mm:ss". */
export function localTime(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  const local = ms + offsetOf(ms, timeZone);
  const day = Math.floor(local / DAY);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(day * DAY).toISOString().slice(0, 10);
  }
  const second = Math.floor((local - day * DAY) / 1000);
  return `${lastDayText}T${TWO_DIGITS[Math.floor(second / 3600)]}:${TWO_DIGITS[Math.floor(second / 60) % 60]}:${TWO_DIGITS[second % 60]}`;
}
