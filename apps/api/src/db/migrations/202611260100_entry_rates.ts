import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Each entry keeps the hourly rates (integer cents) in force at its start, copied when it is
 * saved, so its billable and cost amounts stay stable when a rate changes later (issue 14).
 * null means no rate applied. Amounts are derived with `amountCents` of @sundial/core.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `alter table time_entries add column billable_rate_cents integer check (billable_rate_cents >= 0);
     alter table time_entries add column cost_rate_cents integer check (cost_rate_cents >= 0);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `alter table time_entries drop column if exists cost_rate_cents;
     alter table time_entries drop column if exists billable_rate_cents;`,
  );
}
