/**
 * The database's share for heavy work (exports: a whole report read and written out), as a
 * semaphore of connections (docs/decisions/0016). On PostgreSQL it is sized below the pool, so
 * exports never take every connection: what is left stays for requests and the job runner. On
 * PGlite it is one: exports take turns, so a request waits at most for one export's reading, never
 * for a queue of them. Waiters are served first come, first served.
 */
export interface HeavyWork {
  readonly slots: number;
  /** Waits for a slot; answers its release (calling it twice releases once). */
  acquire(): Promise<() => void>;
  /** A slot now, or undefined when every slot is taken (extra connections an export may do without). */
  tryAcquire(): (() => void) | undefined;
}

export function createHeavyWork(slots: number): HeavyWork {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else busy--;
    };
  };
  return {
    slots,
    acquire() {
      if (busy < slots) {
        busy++;
        return Promise.resolve(releaser());
      }
      // A released slot passes straight to the next waiter (busy stays the same).
      return new Promise((resolve) => waiting.push(() => resolve(releaser())));
    },
    tryAcquire() {
      if (busy >= slots || waiting.length > 0) return undefined;
      busy++;
      return releaser();
    },
  };
}
