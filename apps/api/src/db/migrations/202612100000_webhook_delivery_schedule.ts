import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Webhook deliveries drained per endpoint (issue 34's fan-out at 10,000 events a minute): each
 * delivery keeps its own attempts and when it is next due, so one job per endpoint sends a batch
 * and writes its outcome in a few statements, instead of one job with its own queries per
 * delivery. A batch leases what it sends (`leased_until`): due again only if its process dies. Deliveries still queued become due at once; their old per-delivery jobs are dropped
 * (the every-minute fan-out drains whatever is due).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table webhook_deliveries
      add column attempts int not null default 0,
      add column next_attempt_at timestamptz,
      add column leased_until timestamptz;
    update webhook_deliveries set next_attempt_at = now() where state = 'queued';
    create index webhook_deliveries_due on webhook_deliveries (webhook_id, next_attempt_at) where state = 'queued';
    delete from jobs where name = 'webhooks.deliver' and state in ('queued', 'running');
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop index webhook_deliveries_due;
    alter table webhook_deliveries drop column leased_until, drop column next_attempt_at, drop column attempts;
    `,
  );
}
