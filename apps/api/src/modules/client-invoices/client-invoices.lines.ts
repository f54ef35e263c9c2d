import {
  amountCents,
  convertCents,
  dayKey,
  dayPieces,
  type InvoiceGrouping,
  lineAmountCents,
  lineHundredths,
  NO_ROUNDING,
  type Rounding,
} from '@sundial/core';
import type { CandidateEntry, LineRow } from './client-invoices.repository.js';

/** An entry as invoiced: its seconds, hourly rate and amount, as the reports count them (in the workspace currency). */
export interface InvoicedEntry {
  entry_id: string;
  seconds: number;
  rate_cents: number | null;
  amount_cents: number;
}

export interface LineOptions {
  groupBy: InvoiceGrouping;
  /** The workspace's report zone: it names an entry's day. */
  timeZone: string;
  /** The workspace's rounding when invoices round as reports do, else none. */
  rounding: Rounding;
  /** A stated conversion (millionths) from the workspace currency into the invoice's, or null. */
  rateMicros: number | null;
}

const keyOf: Record<InvoiceGrouping, (e: CandidateEntry) => string> = {
  project: (e) => e.project_id ?? '',
  task: (e) => `${e.project_id}/${e.task_id ?? ''}`,
  person: (e) => e.user_id,
  entry: (e) => e.id,
};

const describe: Record<InvoiceGrouping, (e: CandidateEntry, timeZone: string) => string> = {
  project: (e) => e.project_name ?? 'No project',
  task: (e) => `${e.project_name ?? 'No project'} / ${e.task_name ?? 'No task'}`,
  person: (e) => e.user_name || 'Unnamed member',
  entry: (e, timeZone) =>
    [dayKey(e.start_at, timeZone), e.project_name, e.task_name, e.note.trim() || null]
      .filter((part) => part)
      .join(' · '),
};

/**
 * An entry's work as the reports count it: split at the local midnights of the report zone, each
 * day's part rounded (when invoices round as reports do) and priced on its own, breaks left out
 * (the `dayPieces` the report engine is held to).
 */
export function invoicedEntry(e: CandidateEntry, timeZone: string, rounding: Rounding): InvoicedEntry {
  const pieces = dayPieces(
    { id: e.id, start: e.start_at, end: e.end_at, breaks: e.breaks.map(([start, end]) => ({ start, end })) },
    { timeZone, rounding, now: e.end_at },
  );
  const rate = e.rate_cents ?? 0;
  return {
    entry_id: e.id,
    seconds: pieces.reduce((sum, p) => sum + p.seconds, 0),
    rate_cents: e.rate_cents,
    amount_cents: pieces.reduce((sum, p) => sum + amountCents(rate, p.seconds), 0),
  };
}

/**
 * The time lines of an invoice from its entries: one line per project, task, person or entry and
 * hourly rate, so every time line has its unit price. A line's quantity is its seconds in hundredths
 * of an hour and its amount that quantity times the unit price (converted first when the invoice is),
 * so quantity x price = amount as printed (decision 0019). Lines other than per-entry are in name order.
 */
export function timeLines(entries: readonly CandidateEntry[], options: LineOptions) {
  const rounding = options.rounding ?? NO_ROUNDING;
  const invoiced = entries.map((e) => invoicedEntry(e, options.timeZone, rounding));
  const groups = new Map<string, { description: string; seconds: number; rate: number }>();
  entries.forEach((e, i) => {
    const rate = e.rate_cents ?? 0;
    const key = `${keyOf[options.groupBy](e)}@${rate}`;
    const group = groups.get(key) ?? { description: describe[options.groupBy](e, options.timeZone), seconds: 0, rate };
    group.seconds += invoiced[i]?.seconds ?? 0;
    groups.set(key, group);
  });
  const ordered = [...groups.values()];
  if (options.groupBy !== 'entry')
    ordered.sort((a, b) => a.description.localeCompare(b.description) || a.rate - b.rate);
  const lines: LineRow[] = ordered.map((g, position) => {
    const unit = options.rateMicros === null ? g.rate : convertCents(g.rate, options.rateMicros);
    return {
      position,
      kind: 'time',
      description: g.description,
      seconds: g.seconds,
      rate_cents: unit,
      amount_cents: lineAmountCents(unit, lineHundredths(g.seconds)),
    };
  });
  return { lines, invoiced };
}

/** Fixed-price lines sit after the time lines (positions from this one). */
export const FIXED_LINES_FROM = 100_000;
