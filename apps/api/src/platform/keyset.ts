import { type RawBuilder, sql } from 'kysely';
import { validationError } from './errors.js';

/** One part of a list's order: an expression and the SQL type its cursor value is read back as. */
export interface KeysetKey {
  expr: RawBuilder<unknown>;
  type: 'text' | 'int4' | 'timestamptz' | 'uuid';
}

/**
 * Paging by cursor (keyset): a list ordered by `keys` (the last one unique, so the order is total)
 * goes on after the row a cursor names, whatever was added or removed before it meanwhile, where
 * an offset would skip or repeat rows; and the database seeks to it instead of counting past it.
 * The cursor is the last row's keys, as text, in base64url.
 */
export function keyset(keys: readonly KeysetKey[], order: 'asc' | 'desc' = 'asc') {
  const direction = order === 'desc' ? sql`desc` : sql`asc`;
  return {
    /** The row's keys as text, selected as `keyset` beside each row so its cursor can be made. */
    select: sql<string[]>`array[${sql.join(keys.map((key) => sql`${key.expr}::text`))}]`.as('keyset'),
    /** The whole order, as one expression (`order by a asc, b asc`). */
    orderBy: sql`${sql.join(keys.map((key) => sql`${key.expr} ${direction}`))}`,
    /** Rows after the cursor's, in this order (refused beside an offset: one way of paging at a time). */
    after(cursor: string, offset = 0): RawBuilder<boolean> {
      if (offset !== 0) {
        throw validationError({ cursor: 'Page by cursor or by offset, not both: leave offset out with a cursor.' });
      }
      const values = decodeKeys(cursor, keys.length);
      const given = values.map((value, i) => sql`cast(${value} as ${sql.raw(keys[i]?.type ?? 'text')})`);
      return sql<boolean>`(${sql.join(keys.map((key) => key.expr))}) ${order === 'desc' ? sql`<` : sql`>`} (${sql.join(given)})`;
    },
  };
}

/** The order of the lists sorted by name or by creation (projects, clients): then by id. */
export const nameOrCreatedOrder = (alias: string, sort: 'name' | 'created', order: 'asc' | 'desc') =>
  keyset(
    [
      sort === 'created'
        ? { expr: sql.ref(`${alias}.created_at`), type: 'timestamptz' }
        : { expr: sql`lower(${sql.ref(`${alias}.name`)})`, type: 'text' },
      { expr: sql.ref(`${alias}.id`), type: 'uuid' },
    ],
    order,
  );

const notOurs = () => validationError({ cursor: 'This cursor is not one this list gave.' });

function decodeKeys(cursor: string, count: number): string[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    throw notOurs();
  }
  if (
    !Array.isArray(values) ||
    values.length !== count ||
    !values.every((v) => typeof v === 'string' && v.length < 600)
  ) {
    throw notOurs();
  }
  return values;
}

/**
 * A page from rows read with one more than `limit` (that one says there are more): the rows to
 * answer, and the cursor of the next page (null on the last).
 */
export function pageAfter<Row extends { keyset: string[] }>(
  rows: readonly Row[],
  limit: number,
): { rows: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? Buffer.from(JSON.stringify(last.keyset)).toString('base64url') : null,
  };
}
