import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long work done in slices of a few milliseconds, other requests running between them: a Summary
 * of 535,000 groups took 4-12 s of Node in one piece, and every request of the process waited
 * behind it (issue 33). Ask `due()` once per unit of work (cheap: it reads the clock every 256
 * calls) and `await pause()` when it says so.
 */
export interface TimeSlices {
  /** Whether the slice is spent, the clock read every 256 calls: for the smallest units (a row, a cell). */
  due(): boolean;
  /** Whether the slice is spent, the clock read now: for larger units (a sort of thousands). */
  overdue(): boolean;
  pause(): Promise<void>;
}

/** Slices of `budgetMs` each (10 ms leaves room under a 50 ms stall for what runs between). */
export function timeSlices(budgetMs = 10): TimeSlices {
  let started = performance.now();
  let calls = 0;
  return {
    due: () => (++calls & 255) === 0 && performance.now() - started >= budgetMs,
    overdue: () => performance.now() - started >= budgetMs,
    async pause() {
      await nextTurn();
      started = performance.now();
    },
  };
}

/** Runs of this many items are sorted in one piece; longer arrays are merged run by run. */
const RUN = 4_096;

/**
 * Sorts `items` in place as `Array.prototype.sort` would (stable, the same order), pausing
 * between slices: runs of 4,096 sorted whole, then merged bottom-up, two runs at a time.
 */
export async function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number, slices: TimeSlices) {
  const n = items.length;
  if (n <= RUN) {
    items.sort(compare);
    return;
  }
  for (let lo = 0; lo < n; lo += RUN) {
    const run = items.slice(lo, lo + RUN).sort(compare);
    for (let i = 0; i < run.length; i++) items[lo + i] = run[i] as T;
    if (slices.overdue()) await slices.pause();
  }
  let from = items;
  let to: T[] = new Array(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      for (let i = lo; i < hi; i++) {
        // Ties take the left run's item first: stable, as Array.prototype.sort.
        if (a < mid && (b >= hi || compare(from[a] as T, from[b] as T) <= 0)) to[i] = from[a++] as T;
        else to[i] = from[b++] as T;
        if (slices.due()) await slices.pause();
      }
    }
    [from, to] = [to, from];
  }
  if (from !== items) for (let i = 0; i < n; i++) items[i] = from[i] as T;
}
