import { sql } from 'kysely';
import { type Db, queueWaitFor } from '../db/connection.js';

export type Readiness = { ready: true } | { ready: false; message: string };

/**
 * Whether the database answers promptly (`/readyz`): not ready when a request has already waited
 * longer than `timeoutMs` for PGlite's one connection (answered at once, without queueing behind
 * whatever holds it), or when `select 1` does not answer within `timeoutMs`. Probes that arrive
 * while one is under way share its answer, so a stuck database does not gather a queue of them.
 */
export function createReadiness(db: Db, timeoutMs: number): () => Promise<Readiness> {
  const queueWait = queueWaitFor(db);
  let probe: Promise<unknown> | undefined;
  return async () => {
    const waited = queueWait?.() ?? 0;
    if (waited > timeoutMs)
      return { ready: false, message: `The database has kept a request waiting ${Math.round(waited)} ms.` };
    if (!probe) {
      probe = sql`select 1`.execute(db).finally(() => {
        probe = undefined;
      });
      // Answered by the race below, or by no one when it fails after the timeout.
      probe.catch(() => undefined);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    try {
      if ((await Promise.race([probe, late])) !== 'late') return { ready: true };
      return { ready: false, message: `The database did not answer within ${timeoutMs} ms.` };
    } catch {
      return { ready: false, message: 'The database does not answer.' };
    } finally {
      clearTimeout(timer);
    }
  };
}
