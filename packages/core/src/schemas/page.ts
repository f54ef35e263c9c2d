import { z } from 'zod';

/** One page of a list answer: the items, how many there are in all, and the page asked for. */
export const pageView = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

/** The type of a `pageView(item)` answer. */
export interface PageView<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}
