import type { Kysely } from 'kysely';
import { Migrator } from 'kysely';
import type { Db } from './connection.js';
import { migrations } from './migrations/index.js';

const provider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date. Kysely's Migrator takes a Postgres advisory lock inside its
 * transaction, so several API processes starting at once migrate one after another.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db as unknown as Kysely<unknown>, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateDownAll(db: Db): Promise<void> {
  const migrator = new Migrator({ db: db as unknown as Kysely<unknown>, provider });
  for (;;) {
    const { error, results } = await migrator.migrateDown();
    if (error) throw error;
    if (!results?.length) return;
  }
}
