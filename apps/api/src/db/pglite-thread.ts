import { Worker } from 'node:worker_threads';

/** What the Kysely dialect needs of a database: PGlite itself, or PGlite in a worker thread. */
export interface PGliteQueryable {
  query<R>(
    sql: string,
    params?: unknown[],
    options?: { rowMode: 'object' },
  ): Promise<{ rows: R[]; affectedRows?: number }>;
}

export interface PGliteLike extends PGliteQueryable {
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  transaction<T>(callback: (tx: PGliteQueryable) => Promise<T>): Promise<T>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

type Reply = { id: number; value?: unknown; error?: Record<string, unknown> & { message: string } };
type Notification = { notify: number; payload: string };

/** A database error again, with the fields the worker sent (code, constraint, detail...). */
const rebuilt = (plain: Record<string, unknown> & { message: string }): Error => {
  const { message, stack, ...fields } = plain;
  const error = Object.assign(new Error(message), fields);
  if (typeof stack === 'string') error.stack = stack;
  return error;
};

/**
 * PGlite in a worker thread (pglite-worker.mjs), so a long statement (an import, a report) runs
 * beside the event loop instead of on it: the server keeps answering while it runs. Each call is
 * one message each way; a transaction is held open in the worker under an id until it ends.
 * The thread keeps the process alive only while a call is waiting on it.
 */
export class PGliteThread implements PGliteLike {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #listeners = new Map<number, (payload: string) => void>();
  #nextId = 1;
  #closed = false;
  #exited: Promise<void>;

  /** `image`: a file dumpDataDir made, the database to start from (tests: a migrated one). */
  constructor(dataDir?: string, image?: string) {
    // Plain JavaScript: it needs none of the parent's flags (a TypeScript loader, --input-type).
    this.#worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir, image },
      execArgv: [],
    });
    this.#worker.unref();
    this.#worker.on('message', (message: Reply | Notification) => {
      if ('notify' in message) {
        this.#listeners.get(message.notify)?.(message.payload);
        return;
      }
      const call = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (message.error) call?.reject(rebuilt(message.error));
      else call?.resolve(message.value);
    });
    let crash: Error | undefined;
    // A worker that fails (cannot start, bad data folder) rejects the calls waiting on it.
    this.#worker.on('error', (error) => {
      crash = error;
    });
    this.#exited = new Promise((resolve) => {
      this.#worker.once('exit', (code) => {
        this.#closed = true;
        const failure = new Error(
          `The embedded database stopped (worker exit code ${code}${crash ? `: ${crash.message}` : ''}).`,
          { cause: crash },
        );
        for (const call of this.#pending.values()) call.reject(failure);
        this.#pending.clear();
        resolve();
      });
    });
    this.waitReady = this.#call<void>({ op: 'ready' });
  }

  get closed(): boolean {
    return this.#closed;
  }

  #call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('The embedded database is closed.'));
    const id = this.#nextId++;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }> {
    return this.#call({ op: 'query', sql, params });
  }

  async transaction<T>(callback: (tx: PGliteQueryable) => Promise<T>): Promise<T> {
    const tx = await this.#call<number>({ op: 'begin' });
    const inside: PGliteQueryable = {
      query: (sql, params) => this.#call({ op: 'query', sql, params, tx }),
    };
    let result: T;
    try {
      result = await callback(inside);
    } catch (error) {
      await this.#call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.#call({ op: 'end', tx, commit: true });
    return result;
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const id = await this.#call<number>({ op: 'listen', channel });
    this.#listeners.set(id, onPayload);
    return async () => {
      this.#listeners.delete(id);
      if (!this.#closed) await this.#call({ op: 'unlisten', listen: id });
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#call({ op: 'close' });
    } finally {
      this.#closed = true;
      await this.#worker.terminate();
      await this.#exited;
    }
  }
}
