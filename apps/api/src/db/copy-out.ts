import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { HeavyWork } from './heavy-work.js';

/**
 * `COPY (query) TO STDOUT WITH (FORMAT csv)` on PostgreSQL: the database writes the CSV itself, so
 * a million rows cost no row parsing, objects or garbage in Node (bench/README.md, Exports).
 * Everything runs in read-only, repeatable-read transactions of ONE snapshot: the first
 * connection's, exported to the spare pooled connections that take the later `copies` (each copied
 * at the same time as the first, into a temporary file sent in its turn: the CSV's bytes are those
 * of the copies one after the other) and the `beside` statements (an export's totals, answered while
 * the rows stream). What finds no spare connection runs on the first one, the beside statements
 * before its copies and the copies one after the other: an export never waits for the pool while it
 * holds a connection (exports that each hold one and wait for another could deadlock). Helpers also
 * need a free slot of heavy work (db/heavy-work.ts; the caller holds one for the first connection),
 * so exports leave the rest of the pool to requests and jobs. The stream holds its connections until
 * it is read to the end or destroyed (then a connection mid-copy is closed, not reused): whoever gets
 * it must read or destroy it, and never at a client's pace (the exports spool it to a file first).
 */
export type CopyOut = (work: {
  beside: readonly CompiledQuery[];
  /** The statements whose rows the CSV holds, in this order (parts of one listing). */
  copies: readonly CompiledQuery[];
  /** work_mem for these transactions ("128MB"): a sort of a million rows in memory instead of on disk. */
  workMem?: string;
}) => Promise<{ beside: Promise<Record<string, unknown>[][]>; csv: Readable }>;

/**
 * COPY takes no bind parameters, so the statement's are written into it as literals: each one
 * quoted as text, exactly as node-postgres sends a parameter (untyped text the statement's context
 * types), through the driver's own `escapeLiteral`.
 */
export function inlineParameters(query: CompiledQuery): string {
  const literal = (value: unknown): string => {
    if (value === null || value === undefined) return 'null';
    if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
    if (Array.isArray(value)) return pg.escapeLiteral(arrayLiteral(value));
    if (typeof value === 'object') return pg.escapeLiteral(JSON.stringify(value));
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`cannot inline ${value}`);
    return pg.escapeLiteral(String(value));
  };
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index >= query.parameters.length) throw new Error(`no parameter $${n}`);
    return literal(query.parameters[index]);
  });
}

/** A PostgreSQL array literal ('{"a","b",NULL}'), as node-postgres writes an array parameter. */
function arrayLiteral(values: readonly unknown[]): string {
  const item = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayLiteral(value);
    const text = value instanceof Date ? value.toISOString() : String(value);
    return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  };
  return `{${values.map(item).join(',')}}`;
}

const BEGIN = 'begin isolation level repeatable read read only';
// A report's statement is costly enough for JIT compilation, which takes longer than running it.
const NO_JIT = 'set local jit = off';

/** A pooled connection released once; closed instead when it may be mid-protocol or mid-transaction. */
function held(client: pg.PoolClient) {
  let released = false;
  return (broken?: boolean) => {
    if (released) return;
    released = true;
    client.release(broken);
  };
}

async function runAll(client: pg.PoolClient, queries: readonly CompiledQuery[]) {
  const results: Record<string, unknown>[][] = [];
  for (const query of queries) results.push((await client.query(query.sql, [...query.parameters])).rows);
  return results;
}

/** True when `pool.connect()` would answer without waiting for another caller to release a connection. */
const hasSpare = (pool: pg.Pool) => pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10);

/**
 * A spare connection for a helper, when the pool has one and heavy work a free slot (the caller
 * holds a slot for its first connection): released with the slot.
 */
async function spareHelper(pool: pg.Pool, heavy: HeavyWork | undefined): Promise<pg.PoolClient | undefined> {
  if (!hasSpare(pool)) return undefined;
  const slot = heavy ? heavy.tryAcquire() : () => undefined;
  if (!slot) return undefined;
  const client = await pool.connect().catch((error: unknown) => {
    slot();
    throw error;
  });
  const release = client.release.bind(client);
  client.release = (broken?: boolean | Error) => {
    slot();
    release(broken);
  };
  return client;
}

