import type { DetailedEntryView, DetailedReportQuery, DetailedReportView } from '@sundial/core';
import type { RawBuilder } from 'kysely';
import { copyOutFor, type Db, isEmbedded } from '../../db/connection.js';
import { allows, type MoneyAccess, moneyAccessOf, seesMoneyOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import {
  compileDetailedCells,
  compileDetailedListing,
  compileDetailedPage,
  compileDetailedTotals,
  type DetailedAfter,
  type DetailedRow,
  type DetailedSortKey,
  reportsRepository as repo,
  type SeenPeople,
  type StartPart,
} from './reports.repository.js';
import type { ReportScope } from './reports.scope.js';
import type { EngineFilter } from './reports.time-source.js';

/** A MoneyAccess set as the engine's list of people whose amounts show (null: everyone's). */
const peopleOf = (allowed: Set<string> | null): SeenPeople => (allowed === null ? null : [...allowed]);

/** The Detailed report: keyset pages, the whole listing streamed or copied as CSV, its count. */
export function createDetailed(db: Db, { resolve, rangeOf }: ReportScope) {
  /**
   * Ranges of starts that cut a listing into about `parts` equal parts, in start order; none
   * (copy it whole) when it holds fewer than `splitRows` entries or one start.
   */
  async function startParts(f: EngineFilter, parts: number, splitRows: number): Promise<StartPart[]> {
    const exact = splitRows === 0;
    const { splits, sampled } = await repo.startSplits(db, f, parts, exact);
    // A 1 % sample of the pages: each sampled entry stands for about a hundred.
    if (splits.length === 0 || (exact ? sampled : sampled * 100) < splitRows) return [];
    const bounds = [undefined, ...splits, undefined];
    return splits.concat('').map((_, i) => ({
      ...(bounds[i] === undefined ? {} : { from: bounds[i] }),
      ...(bounds[i + 1] === undefined ? {} : { to: bounds[i + 1] }),
    }));
  }

  /**
   * A Detailed row as the API gives it, its amounts shown only where the actor may see them, and
   * its invoice to those who manage invoices (`seesInvoices`).
   */
  const entryView = (r: DetailedRow, access: MoneyAccess, seesInvoices: boolean): DetailedEntryView => ({
    id: r.id,
    userId: r.user_id,
    userName: r.user_name,
    projectId: r.project_id,
    projectName: r.project_name,
    projectColor: r.project_color,
    clientName: r.client_name,
    taskId: r.task_id,
    taskName: r.task_name,
    tagIds: r.tag_ids,
    tagNames: r.tag_names,
    note: r.note,
    billable: r.billable,
    invoiced: r.invoiced_at !== null,
    start: new Date(r.start_at).toISOString(),
    end: r.end_at === null ? null : new Date(r.end_at).toISOString(),
    seconds: Number(r.seconds),
    billableAmount: seesMoneyOf(access.billableOf, r.user_id) ? Number(r.billable_cents) : null,
    costAmount: seesMoneyOf(access.costOf, r.user_id) ? Number(r.cost_cents) : null,
    invoice: seesInvoices && r.invoice_id ? { id: r.invoice_id, number: r.invoice_number } : null,
  });

  /** One keyset page of the Detailed report, each row's amounts shown only where the actor may see them. */
  /** A cursor's keyset; a description page's note comes from its entry, which must still be there. */
  async function afterOf(f: EngineFilter, sort: DetailedSortKey['sort'], cursor: string): Promise<DetailedAfter> {
    const after = readCursor(cursor);
    if (sort !== 'description') return after;
    const note = await repo.noteOf(db, f.workspaceId, after.id);
    if (note === undefined) throw badCursor();
    return { ...after, value: note };
  }

  async function detailedPage(
    f: EngineFilter,
    access: MoneyAccess,
    seesInvoices: boolean,
    sort: DetailedSortKey,
    after: DetailedAfter | undefined,
    limit: number,
  ): Promise<{ items: DetailedEntryView[]; next: DetailedAfter | null }> {
    const rows = await repo.detailed(
      db,
      compileDetailedPage(f, { sort: sort.sort, order: sort.order, after, limit: limit + 1 }),
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => entryView(r, access, seesInvoices)),
      next:
        rows.length > limit && last
          ? {
              // A description page's cursor holds no note text (it rides in URLs, and so in logs): the
              // note is read back by id when the next page is asked for (afterOf).
              value: sort.sort === 'duration' ? Number(last.seconds) : '',
              start: new Date(last.start_at).toISOString(),
              id: last.id,
            }
          : null,
    };
  }

  return {
    /** Detailed: every entry overlapping the range, one keyset page at a time. */
    async detailed(actor: Actor, q: DetailedReportQuery, now = new Date()): Promise<DetailedReportView> {
      const f = await resolve(actor, q, now);
      const access = await moneyAccessOf(db, actor);
      const { items, next } = await detailedPage(
        f,
        access,
        allows(actor.membership, 'invoices:manage'),
        q,
        q.cursor ? await afterOf(f, q.sort, q.cursor) : undefined,
        q.limit,
      );
      return { range: rangeOf(f), items, nextCursor: next ? writeCursor(next) : null };
    },

    /**
     * The whole Detailed report `chunkSize` entries at a time, in the order of `detailed`'s pages
     * (for exports: memory holds one chunk, whatever the report's size). Filters are resolved (and
     * refused) before this returns; reading starts with the first chunk.
     * On PostgreSQL it is ONE statement read through a cursor, which holds a pooled connection until
     * the last chunk is read or the reader stops: read it after every other query.
     * On PGlite (one connection for everyone) each chunk is a keyset page of its own, a short
     * statement, and other requests go between them (docs/decisions/0016): the pages follow one
     * another as on screen, so a write made meanwhile shows if it lands after the page read last.
     * `heldCursor` reads PGlite as before issue 33 instead: one statement run whole into a cursor
     * WITH HOLD, which holds the connection for that run (to compare, bench/pglite-stalls.mjs).
     */
    async detailedStream(
      actor: Actor,
      q: Omit<DetailedReportQuery, 'cursor' | 'limit'>,
      chunkSize = 2000,
      o: { now?: Date; heldCursor?: boolean } = {},
    ) {
      const f = await resolve(actor, q, o.now ?? new Date());
      const access = await moneyAccessOf(db, actor);
      const paged = isEmbedded(db) && !o.heldCursor;
      async function* chunks(): AsyncGenerator<DetailedEntryView[]> {
        if (!paged) {
          for await (const rows of repo.stream(db, compileDetailedListing(f, q), chunkSize))
            yield rows.map((r) => entryView(r, access, false));
          return;
        }
        let after: DetailedAfter | undefined;
        for (;;) {
          const rows = await repo.detailed(
            db,
            compileDetailedPage(f, { sort: q.sort, order: q.order, after, limit: chunkSize }),
          );
          if (rows.length > 0) yield rows.map((r) => entryView(r, access, false));
          const last = rows[rows.length - 1];
          if (!last || rows.length < chunkSize) return;
          // The keyset of the page's last row (the note itself: this cursor never leaves the process).
          after = {
            value: q.sort === 'duration' ? Number(last.seconds) : q.sort === 'description' ? last.note : '',
            start: new Date(last.start_at).toISOString(),
            id: last.id,
          };
        }
      }
      return { range: rangeOf(f), access, chunks: chunks() };
    },

    /**
     * The Detailed report as CSV that PostgreSQL writes itself (`COPY … TO STDOUT`): the rows of
     * `detailedStream`, in its order, each laid out by `cells` (SQL over `d.<DetailedCellColumn>`,
     * chosen knowing what money the actor sees and the report's zone), and the listing's totals
     * counted in the same snapshot while it streams (`totals` settles by the time the copy ends,
     * usually long before). A million rows then cost Node no parsing or objects (bench/README.md,
     * Exports). Sorted by start, a listing of at least `splitRows` entries (by a 1 % sample; 0:
     * always, from exact quantiles) is copied in `parts` ranges of starts at once, on as many
     * connections, which keeps that many database cores busy; the bytes are the same. Null on
     * PGlite, which cannot copy to a client: read `detailedStream` there. The CSV stream holds its
     * connections until it is read to the end or destroyed.
     */
    async detailedCsv(
      actor: Actor,
      q: Omit<DetailedReportQuery, 'cursor' | 'limit'>,
      cells: (context: { access: MoneyAccess; timeZone: string }) => RawBuilder<unknown>[],
      o: { parts?: number; splitRows?: number; now?: Date } = {},
    ) {
      const copyOut = copyOutFor(db);
      if (!copyOut) return null;
      const f = await resolve(actor, q, o.now);
      const access = await moneyAccessOf(db, actor);
      const seen = { billable: peopleOf(access.billableOf), cost: peopleOf(access.costOf) };
      const laidOut = cells({ access, timeZone: f.timeZone });
      const parts = q.sort === 'start' && (o.parts ?? 1) > 1 ? await startParts(f, o.parts ?? 1, o.splitRows ?? 0) : [];
      if (q.order === 'desc') parts.reverse();
      const { beside, csv } = await copyOut({
        beside: [compileDetailedTotals(f, seen).compile(db)],
        copies: (parts.length ? parts : [undefined]).map((part) =>
          compileDetailedCells(f, q, seen, laidOut, part).compile(db),
        ),
        // The listing's sort of a large export fits in memory instead of spilling to disk.
        workMem: '128MB',
      });
      const amount = (value: unknown) => (value === null || value === undefined ? null : Number(value));
      const totals = beside.then(([rows]) => {
        const t = rows?.[0] ?? {};
        return {
          entries: Number(t.entries ?? 0),
          seconds: Number(t.seconds ?? 0),
          billableAmount: amount(t.billable_cents),
          costAmount: amount(t.cost_cents),
        };
      });
      // Read with the last line, maybe never (a reader gone early).
      totals.catch(() => undefined);
      return {
        range: rangeOf(f),
        access,
        totals,
        csv,
      };
    },

    /**
     * How many entries the Detailed report lists for the actor (its rows), counted without reading
     * them; with `limit`, counting stops there (enough to tell "more than limit"). Throws as the report does.
     */
    async detailedCount(
      actor: Actor,
      q: Omit<DetailedReportQuery, 'cursor' | 'limit'>,
      limit?: number,
      now = new Date(),
    ): Promise<number> {
      const f = await resolve(actor, q, now);
      return repo.entryCount(db, f, limit);
    },
  };
}

function writeCursor(after: DetailedAfter): string {
  return Buffer.from(JSON.stringify([after.value, after.start, after.id])).toString('base64url');
}

const badCursor = () =>
  new AppError('invalid_cursor', 'This page link is no longer valid: start again from the first page.', {
    status: 400,
  });

function readCursor(cursor: string): DetailedAfter {
  try {
    const [value, start, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      (typeof value !== 'string' && typeof value !== 'number') ||
      typeof start !== 'string' ||
      Number.isNaN(Date.parse(start)) ||
      typeof id !== 'string' ||
      !/^[0-9a-f-]{36}$/i.test(id)
    )
      throw badCursor();
    return { value, start, id };
  } catch {
    throw badCursor();
  }
}
