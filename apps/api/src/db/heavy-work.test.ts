import { describe, expect, it } from 'vitest';
import { createHeavyWork } from './heavy-work.js';

describe('heavy work slots', () => {
  it('lets `slots` in at once, then serves waiters first come, first served', async () => {
    const heavy = createHeavyWork(2);
    const first = await heavy.acquire();
    await heavy.acquire();
    const order: string[] = [];
    const a = heavy.acquire().then((release) => {
      order.push('a');
      return release;
    });
    const b = heavy.acquire().then((release) => {
      order.push('b');
      return release;
    });
    // Full, and someone waits: an optional extra connection is not taken past them.
    expect(heavy.tryAcquire()).toBeUndefined();
    first();
    first(); // a second release of the same slot frees nothing more
    const releaseA = await a;
    expect(order).toEqual(['a']);
    releaseA();
    await b;
    expect(order).toEqual(['a', 'b']);
  });

  it('gives an optional slot only when one is free', () => {
    const heavy = createHeavyWork(1);
    const release = heavy.tryAcquire();
    expect(release).toBeDefined();
    expect(heavy.tryAcquire()).toBeUndefined();
    release?.();
    expect(heavy.tryAcquire()).toBeDefined();
  });
});