/** A copy on a connection of its own, written to `file` as it comes. */
function spool(client: pg.PoolClient, text: string, file: string) {
  const release = held(client);
  const copy = client.query(copyTo(text));
  const done = pipeline(copy, fs.createWriteStream(file)).then(
    async () => {
      await client.query('commit');
      release();
    },
    (error: unknown) => {
      release(true);
      throw error;
    },
  );
  // Read only when its turn comes, maybe never (a reader gone early).
  done.catch(() => undefined);
  return { file, done, stop: () => copy.destroy() };
}

export function pgCopyOut(pool: pg.Pool, heavy?: HeavyWork): CopyOut {
  return async ({ beside, copies, workMem }) => {
    const texts = copies.map((copy) => `copy (${inlineParameters(copy)}) to stdout with (format csv)`);
    const settings = [NO_JIT, ...(workMem ? [`set local work_mem = ${pg.escapeLiteral(workMem)}`] : [])];
    const client = await pool.connect();
    const release = held(client);
    const helpers: pg.PoolClient[] = [];
    let besideResults: Promise<Record<string, unknown>[][]> | undefined;
    let dir: string | undefined;
    try {
      await client.query(BEGIN);
      for (const setting of settings) await client.query(setting);
      const wanted = texts.length - 1 + (beside.length > 0 ? 1 : 0);
      while (helpers.length < wanted) {
        const helper = await spareHelper(pool, heavy);
        if (!helper) break;
        helpers.push(helper);
      }
      if (helpers.length > 0) {
        const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
        // Each helper holds the snapshot before the first copy starts: its end commits and so forgets it.
        await Promise.all(helpers.map((helper) => inSnapshot(helper, String(rows[0]?.id), settings)));
      }
      if (helpers.length > texts.length - 1) {
        const helper = helpers.pop() as pg.PoolClient;
        besideResults = runThenCommit(helper, beside);
      } else besideResults = Promise.resolve(await runAll(client, beside));
      // Nobody may wait for the totals (a reader gone early): their failure is the footer's, not the process's.
      besideResults.catch(() => undefined);
      if (helpers.length > 0) dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sundial-copy-'));
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      release();
      for (const helper of helpers) helper.release(true);
      throw error;
    }
    // The last copies on the helpers, beside it; the first (and those that found no connection) on
    // this one, one after the other: the file is this connection's bytes, then each spooled part's.
    const mine = texts.slice(0, texts.length - helpers.length);
    const spools = helpers.map((helper, i) =>
      spool(helper, texts[mine.length + i] as string, path.join(dir as string, `${i}.csv`)),
    );
    let current: Readable | undefined;
    async function* bytes() {
      for (const text of mine) {
        current = client.query(copyTo(text));
        for await (const chunk of current) yield chunk as Buffer;
      }
      current = undefined;
      await client.query('commit');
      release();
      for (const part of spools) {
        await part.done;
        for await (const chunk of fs.createReadStream(part.file)) yield chunk as Buffer;
      }
    }
    const csv = Readable.from(bytes(), { objectMode: false });
    csv.once('close', () => {
      // Read to the end, this does nothing; cut short or failed, this connection (maybe mid-copy) is closed.
      current?.destroy();
      release(true);
      for (const part of spools) part.stop();
      if (dir) fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    });
    return { beside: besideResults, csv };
  };
}

/** Begins a transaction on `client` in the snapshot another one exported (which may end after this). */
async function inSnapshot(client: pg.PoolClient, snapshot: string, settings: readonly string[]) {
  await client.query(BEGIN);
  await client.query(`set transaction snapshot ${pg.escapeLiteral(snapshot)}`);
  for (const setting of settings) await client.query(setting);
}

/** Runs `queries` in `client`'s transaction, ends it and releases the connection. */
async function runThenCommit(client: pg.PoolClient, queries: readonly CompiledQuery[]) {
  const release = held(client);
  try {
    const rows = await runAll(client, queries);
    await client.query('commit');
    release();
    return rows;
  } catch (error) {
    release(true);
    throw error;
  }
}
