import type { Compilable, CompiledQuery } from 'kysely';
import { type Db, directQueryOf } from './connection.js';

/**
 * A handle with plugins (a test's spy on the statements sent) sees every query built afresh: the
 * plugins transform each query as it is built, and a query compiled once would pass them by.
 */
const hasPlugins = (db: Db) => db.getExecutor().plugins.length > 0;

/** Runs a compiled query: straight through the pool when `db` allows it (`directQueryOf`), else through Kysely. */
async function run<R>(db: Db, compiled: CompiledQuery<R>, parameters: readonly unknown[]): Promise<R[]> {
  const direct = directQueryOf(db);
  if (direct) return direct<R>(compiled.sql, parameters);
  return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
}

/**
 * A query Kysely builds and compiles once, then runs with new values. Kysely builds and compiles
 * a query on every call; for the query that authenticates every request that is the same work
 * done again for nothing. `build` gets one placeholder per value; each run swaps the placeholders
 * in the compiled parameters for that run's values. The query's shape must not depend on the
 * values (no `$if` on them): only its parameters change.
 */
export function prepared<V extends Record<string, unknown>, R>(
  keys: readonly (keyof V & string)[],
  build: (db: Db, values: V) => Compilable<R>,
): (db: Db, values: V) => Promise<R[]> {
  const placeholders = new Map<unknown, keyof V>(keys.map((key) => [{ placeholder: key }, key]));
  const byKey = Object.fromEntries([...placeholders].map(([mark, key]) => [key, mark])) as V;
  let compiled: CompiledQuery<R> | undefined;
  return async (db, values) => {
    if (hasPlugins(db)) return (await db.executeQuery<R>(build(db, values).compile())).rows;
    compiled ??= build(db, byKey).compile();
    const parameters = compiled.parameters.map((p) => {
      const key = placeholders.get(p);
      return key === undefined ? p : values[key];
    });
    return run(db, compiled, parameters);
  };
}

/** Stands for one value while a query is compiled (`preparedByShape`). */
class Slot {
  constructor(readonly path: readonly (string | number)[]) {}
}

/** A compiled query of one shape; `slots[i]` says where parameter i comes from (undefined: as compiled). */
interface ShapeQuery {
  compiled: CompiledQuery;
  slots: (readonly (string | number)[] | undefined)[];
}

/** The values with each plain value (string, number, boolean, bigint, Date) replaced by a Slot. */
function slotted(value: unknown, path: (string | number)[]): unknown {
  if (value === undefined || value === null) return value;
  if (Array.isArray(value)) return value.map((item, i) => slotted(item, [...path, i]));
  if (typeof value === 'object' && !(value instanceof Date)) {
    const result: Record<string, unknown> = {};
    for (const key in value) result[key] = slotted((value as Record<string, unknown>)[key], [...path, key]);
    return result;
  }
  return new Slot(path);
}

/**
 * The values' shape: which keys are undefined or null, how long each array is. Everything a
 * query's shape may depend on (`$if` on a value being there, `in` over a list) is in it.
 */
function shapeKey(value: unknown, out: string[]): void {
  if (value === undefined) out.push('u');
  else if (value === null) out.push('n');
  else if (Array.isArray(value)) {
    out.push(`[${value.length}`);
    for (const item of value) shapeKey(item, out);
  } else if (typeof value === 'object' && !(value instanceof Date)) {
    for (const key in value) {
      out.push(key);
      shapeKey((value as Record<string, unknown>)[key], out);
    }
    out.push('}');
  } else out.push('v');
}

const valueAt = (values: unknown, path: readonly (string | number)[]) => {
  let value = values as Record<string | number, unknown> | undefined;
  for (const step of path) value = value?.[step] as Record<string | number, unknown> | undefined;
  return value;
};

/**
 * `prepared` for a query whose shape follows its values: optional filters (`$if` on a value being
 * given), lists of any length (`in`). Each shape (which values are undefined or null, how long
 * each list is) is built and compiled once, with a slot for every plain value, then run with each
 * call's values in the slots. `build` may test a value for undefined or null and read a list's
 * length, never branch on what a value is. A handle with plugins builds afresh (`hasPlugins`); a shape whose compiled parameters hold a slot inside
 * another value (a list bound as one parameter) is built afresh on every call instead.
 */
export function preparedByShape<V extends object, R>(
  build: (db: Db, values: V) => { compile(db: Db): CompiledQuery<R> },
  limit = 64,
): (db: Db, values: V) => Promise<R[]> {
  const shapes = new Map<string, ShapeQuery | null>();
  return async (db, values) => {
    if (hasPlugins(db)) return (await db.executeQuery<R>(build(db, values).compile(db))).rows;
    const keyParts: string[] = [];
    shapeKey(values, keyParts);
    const key = keyParts.join('\u0000');
    let query = shapes.get(key);
    if (query === undefined) {
      const slots = slotted(values, []) as V;
      const compiled = build(db, slots).compile(db);
      const where = compiled.parameters.map((p) => (p instanceof Slot ? p.path : undefined));
      const hidden = compiled.parameters.some((p) => !(p instanceof Slot) && holdsSlot(p));
      query = hidden ? null : { compiled, slots: where };
      if (shapes.size < limit) shapes.set(key, query);
    }
    if (query === null) return (await db.executeQuery<R>(build(db, values).compile(db))).rows;
    const { compiled, slots } = query;
    const parameters = compiled.parameters.map((p, i) => {
      const path = slots[i];
      return path === undefined ? p : valueAt(values, path);
    });
    return run<R>(db, compiled as CompiledQuery<R>, parameters);
  };
}

function holdsSlot(value: unknown): boolean {
  if (value instanceof Slot) return true;
  if (Array.isArray(value)) return value.some(holdsSlot);
  if (value && typeof value === 'object' && !(value instanceof Date)) return Object.values(value).some(holdsSlot);
  return false;
}
