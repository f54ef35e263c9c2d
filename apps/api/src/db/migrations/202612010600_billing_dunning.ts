import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Renewals and dunning: a past-due subscription's retries done so far and when the next one is
 * due (days 1, 3, 5, 7 and 14 after the period's end), and the billing e-mails sent once each
 * (a receipt, a "payment failed" per retry, "your trial ends in 3 days"), keyed per workspace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table subscriptions add column dunning_attempts integer not null default 0;
    alter table subscriptions add column next_retry_at timestamptz;
    create index subscriptions_due on subscriptions (status, period_end);
    create table billing_mails (
      workspace_id uuid not null references workspaces(id) on delete cascade,
      key text not null,
      sent_at timestamptz not null default now(),
      primary key (workspace_id, key)
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table billing_mails;
    drop index subscriptions_due;
    alter table subscriptions drop column next_retry_at;
    alter table subscriptions drop column dunning_attempts;
    `,
  );
}
