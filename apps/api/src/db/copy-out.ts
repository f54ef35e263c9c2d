import type { Readable } from 'node:stream';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * `COPY (query) TO STDOUT WITH (FORMAT csv)` on PostgreSQL: the database writes the CSV itself, so
 * a million rows cost no row parsing, objects or garbage in Node (bench/README.md, Exports). The
 * `beside` statements (an export's totals) answer of the very snapshot the copy streams, in a
 * read-only, repeatable-read transaction: on a second pooled connection that imports the copy's
 * exported snapshot and runs them while the copy streams (so they cost no wall time), or, when the
 * pool has no connection to spare, on the copy's own connection before it starts (a second wait
 * for the pool could deadlock exports that each hold one). The stream holds its connection until
 * it is read to the end or destroyed (then the connection is closed, as a copy cut short leaves it
 * mid-protocol): whoever gets it must read or destroy it.
 */
export type CopyOut = (work: {
  beside: readonly CompiledQuery[];
  copy: CompiledQuery;
  /** work_mem for this transaction ("128MB"): a sort of a million rows in memory instead of on disk. */
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

/** A pooled connection released once, closed instead when it may be mid-protocol. */
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

export function pgCopyOut(pool: pg.Pool): CopyOut {
  return async ({ beside, copy, workMem }) => {
    const text = `copy (${inlineParameters(copy)}) to stdout with (format csv)`;
    const client = await pool.connect();
    const release = held(client);
    let besideResults: Promise<Record<string, unknown>[][]>;
    try {
      await client.query(BEGIN);
      await client.query(NO_JIT);
      if (workMem) await client.query(`set local work_mem = ${pg.escapeLiteral(workMem)}`);
      const second = beside.length > 0 && hasSpare(pool) ? await pool.connect() : undefined;
      if (second) {
        const snapshot = await client.query<{ id: string }>('select pg_export_snapshot() as id').catch((error) => {
          second.release();
          throw error;
        });
        const running = inSnapshot(second, String(snapshot.rows[0]?.id), beside);
        // Nobody may wait for the totals (a reader gone early): their failure is the footer's, not the process's.
        running.catch(() => undefined);
        besideResults = running;
        // Until the second connection holds the snapshot, the copy (whose end commits and so
        // forgets the snapshot) does not start; the statements then run beside it.
        await running.imported;
      } else besideResults = Promise.resolve(await runAll(client, beside));
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      release();
      throw error;
    }
    const csv = client.query(copyTo(text));
    let settled = false;
    csv.on('end', () => {
      settled = true;
      client.query('commit').then(
        () => release(),
        () => release(true),
      );
    });
    // Failed, or destroyed by its reader before the end: the connection may be mid-copy, so it is closed, not reused.
    const drop = () => {
      if (settled) return;
      settled = true;
      release(true);
    };
    csv.on('error', drop);
    csv.on('close', drop);
    return { beside: besideResults, csv };
  };
}

/**
 * Runs `queries` on `client` in the snapshot another transaction exported, then releases it:
 * `imported` settles once the snapshot is held (the exporting transaction may end after that).
 */
function inSnapshot(client: pg.PoolClient, snapshot: string, queries: readonly CompiledQuery[]) {
  const release = held(client);
  const imported = (async () => {
    await client.query(BEGIN);
    await client.query(`set transaction snapshot ${pg.escapeLiteral(snapshot)}`);
    await client.query(NO_JIT);
  })();
  const results = (async () => {
    try {
      await imported;
      const rows = await runAll(client, queries);
      await client.query('commit');
      release();
      return rows;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      release();
      throw error;
    }
  })();
  return Object.assign(results, { imported });
}
