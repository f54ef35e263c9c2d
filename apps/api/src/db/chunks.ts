/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest row we insert. */
export const INSERT_CHUNK = 500;

/** Runs `run` on `items` INSERT_CHUNK at a time, in order (a chunk may need the rows of the one before). */
export async function inChunks<T>(items: readonly T[], run: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += INSERT_CHUNK) await run(items.slice(i, i + INSERT_CHUNK));
}
