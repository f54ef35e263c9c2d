import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';
import type { Db } from './connection.js';
import { preparedByShape } from './prepared.js';

/*
 * preparedByShape compiles a query once per shape of its values and runs every later call with
 * that call's values in the compiled parameters: a value left in the wrong slot, or a shape
 * mistaken for another, would return another row set here.
 */
describe('preparedByShape', () => {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    await sql`create table prepared_probe (id int primary key, name text not null, at timestamptz not null)`.execute(
      db,
    );
    await sql`insert into prepared_probe (id, name, at) select i, 'n' || (i % 3), timestamptz '2026-01-01' + i * interval '1 day'
      from generate_series(1, 9) i`.execute(db);
  });
  afterAll(async () => close?.());

  type Filter = { ids: number[]; name?: string; after?: { at: Date } };
  let builds = 0;
  const probe = preparedByShape((_db, f: Filter) => {
    builds++;
    return sql<{ id: number }>`select id from prepared_probe where id in (${sql.join(f.ids)})
      ${f.name === undefined ? sql`` : sql`and name = ${f.name}`}
      ${f.after === undefined ? sql`` : sql`and at > ${f.after.at}`} order by id`;
  });
  const ids = async (f: Filter) => (await probe(db, f)).map((r) => r.id);

  it('builds each shape once and runs it with each call’s values', async () => {
    builds = 0;
    expect(await ids({ ids: [1, 2, 3, 4] })).toEqual([1, 2, 3, 4]);
    expect(await ids({ ids: [5, 6, 7, 8] })).toEqual([5, 6, 7, 8]);
    expect(builds).toBe(1);

    // A filter given, a list of another length, a nested value: each a shape of its own.
    expect(await ids({ ids: [1, 2, 3, 4], name: 'n1' })).toEqual([1, 4]);
    expect(await ids({ ids: [2, 5, 8, 9], name: 'n2' })).toEqual([2, 5, 8]);
    expect(await ids({ ids: [1, 2] })).toEqual([1, 2]);
    expect(await ids({ ids: [7, 8, 9], after: { at: new Date('2026-01-08T12:00:00Z') } })).toEqual([8, 9]);
    expect(await ids({ ids: [1, 2, 3], after: { at: new Date('2026-01-02T12:00:00Z') } })).toEqual([2, 3]);
    expect(builds).toBe(4);
  });

  it('builds afresh on every call a shape whose list is bound as one parameter', async () => {
    let anyBuilds = 0;
    const anyOf = preparedByShape((_db, f: { ids: number[] }) => {
      anyBuilds++;
      return sql<{ id: number }>`select id from prepared_probe where id = any(${f.ids}::int[]) order by id`;
    });
    expect((await anyOf(db, { ids: [3, 1] })).map((r) => r.id)).toEqual([1, 3]);
    expect((await anyOf(db, { ids: [9, 2] })).map((r) => r.id)).toEqual([2, 9]);
    expect(anyBuilds).toBe(3);
  });

  it('builds afresh for a handle with plugins, which then see the query', async () => {
    builds = 0;
    let seen = 0;
    const spy = db.withPlugin({
      transformQuery: ({ node }) => {
        seen++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    expect((await probe(spy, { ids: [4, 5, 6, 7] })).map((r) => r.id)).toEqual([4, 5, 6, 7]);
    expect(builds).toBe(1);
    expect(seen).toBeGreaterThan(0);
  });
});
