import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { type CopyOut, pgCopyOut } from './copy-out.js';
import { createHeavyWork, type HeavyWork } from './heavy-work.js';
import { PGliteDialect } from './pglite-dialect.js';
import { type PGliteLike, PGliteThread } from './pglite-thread.js';
import type { Database } from './tables.js';
import { parseTimestamptz } from './timestamps.js';

// bigint (int8) and numeric come back as strings from pg; we keep money and counts
// within Number's safe range, so read them as numbers on both drivers alike.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// The same dates as pg's own parser, read without its regular expressions (db/timestamps.ts).
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

export type Db = Kysely<Database>;

export interface DbOptions {
  /** postgres://... for PostgreSQL; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; 'memory://' keeps it in memory. */
  dataDir?: string;
  /** PGlite: a file PGlite's dumpDataDir made, the database to start from (test databases, issue 31). */
  image?: string;
  /** PGlite on this thread, as before it moved to a worker (bench/pglite-worker.mjs compares). */
  pgliteOnMainThread?: boolean;
  /** Hears every statement sent (on PostgreSQL also begin and commit): for tests that count round trips. */
  onQuery?: (sql: string) => void;
  /** PostgreSQL: pooled connections (default 10). */
  poolSize?: number;
  /** PostgreSQL: how many of them heavy work (exports) may hold at once (default 4; PGlite: always 1). */
  heavyConnections?: number;
}

export interface DbHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/** Subscribes to a NOTIFY channel on a connection of its own; resolves to an unsubscribe. */
export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

const listeners = new WeakMap<Db, Listen>();

/** LISTEN for the database behind `db`, when it was opened here (undefined otherwise). */
export const listenerFor = (db: Db): Listen | undefined => listeners.get(db);

const copiers = new WeakMap<Db, CopyOut>();
/** COPY … TO STDOUT for the database behind `db` when it is PostgreSQL opened here (PGlite: undefined). */
export const copyOutFor = (db: Db): CopyOut | undefined => copiers.get(db);

const heldCursors = new WeakMap<Db, PGliteDialect['heldCursor']>();
/**
 * On PGlite, a statement read in chunks through a cursor WITH HOLD, each chunk a turn of its own
 * on the one connection (PGliteDialect.heldCursor); undefined on PostgreSQL, where a stream holds
 * a pooled connection of its own.
 */
export const heldCursorFor = (db: Db): PGliteDialect['heldCursor'] | undefined => heldCursors.get(db);

const queueWaits = new WeakMap<Db, () => number>();
/**
 * On PGlite, how long the request that has waited longest for the one connection has waited so
 * far, in milliseconds (0: none waits); undefined on PostgreSQL.
 */
export const queueWaitFor = (db: Db): (() => number) | undefined => queueWaits.get(db);

const embedded = new WeakSet<Db>();
/** True for PGlite opened here (no autovacuum, one connection). */
export const isEmbedded = (db: Db): boolean => embedded.has(db);

const heavyWorks = new WeakMap<Db, HeavyWork>();
/** The share of the database heavy work (exports) takes turns on, when `db` was opened here (db/heavy-work.ts). */
export const heavyWorkFor = (db: Db): HeavyWork | undefined => heavyWorks.get(db);

/** A statement sent straight through a pool: its rows. */
export type DirectQuery = <R>(sql: string, parameters: readonly unknown[]) => Promise<R[]>;

const directs = new WeakMap<Db, DirectQuery>();
/**
 * The pool behind `db` when it is PostgreSQL opened here without a statement listener: a statement
 * already compiled (`db/prepared.ts`) may go straight to it instead of through Kysely's executor
 * (its connection provider and driver layers add promises and objects to every statement, and the
 * two hottest statements of the API, authentication and the week list, run on every request).
 * Undefined for PGlite, for a transaction (another handle) and for a handle whose statements are
 * heard (`onQuery`: they must pass Kysely's log).
 */
export const directQueryOf = (db: Db): DirectQuery | undefined => directs.get(db);

export function openDb(options: DbOptions): DbHandle {
  const { onQuery } = options;
  const log = onQuery
    ? (event: LogEvent) => {
        onQuery(event.query.sql);
      }
    : undefined;
  if (options.databaseUrl) {
    const poolSize = options.poolSize ?? 10;
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: poolSize });
    // An idle pooled connection the server drops (restart, failover, pg_terminate_backend) is an
    // 'error' event on the pool; unhandled, it would crash the process. The pool discards that
    // connection and opens a new one on the next query, so there is nothing else to do.
    pool.on('error', () => undefined);
    // `cursor` lets a query stream (Kysely's .stream()): a Detailed export reads one statement in chunks.
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }), log });
    const connectionString = options.databaseUrl;
    // Exports hold at most this many connections, so requests and the job runner always find one
    // (docs/decisions/0016): at least two are kept for them whatever the setting.
    const heavy = createHeavyWork(Math.max(1, Math.min(options.heavyConnections ?? 4, poolSize - 2)));
    heavyWorks.set(db, heavy);
    copiers.set(db, pgCopyOut(pool, heavy));
    if (!log) {
      directs.set(db, async <R>(text: string, parameters: readonly unknown[]) => {
        // As Kysely's driver sends it: the parameters as a fresh array (pg may keep it).
        const result = await pool.query(text, [...parameters]);
        return result.rows as R[];
      });
    }
    listeners.set(db, async (channel, onPayload) => {
      let client: pg.Client | undefined;
      let closed = false;
      let retrying = false;
      // A dropped LISTEN connection (database restart, network) is opened again a second later.
      const retry = () => {
        if (closed || retrying) return;
        retrying = true;
        setTimeout(() => {
          retrying = false;
          connect().catch(retry);
        }, 1000).unref();
      };
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString });
        next.on('notification', (message) => {
          if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
        });
        next.on('error', () => undefined);
        next.on('end', retry);
        await next.connect();
        await next.query(`listen "${channel.replaceAll('"', '')}"`);
        client = next;
      };
      await connect();
      return async () => {
        closed = true;
        await client?.end();
      };
    });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(path.resolve(dataDir), { recursive: true });
  // In a worker thread: a long statement (an import, a report) would otherwise hold the event
  // loop, and every other request with it, for as long as it runs (bench/README.md, PGlite).
  const folder = dataDir.startsWith('memory://') ? undefined : path.resolve(dataDir, 'pglite');
  const pglite: PGliteLike = options.pgliteOnMainThread
    ? new PGlite({
        dataDir: folder,
        ...(options.image ? { loadDataDir: new Blob([fs.readFileSync(options.image)]) } : {}),
      })
    : new PGliteThread(folder, options.image);
  const dialect = new PGliteDialect({ pglite });
  const db = new Kysely<Database>({ dialect, log });
  heldCursors.set(db, dialect.heldCursor.bind(dialect));
  queueWaits.set(db, () => dialect.oldestWaitMs());
  listeners.set(db, (channel, onPayload) => pglite.listen(channel, onPayload));
  heavyWorks.set(db, createHeavyWork(1));
  embedded.add(db);
  return { db, kind: 'pglite', close: () => db.destroy() };
}
