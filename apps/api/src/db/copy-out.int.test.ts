import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pgCopyOut } from './copy-out.js';

/**
 * The copy's parts on as many connections as the pool has spare at once, the rest on the first
 * connection: whichever ran where, the CSV is the parts' rows in their order, and the totals
 * beside them come from the same snapshot. PostgreSQL only (PGlite cannot COPY to a client).
 */
const url = process.env.DATABASE_URL;
const pools: pg.Pool[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.end())));

const part = (from: number, to: number) =>
  CompiledQuery.raw(`select n, 'row ' || n from generate_series(${from}, ${to}) n`);
const copies = [part(1, 3), part(4, 6), part(7, 9), part(10, 12)];
const expected = Array.from({ length: 12 }, (_, i) => `${i + 1},row ${i + 1}\n`).join('');

async function textOf(csv: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of csv) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe.runIf(url)('a copy in parts', () => {
  it.each([1, 2, 3, 6])('holds the parts in their order with a pool of %i', async (max) => {
    const pool = new pg.Pool({ connectionString: url, max });
    pools.push(pool);
    const { beside, csv } = await pgCopyOut(pool)({
      beside: [CompiledQuery.raw('select 42 as answer')],
      copies,
    });
    expect(await textOf(csv)).toBe(expected);
    expect(await beside).toEqual([[{ answer: 42 }]]);
    // Every connection back in the pool, none left in a transaction.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pool.idleCount).toBe(pool.totalCount);
  });
});
