import { type DayPiece, dayPieces, type TimedEntry, toMs, type ViewOptions } from './days.js';

export interface ViewEntry extends TimedEntry {
  projectId: string | null;
  taskId: string | null;
  tagIds?: readonly string[];
}

export interface ListDay<E extends ViewEntry> {
  day: string;
  total: number;
  items: { entry: E; piece: DayPiece }[];
}

/** Day list: every entry under each day it touches (newest day first), with day totals. */
export function listView<E extends ViewEntry>(entries: readonly E[], options: ViewOptions) {
  const days = new Map<string, ListDay<E>>();
  for (const entry of entries) {
    for (const piece of dayPieces(entry, options)) {
      const group = days.get(piece.day) ?? { day: piece.day, total: 0, items: [] };
      group.items.push({ entry, piece });
      group.total += piece.seconds;
      days.set(piece.day, group);
    }
  }
  const list = [...days.values()].sort((a, b) => b.day.localeCompare(a.day));
  for (const group of list) group.items.sort((a, b) => toMs(b.entry.start) - toMs(a.entry.start));
  return { days: list, total: list.reduce((sum, d) => sum + d.total, 0) };
}

/** The key of a week-grid row: project, task and tags. */
export const gridRowKey = (e: Pick<ViewEntry, 'projectId' | 'taskId' | 'tagIds'>): string =>
  [e.projectId ?? '', e.taskId ?? '', [...(e.tagIds ?? [])].sort().join(',')].join('|');

export interface GridRow<E extends ViewEntry> {
  key: string;
  projectId: string | null;
  taskId: string | null;
  tagIds: string[];
  cells: Record<string, number>;
  entries: Record<string, E[]>;
  total: number;
}

/** Week grid: rows of project/task/tags, one cell per day, row, column and week totals. */
export function gridView<E extends ViewEntry>(entries: readonly E[], days: readonly string[], options: ViewOptions) {
  const inWeek = new Set(days);
  const rows = new Map<string, GridRow<E>>();
  const columnTotals: Record<string, number> = Object.fromEntries(days.map((d) => [d, 0]));
  for (const entry of entries) {
    for (const piece of dayPieces(entry, options)) {
      if (!inWeek.has(piece.day)) continue;
      const key = gridRowKey(entry);
      const row = rows.get(key) ?? {
        key,
        projectId: entry.projectId,
        taskId: entry.taskId,
        tagIds: [...(entry.tagIds ?? [])].sort(),
        cells: Object.fromEntries(days.map((d) => [d, 0])),
        entries: Object.fromEntries(days.map((d) => [d, [] as E[]])),
        total: 0,
      };
      row.cells[piece.day] = (row.cells[piece.day] ?? 0) + piece.seconds;
      row.entries[piece.day]?.push(entry);
      row.total += piece.seconds;
      columnTotals[piece.day] = (columnTotals[piece.day] ?? 0) + piece.seconds;
      rows.set(key, row);
    }
  }
  const total = Object.values(columnTotals).reduce((a, b) => a + b, 0);
  return { rows: [...rows.values()], columnTotals, total };
}

export interface CalendarBlock<E extends ViewEntry> {
  entry: E;
  /** Minutes since the local midnight where the block starts and ends (may pass 1440 on 25-hour days). */
  top: number;
  bottom: number;
  seconds: number;
}

/** Calendar: per day, blocks placed by their local start and end, with day totals. */
export function calendarView<E extends ViewEntry>(
  entries: readonly E[],
  days: readonly string[],
  options: ViewOptions & { dayStartMs: (day: string) => number },
) {
  const columns = days.map((day) => ({ day, total: 0, blocks: [] as CalendarBlock<E>[] }));
  const byDay = new Map(columns.map((c) => [c.day, c]));
  for (const entry of entries) {
    for (const piece of dayPieces(entry, options)) {
      const column = byDay.get(piece.day);
      if (!column) continue;
      const midnight = options.dayStartMs(piece.day);
      column.blocks.push({
        entry,
        top: (piece.startMs - midnight) / 60_000,
        bottom: (piece.endMs - midnight) / 60_000,
        seconds: piece.seconds,
      });
      column.total += piece.seconds;
    }
  }
  return { columns, total: columns.reduce((sum, c) => sum + c.total, 0) };
}

export interface Lane {
  /** The block's lane (0 = leftmost) and how many lanes its group of overlapping blocks has. */
  lane: number;
  lanes: number;
}

/**
 * Side-by-side layout of one day's blocks (like Google Calendar): blocks that overlap in time,
 * directly or through a chain, form a group; each gets the leftmost lane free at its start, and
 * the group is as wide as its lanes. `minMinutes` is the shortest a block is drawn, so blocks
 * that touch on screen are laid out as overlapping too. Returns one Lane per block, in order.
 */
export function layoutLanes(blocks: readonly { top: number; bottom: number }[], minMinutes = 0): Lane[] {
  const result: Lane[] = blocks.map(() => ({ lane: 0, lanes: 1 }));
  const order = blocks
    .map((b, index) => ({ index, top: b.top, bottom: Math.max(b.bottom, b.top + minMinutes) }))
    .sort((a, b) => a.top - b.top || b.bottom - a.bottom);
  let group: number[] = [];
  let laneEnds: number[] = [];
  let groupEnd = Number.NEGATIVE_INFINITY;
  const close = () => {
    for (const index of group) (result[index] as Lane).lanes = laneEnds.length;
    group = [];
    laneEnds = [];
  };
  for (const block of order) {
    if (block.top >= groupEnd) close();
    let lane = laneEnds.findIndex((end) => end <= block.top);
    if (lane < 0) lane = laneEnds.push(block.bottom) - 1;
    else laneEnds[lane] = block.bottom;
    (result[block.index] as Lane).lane = lane;
    group.push(block.index);
    groupEnd = group.length === 1 ? block.bottom : Math.max(groupEnd, block.bottom);
  }
  close();
  return result;
}
