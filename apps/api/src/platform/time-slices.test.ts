import { describe, expect, it } from 'vitest';
import { sortInSlices, timeSlices } from './time-slices.js';

/** A sort in time slices gives Array.prototype.sort's order, ties kept in place (stable). */
describe('sortInSlices', () => {
  const compare = (a: { k: number }, b: { k: number }) => a.k - b.k;
  it.each([0, 1, 4_096, 4_097, 10_000, 33_333])('sorts %i items as Array.prototype.sort', async (n) => {
    let seed = n + 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    // Few distinct keys: many ties, so a lost stability shows in the `i` order.
    const items = Array.from({ length: n }, (_, i) => ({ k: random() % 97, i }));
    const expected = [...items].sort(compare);
    await sortInSlices(items, compare, timeSlices(0));
    expect(items).toEqual(expected);
  });

  it('lets other work run between its slices', async () => {
    const items = Array.from({ length: 50_000 }, (_, i) => ({ k: (i * 7_919) % 50_000 }));
    let ranBetween = false;
    setImmediate(() => {
      ranBetween = true;
    });
    await sortInSlices(items, compare, timeSlices(0));
    expect(ranBetween).toBe(true);
    expect(items.every((item, i) => i === 0 || (items[i - 1] as { k: number }).k <= item.k)).toBe(true);
  });
});
