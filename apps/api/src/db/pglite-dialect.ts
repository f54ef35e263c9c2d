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

  constructor(private readonly pglite: PGliteLike) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { affectedRows, rows } = await (this.#transaction ?? this.pglite).query<R>(
      compiled.sql,
      compiled.parameters as unknown[],
      { rowMode: 'object' },
    );
    return { numAffectedRows: affectedRows == null ? undefined : BigInt(affectedRows), rows: rows ?? [] };
  }

  // biome-ignore lint/correctness/useYield: the interface wants a generator; PGlite cannot stream.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
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

  async lock(): Promise<void> {
    const previous = this.#tail;
    let release: () => void = () => undefined;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
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
}

/** Kysely on PGlite (Postgres compiled to WebAssembly), in this thread or in a worker thread. */
export class PGliteDialect implements Dialect {
  constructor(private readonly config: { pglite: PGliteLike }) {}

  createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.config.pglite);
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}
