import { amountCents, type InvoiceGrouping } from '@sundial/core';
import type { CandidateEntry, LineRow } from './client-invoices.repository.js';

/** An entry as invoiced: its seconds, hourly rate and amount (the one amount rule of `amountCents`). */
export interface InvoicedEntry {
  entry_id: string;
  seconds: number;
  rate_cents: number | null;
  amount_cents: number;
}

const keyOf: Record<InvoiceGrouping, (e: CandidateEntry) => string> = {
  project: (e) => e.project_id ?? '',
  task: (e) => `${e.project_id}/${e.task_id ?? ''}`,
  person: (e) => e.user_id,
  entry: (e) => e.id,
};

const describe: Record<InvoiceGrouping, (e: CandidateEntry) => string> = {
  project: (e) => e.project_name ?? 'No project',
  task: (e) => `${e.project_name ?? 'No project'} / ${e.task_name ?? 'No task'}`,
  person: (e) => e.user_name || 'Unnamed member',
  entry: (e) =>
    [e.start_at.toISOString().slice(0, 10), e.project_name, e.task_name, e.note.trim() || null]
      .filter((part) => part)
      .join(' · '),
};

/**
 * The time lines of an invoice from its entries: one line per project, task, person or entry,
 * each the sum of its entries' stored amounts (rate times seconds, rounded per entry as reports do),
 * with the rate when all its entries share it. Lines other than per-entry are in name order.
 */
export function timeLines(entries: readonly CandidateEntry[], groupBy: InvoiceGrouping) {
  const invoiced: InvoicedEntry[] = entries.map((e) => ({
    entry_id: e.id,
    seconds: e.seconds,
    rate_cents: e.rate_cents,
    amount_cents: amountCents(e.rate_cents ?? 0, e.seconds),
  }));
  const groups = new Map<string, { description: string; seconds: number; amount: number; rates: Set<number | null> }>();
  entries.forEach((e, i) => {
    const key = keyOf[groupBy](e);
    const group = groups.get(key) ?? { description: describe[groupBy](e), seconds: 0, amount: 0, rates: new Set() };
    group.seconds += e.seconds;
    group.amount += invoiced[i]?.amount_cents ?? 0;
    group.rates.add(e.rate_cents);
    groups.set(key, group);
  });
  const ordered = [...groups.values()];
  if (groupBy !== 'entry') ordered.sort((a, b) => a.description.localeCompare(b.description));
  const lines: LineRow[] = ordered.map((g, position) => ({
    position,
    kind: 'time',
    description: g.description,
    seconds: g.seconds,
    rate_cents: g.rates.size === 1 ? ([...g.rates][0] ?? null) : null,
    amount_cents: g.amount,
  }));
  return { lines, invoiced };
}

/** Fixed-price lines sit after the time lines (positions from this one). */
export const FIXED_LINES_FROM = 100_000;
