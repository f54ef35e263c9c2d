import { type DayPiece, dayPieces, type TimedEntry, toMs, type ViewOptions } from './days.js';
import { clockChanges, wallMinutes } from './wall-clock.js';

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
  /**
   * Wall-clock minutes of the day where the block starts and ends (09:00 is 540 on every day, DST
   * days included; 0 to 1440). An entry across the hour that falls back is drawn as two blocks
   * (`part` 0 and 1), each where the clock stood: the repeated hour holds both passes side by side.
   */
  top: number;
  bottom: number;
  seconds: number;
  part: number;
}

/** Calendar: per day, blocks placed by the wall-clock time of their start and end, with day totals. */
export function calendarView<E extends ViewEntry>(
  entries: readonly E[],
  days: readonly string[],
  options: ViewOptions,
) {
  const columns = days.map((day) => ({
    day,
    total: 0,
    blocks: [] as CalendarBlock<E>[],
    changes: clockChanges(day, options.timeZone),
  }));
  const byDay = new Map(columns.map((c) => [c.day, c]));
  const clock = (ms: number, day: string) => Math.min(1440, Math.max(0, wallMinutes(ms, day, options.timeZone)));
  for (const entry of entries) {
    for (const piece of dayPieces(entry, options)) {
      const column = byDay.get(piece.day);
      if (!column) continue;
      // Where the clocks go back, the wall clock runs backwards: split there, so each part runs forward.
      const cuts = column.changes.filter(
        (c) => c.kind === 'repeated' && piece.startMs < c.atMs && c.atMs < piece.endMs,
      );
      let top = clock(piece.startMs, piece.day);
      for (const [part, cut] of cuts.entries()) {
        // The part before the change ends where the clock stood then (03:00), the next starts after it (02:00).
        column.blocks.push({ entry, top, bottom: cut.to, seconds: piece.seconds, part });
        top = cut.from;
      }
      column.blocks.push({
        entry,
        top,
        bottom: clock(piece.endMs, piece.day),
        seconds: piece.seconds,
        part: cuts.length,
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
