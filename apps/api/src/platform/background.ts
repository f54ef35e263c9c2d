import type { FastifyBaseLogger } from 'fastify';

export interface BackgroundQueue {
  /**
   * Runs a task after the current request has answered (it starts on a later turn of the event
   * loop), so the answer's timing does not depend on what the task does. A failure is logged.
   */
  run(name: string, task: () => Promise<void>): void;
  /** Waits until every task, including tasks queued meanwhile, has finished: on shutdown and in tests. */
  drain(): Promise<void>;
}

/** A small in-process queue for work that must not delay an answer; not durable (that is the job runner's). */
export function createBackgroundQueue(log?: FastifyBaseLogger): BackgroundQueue {
  const pending = new Set<Promise<void>>();
  return {
    run(name, task) {
      const done = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((error: unknown) => {
          if (log) log.error({ err: error, task: name }, 'background task failed');
          else console.error(`background task ${name} failed`, error);
        })
        .finally(() => pending.delete(done));
      pending.add(done);
    },
    async drain() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
