import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { TZDate } from '@date-fns/tz';
import { isInstantInRange, isStorableText, NAME_MAX } from '@sundial/core';
import { type Options as CsvOptions, type Parser, parse } from 'csv-parse';
import { AppError } from '../../platform/errors.js';

export { IMPORT_SOURCE_LABELS as SOURCE_LABELS, IMPORT_SOURCES, type ImportSource } from '@sundial/core';

/** One row of any import, in our terms. */
export interface ImportRow {
  line: number;
  client: string | null;
  project: string | null;
  /** Task titles from the top-level task down to the row's task. */
  taskPath: string[];
  tags: string[];
  /** Who the row's task is assigned to, as the file names them (an e-mail or a name). */
  assignees: string[];
  entry: { email: string | null; note: string; billable: boolean; start: Date; seconds: number } | null;
  error: string | null;
}

/** Limits of one file, checked while it streams in. */
export const MAX_ROWS = 1_000_000;
export const MAX_BYTES = 100_000_000;
/** Rows handed on at a time (staged in one insert). */
export const BATCH_ROWS = 1000;
/** Rows read between turns of the event loop, so other requests wait a few milliseconds at most. */
const ROWS_PER_TURN = 100;

const clean = (v: string | undefined) => (v ?? '').trim();
const yes = (v: string) => /^(yes|true|1|y)$/i.test(v.trim());

/** "2026-11-02", "11/02/2026" (US, as Clockify and Toggl write by default) or "02.11.2026"; null for no such day. */
function parseDate(value: string): [number, number, number] | null {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (m) return realDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (m) return realDay(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  if (m) return realDay(Number(m[3]), Number(m[2]), Number(m[1]));
  return null;
}

/** The day, unless it does not exist ("2026-02-30", month 13). */
function realDay(year: number, month: number, day: number): [number, number, number] | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? [year, month, day] : null;
}

/** "09:30", "09:30:15", "9:30 AM", "09:30:15 PM". */
function parseTime(value: string): [number, number, number] | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(value);
  if (!m) return null;
  let h = Number(m[1]);
  const ampm = m[4]?.toLowerCase();
  if (ampm === 'pm' && h < 12) h += 12;
  if (ampm === 'am' && h === 12) h = 0;
  if (h > 23 || Number(m[2]) > 59) return null;
  return [h, Number(m[2]), Number(m[3] ?? 0)];
}

/** "01:30:00" or "1:30" (hours:minutes[:seconds]) or "1.5" (decimal hours) to seconds. */
function parseDuration(value: string): number | null {
  const hms = /^(\d+):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (hms) return Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3] ?? 0);
  const decimal = /^\d+(?:[.,]\d+)?$/.exec(value);
  if (decimal) return Math.round(Number.parseFloat(value.replace(',', '.')) * 3600);
  return null;
}

function localInstant(date: [number, number, number], time: [number, number, number], timeZone: string): Date {
  return new Date(new TZDate(date[0], date[1] - 1, date[2], time[0], time[1], time[2], timeZone).getTime());
}

type Record_ = Record<string, string>;
const pick = (r: Record_, ...names: string[]) => {
  for (const n of names) if (r[n] !== undefined && clean(r[n]) !== '') return clean(r[n]);
  return '';
};

function toEntry(r: Record_, timeZone: string): { entry: ImportRow['entry']; error: string | null } {
  const dateText = pick(r, 'start date', 'date');
  if (!dateText) return { entry: null, error: null };
  const date = parseDate(dateText);
  if (!date) return { entry: null, error: `The date “${dateText}” is not understood.` };
  const timeText = pick(r, 'start time');
  // Harvest records hours per day without a start time: such entries start at 09:00.
  const time = timeText ? parseTime(timeText) : [9, 0, 0];
  if (!time) return { entry: null, error: `The time “${timeText}” is not understood.` };
  const start = localInstant(date, time as [number, number, number], timeZone);
  if (!isInstantInRange(start.getTime())) {
    return { entry: null, error: `The date “${dateText}” is not between the years 1970 and 9999.` };
  }
  let seconds: number | null = null;
  const endDate = pick(r, 'end date');
  const endTime = pick(r, 'end time');
  if (endDate && endTime) {
    const d = parseDate(endDate);
    const t = parseTime(endTime);
    if (!d || !t) return { entry: null, error: `The end “${endDate} ${endTime}” is not understood.` };
    seconds = Math.round((localInstant(d, t, timeZone).getTime() - start.getTime()) / 1000);
  } else {
    const durationText = pick(r, 'duration', 'duration (decimal)', 'duration (h)', 'hours');
    seconds = parseDuration(durationText);
    if (seconds === null) return { entry: null, error: `The duration “${durationText}” is not understood.` };
  }
  if (seconds < 0) return { entry: null, error: 'The entry ends before it starts.' };
  if (seconds > 7 * 86400) return { entry: null, error: 'The entry is longer than a week.' };
  return {
    entry: {
      email: pick(r, 'email') || null,
      note: pick(r, 'description', 'notes', 'note').slice(0, 5000),
      billable: yes(pick(r, 'billable', 'billable?')),
      start,
      seconds,
    },
    error: null,
  };
}

export function checkName(what: string, value: string | null): string | null {
  if (value !== null && value.length > NAME_MAX) return `${what} must be at most ${NAME_MAX} characters.`;
  return null;
}

