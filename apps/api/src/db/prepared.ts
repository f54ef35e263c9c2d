import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './connection.js';

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
    compiled ??= build(db, byKey).compile();
    const parameters = compiled.parameters.map((p) => {
      const key = placeholders.get(p);
      return key === undefined ? p : values[key];
    });
    return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}
