import { z } from 'zod';

/**
 * One page of a list answer: the items, how many there are in all, the page asked for, and the
 * cursor of the next page (null on the last): pass it as `cursor` to go on where this page ended.
 */
export const pageView = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    nextCursor: z.string().nullable(),
  });

/** The type of a `pageView(item)` answer. */
export interface PageView<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  nextCursor: string | null;
}

/**
 * How a list is paged: by `cursor` (the `nextCursor` of the page before; sure under concurrent
 * changes) or, as before, by `offset`; not both (the API refuses a cursor with an offset).
 */
export const pagingFields = {
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  cursor: z.string().max(2000).optional(),
};
