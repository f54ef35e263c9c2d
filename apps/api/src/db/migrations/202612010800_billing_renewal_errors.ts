import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The last error of a workspace's renewal run (a card the gateway no longer knows, billing details
 * gone): the hourly job records it here, goes on with the other workspaces and tries this one
 * again on its next run; a renewal that goes through clears it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table subscriptions add column renewal_error text;
    alter table subscriptions add column renewal_error_at timestamptz;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table subscriptions drop column renewal_error_at;
    alter table subscriptions drop column renewal_error;
    `,
  );
}