/** One record of the file (headers lower-cased) as a row, with the first problem found in it. */
export function readRecord(r: Record_, line: number, timeZone: string): ImportRow {
  const client = pick(r, 'client') || null;
  const project = pick(r, 'project', 'name') || null;
  const task = pick(r, 'task', 'task title');
  const parent = pick(r, 'parent task', 'parent');
  const taskPath = [
    ...(parent ? parent.split('>').map((s) => s.trim()) : []),
    ...(task ? task.split('>').map((s) => s.trim()) : []),
  ].filter(Boolean);
  const tags = [
    ...new Set(
      pick(r, 'tags', 'tag')
        .split(/[,;]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const { entry, error: entryError } = toEntry(r, timeZone);
  let error =
    (Object.values(r).every((v) => v === undefined || isStorableText(v))
      ? null
      : 'The row holds a character that cannot be stored (a NUL or a broken emoji).') ??
    checkName('Client name', client) ??
    checkName('Project name', project) ??
    taskPath.map((t) => checkName('Task title', t)).find(Boolean) ??
    tags.map((t) => checkName('Tag name', t)).find(Boolean) ??
    entryError;
  if (!error && taskPath.length > 0 && !project) error = 'A task needs a project.';
  if (!error && !project && !entry) error = 'The row has no project.';
  return { line, client, project, taskPath, tags, assignees: [], entry, error: error ?? null };
}

export interface ReadLimits {
  maxBytes: number;
  maxRows: number;
}

export const tooLarge = (limits: ReadLimits) =>
  new AppError('import_too_large', `The file is larger than ${limits.maxBytes / 1_000_000} MB; split it.`, {
    status: 413,
  });
export const tooManyRows = (limits: ReadLimits) =>
  new AppError(
    'import_too_large',
    `The file has more than ${limits.maxRows.toLocaleString('en-US')} rows; split it. Nothing was imported.`,
    { status: 413 },
  );

/**
 * Reads a CSV export of our own format or of Toggl Track, Clockify or Harvest as it streams in,
 * handing on rows `BATCH_ROWS` at a time (the file is never held whole). Our format: columns
 * Client, Project, Task and optionally Parent Task (or a Task written as "Design > Logo"). The
 * add-ons' detailed time exports also bring tags and time entries. The byte and row limits stop
 * the reading as soon as they are passed; the caller stops the upload. Lines are the file's
 * (a quoted value over several lines counts them; a row's line is where it ends).
 */
export async function readImport(
  input: Readable,
  timeZone: string,
  onRows: (rows: ImportRow[], progress: { bytes: number; rows: number }) => Promise<void>,
  limits: ReadLimits = { maxBytes: MAX_BYTES, maxRows: MAX_ROWS },
): Promise<{ bytes: number; rows: number }> {
  const { parser, bytes, close } = csvStream(input, limits);
  let rows = 0;
  let batch: ImportRow[] = [];
  const flush = async () => {
    const full = batch;
    batch = [];
    await onRows(full, { bytes: bytes(), rows });
    await yieldToEvents();
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record_; info: { lines: number } }>) {
      if (rows === 0) checkColumns(Object.keys(record));
      rows += 1;
      if (rows > limits.maxRows) throw tooManyRows(limits);
      batch.push(readRecord(record, info.lines, timeZone));
      if (batch.length >= BATCH_ROWS) await flush();
      else if (rows % ROWS_PER_TURN === 0) await yieldToEvents();
    }
  } catch (error) {
    throw csvError(error);
  } finally {
    close();
  }
  if (rows === 0) throw new AppError('invalid_csv', 'The file has no rows.', { status: 422 });
  if (batch.length > 0) await flush();
  return { bytes: bytes(), rows };
}

/** Counts the bytes of `input` as they pass, failing the stream past the byte limit. */
export function byteCounter(input: Readable, limits: ReadLimits): { counter: Transform; bytes: () => number } {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > limits.maxBytes ? tooLarge(limits) : null, chunk);
    },
  });
  input.on('error', (error) => counter.destroy(error));
  return { counter, bytes: () => bytes };
}

/**
 * `input` through the byte counter into csv-parse's stream parser (headers trimmed and
 * lower-cased, records with their line); `close` detaches them once the caller is done.
 */
export function csvStream(
  input: Readable,
  limits: ReadLimits,
  options: Pick<CsvOptions, 'group_columns_by_name'> = {},
): { parser: Parser; bytes: () => number; close: () => void } {
  const { counter, bytes } = byteCounter(input, limits);
  const parser = parse({
    columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
    bom: true,
    info: true,
    ...options,
  });
  counter.on('error', (error) => parser.destroy(error));
  input.pipe(counter).pipe(parser);
  return {
    parser,
    bytes,
    close: () => {
      input.unpipe(counter);
      counter.unpipe(parser);
    },
  };
}

/** csv-parse's own errors (CSV_…) are the file's fault: a 422 saying so; the rest (limits, storage) pass through. */
export function csvError(error: unknown): unknown {
  if (!String((error as { code?: unknown }).code).startsWith('CSV_')) return error;
  return new AppError('invalid_csv', `The file is not a readable CSV file: ${(error as Error).message}`, {
    status: 422,
  });
}

function checkColumns(columns: string[]): void {
  if (!columns.includes('project') && !columns.includes('name')) {
    throw new AppError(
      'invalid_csv',
      `The file needs a “Project” column. Its columns are: ${columns.join(', ') || 'none'}.`,
      { status: 422 },
    );
  }
}
