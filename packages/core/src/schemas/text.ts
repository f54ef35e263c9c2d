import { z } from 'zod';

/**
 * A NUL character (PostgreSQL refuses it in text) or half of a UTF-16 surrogate pair (not a
 * character at all: it cannot be encoded as UTF-8). Either one makes a string unstorable.
 */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const textMessages = {
  unstorable: 'This text contains a character that cannot be stored (a NUL or a broken Unicode character).',
  dateOutOfRange: 'Enter a date between the years 1970 and 9999.',
  dateTime: 'Enter a date and time.',
} as const;

/** Whether a string can be stored and shown as it is: no NUL and no unpaired surrogate. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

export interface TextOptions {
  /** Longest accepted length, after trimming. */
  max: number;
  /** Shortest accepted length, after trimming (0 unless given). */
  min?: number;
  /** Said when the value is missing or shorter than `min`. */
  required?: string;
  /** Said when the value is longer than `max`. */
  tooLong?: string;
  /** Keep leading and trailing white space (passwords, tokens). Trimmed unless false. */
  trim?: boolean;
}

/**
 * The one text type of the API and the forms: refuses NUL and unpaired surrogates (which
 * PostgreSQL cannot store) with a message naming the problem, trims, and bounds the length.
 * Every string an API request carries, in its body, query or path, is one of these.
 */
export function text(options: TextOptions) {
  const required = options.required ?? 'This field is required.';
  let schema = z.string({ error: required });
  if (options.trim !== false) schema = schema.trim();
  schema = schema.refine(isStorableText, { message: textMessages.unstorable, abort: true });
  if (options.min) schema = schema.min(options.min, required);
  return schema.max(options.max, options.tooLong ?? `Enter at most ${options.max} characters.`);
}

/** Earliest and latest instants Sundial stores: the product has no use for others, and both databases agree on them. */
export const MIN_INSTANT = Date.UTC(1970, 0, 1);
export const MAX_INSTANT = Date.UTC(10000, 0, 1) - 1;

/** Whether a moment (ms since the epoch) lies in the years Sundial stores, 1970 to 9999. */
export function isInstantInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_INSTANT && ms <= MAX_INSTANT;
}

/** An ISO 8601 date and time with an offset ("2026-11-24T09:00:00+01:00"), in the years 1970 to 9999. */
export const instantSchema = z.iso
  .datetime({ offset: true, error: textMessages.dateTime })
  .refine((value) => isInstantInRange(Date.parse(value)), { message: textMessages.dateOutOfRange, abort: true });
