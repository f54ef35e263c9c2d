import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { PGliteLike, PGliteQueryable } from './pglite-thread.js';

/*
 * Kysely for the embedded database. Kysely ships a PGlite dialect only from 0.29, which declares
 * Node 22 while we run on Node 20.19+ (ARCHITECTURE.md), so this is the same design on the
 * 0.28 API: PGlite has one connection, so a Kysely transaction is a PGlite exclusive transaction
 * (PGlite queues others behind it), and the migration lock needs no advisory lock. Kysely 0.28 also
 * lets several callers hold the one connection at once; the driver lets them take turns.
 */

class PGliteAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {
    // The one connection is the migrator's from acquiring the lock to releasing it.
  }
  override async releaseMigrationLock(): Promise<void> {}
}

class PGliteConnection implements DatabaseConnection {
  #transaction: PGliteQueryable | undefined;
  #commit: (() => void) | undefined;
  #rollback: ((reason: unknown) => void) | undefined;
  #closed: Promise<void> | undefined;
  #cursors = 0;

  constructor(private readonly pglite: PGliteLike) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { affectedRows, rows } = await (this.#transaction ?? this.pglite).query<R>(
      compiled.sql,
      compiled.parameters as unknown[],
      { rowMode: 'object' },
    );
    return { numAffectedRows: affectedRows == null ? undefined : BigInt(affectedRows), rows: rows ?? [] };
  }

  /**
   * A statement read `chunkSize` rows at a time through a cursor (DECLARE, then FETCH), so memory
   * holds one chunk whatever the result's size. A cursor lives in a transaction: the open one, or
   * one of the stream's own, committed (or rolled back after a failure) when the stream ends or its
   * reader stops early. The one connection is the stream's until then: other callers wait, as a
   * PostgreSQL stream holds its pooled connection.
   */
  async *streamQuery<R>(compiled: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error('chunkSize must be a positive integer');
    const own = this.#transaction === undefined;
    if (own) await this.begin();
    const tx = this.#transaction as PGliteQueryable;
    const cursor = `kysely_stream_${++this.#cursors}`;
    let failed = false;
    try {
      await tx.query(`declare ${cursor} no scroll cursor for ${compiled.sql}`, compiled.parameters as unknown[]);
      for (;;) {
        const { rows } = await tx.query<R>(`fetch forward ${chunkSize} from ${cursor}`, [], { rowMode: 'object' });
        if (rows.length > 0) yield { rows };
        if (rows.length < chunkSize) break;
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      if (own) await (failed ? this.rollback() : this.commit());
      else if (!failed) await tx.query(`close ${cursor}`);
    }
  }

  async begin(): Promise<void> {
    let begun: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const finished = new Promise<void>((resolve, reject) => {
      this.#commit = resolve;
      this.#rollback = reject;
    });
    // Exclusive: PGlite runs nothing else until this transaction's callback returns.
    this.#closed = this.pglite.transaction(async (tx) => {
      this.#transaction = tx;
      begun();
      await finished;
    });
    // A failed BEGIN must reject here rather than leave the caller waiting.
    await Promise.race([started, this.#closed]);
  }

  async commit(): Promise<void> {
    this.#commit?.();
    try {
      await this.#closed;
    } finally {
      this.#reset();
    }
  }

  async rollback(): Promise<void> {
    this.#rollback?.(new Error('rolled back'));
    await this.#closed?.catch(() => undefined);
    this.#reset();
  }

  #reset(): void {
    this.#transaction = undefined;
    this.#commit = undefined;
    this.#rollback = undefined;
    this.#closed = undefined;
  }
}

/**
 * One holder of the connection at a time. Kysely 0.29 does this itself for dialects without
 * several connections; 0.28 does not, and without it a query from another request would run
 * inside whatever transaction is open on the one connection (or on one that just closed).
 */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  /** When each caller still waiting began to wait, oldest first (callers are served in that order). */
  readonly #waitingSince: number[] = [];

  async lock(): Promise<void> {
    const previous = this.#tail;
    let release: () => void = () => undefined;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#waitingSince.push(performance.now());
    try {
      await previous;
    } finally {
      this.#waitingSince.shift();
    }
    this.#release = release;
  }

  /** How long the caller that has waited longest has waited so far, in milliseconds (0: none waits). */
  oldestWaitMs(): number {
    const since = this.#waitingSince[0];
    return since === undefined ? 0 : performance.now() - since;
  }

  unlock(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;
  readonly #mutex = new Mutex();

  constructor(private readonly pglite: PGliteLike) {
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).begin();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).commit();
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).rollback();
  }
  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }
  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }

  /** How long the longest waiting caller has waited for the connection, in milliseconds. */
  oldestWaitMs(): number {
    return this.#mutex.oldestWaitMs();
  }

  /** `work` on the database as the connection's one holder, outside Kysely (see `heldCursor`). */
  async exclusive<T>(work: (pglite: PGliteLike) => Promise<T>): Promise<T> {
    await this.#mutex.lock();
    try {
      return await work(this.pglite);
    } finally {
      this.#mutex.unlock();
    }
  }
}

let heldCursors = 0;

/** Kysely on PGlite (Postgres compiled to WebAssembly), in this thread or in a worker thread. */
export class PGliteDialect implements Dialect {
  #driver: PGliteDriver | undefined;
  constructor(private readonly config: { pglite: PGliteLike }) {}

  /**
   * A statement's rows `chunkSize` at a time through a cursor WITH HOLD: the statement runs whole
   * (and its rows are kept) as the cursor is declared, in one turn on the one connection, and each
   * chunk is then fetched in a turn of its own, so other callers go between the chunks however long
   * the reader takes over them: an export holds the database for its statement's run, not for its
   * file's writing (docs/decisions/0016). The cursor is closed when the reader ends or stops.
   */
  async *heldCursor<R>(compiled: CompiledQuery, chunkSize: number): AsyncGenerator<R[]> {
    const driver = this.#driver;
    if (!driver) throw new Error('the dialect has no driver yet');
    const cursor = `sundial_held_${++heldCursors}`;
    await driver.exclusive((pglite) =>
      pglite.transaction(async (tx) => {
        // Planned for every row, as a plain statement is, not for the first tenth.
        await tx.query('set local cursor_tuple_fraction = 1');
        await tx.query(`declare ${cursor} no scroll cursor with hold for ${compiled.sql}`, [...compiled.parameters]);
      }),
    );
    try {
      for (;;) {
        const { rows } = await driver.exclusive((pglite) =>
          pglite.query<R>(`fetch forward ${chunkSize} from ${cursor}`, [], { rowMode: 'object' }),
        );
        if (rows.length > 0) yield rows;
        if (rows.length < chunkSize) break;
      }
    } finally {
      await driver.exclusive((pglite) => pglite.query(`close ${cursor}`)).catch(() => undefined);
    }
  }

  /**
   * How long the caller that has waited longest for the one connection has waited so far (0 when
   * none waits): what a request would wait behind whatever holds it (`/readyz`).
   */
  oldestWaitMs(): number {
    return this.#driver?.oldestWaitMs() ?? 0;
  }

  createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }
  createDriver(): Driver {
    this.#driver = new PGliteDriver(this.config.pglite);
    return this.#driver;
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}
