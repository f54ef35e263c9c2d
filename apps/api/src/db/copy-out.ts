import type { Readable } from 'node:stream';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * `COPY (query) TO STDOUT WITH (FORMAT csv)` on PostgreSQL: the database writes the CSV itself, so
 * a million rows cost no row parsing, objects or garbage in Node (bench/README.md, Exports). The
 * `before` statements run first in the same read-only, repeatable-read transaction, so what they
 * answer (an export's totals) is of the very snapshot the copy streams. The stream holds its
 * connection until it is read to the end or destroyed (then the connection is closed, as a copy
 * cut short leaves it mid-protocol): whoever gets it must read or destroy it.
 */
export type CopyOut = (work: {
  before: readonly CompiledQuery[];
  copy: CompiledQuery;
  /** work_mem for this transaction ("128MB"): a sort of a million rows in memory instead of on disk. */
  workMem?: string;
}) => Promise<{ before: Record<string, unknown>[][]; csv: Readable }>;

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

export function pgCopyOut(pool: pg.Pool): CopyOut {
  return async ({ before, copy, workMem }) => {
    const text = `copy (${inlineParameters(copy)}) to stdout with (format csv)`;
    const client = await pool.connect();
    let released = false;
    const release = (broken?: boolean) => {
      if (released) return;
      released = true;
      client.release(broken);
    };
    const results: Record<string, unknown>[][] = [];
    try {
      await client.query('begin isolation level repeatable read read only');
      // A report's statement is costly enough for JIT compilation, which takes longer than running it.
      await client.query('set local jit = off');
      if (workMem) await client.query(`set local work_mem = ${pg.escapeLiteral(workMem)}`);
      for (const query of before) results.push((await client.query(query.sql, [...query.parameters])).rows);
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
    return { before: results, csv };
  };
}
