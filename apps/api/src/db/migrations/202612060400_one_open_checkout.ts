import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * At most one open checkout (being charged, or waiting for the bank's second step) per workspace,
 * held by the database (issue 29: five checkouts at once charged up to five times). Renewals
 * (keys `renewal:…`, which a checkout may not use) are not checkouts and keep their own keys.
 * A checkout left open past its time is `superseded` by the next one. Workspaces that already have
 * several open ones keep the newest open; the older ones are superseded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table checkout_attempts drop constraint checkout_attempts_status_check;
    alter table checkout_attempts add constraint checkout_attempts_status_check
      check (status in ('pending', 'requires_action', 'succeeded', 'declined', 'superseded'));
    update checkout_attempts a set status = 'superseded', updated_at = now()
      where status in ('pending', 'requires_action') and idempotency_key not like 'renewal:%'
        and exists (
          select 1 from checkout_attempts b
          where b.workspace_id = a.workspace_id and b.status in ('pending', 'requires_action')
            and b.idempotency_key not like 'renewal:%' and (b.created_at, b.id) > (a.created_at, a.id)
        );
    create unique index checkout_attempts_one_open on checkout_attempts (workspace_id)
      where status in ('pending', 'requires_action') and idempotency_key not like 'renewal:%';
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop index checkout_attempts_one_open;
    update checkout_attempts set status = 'declined', decline_message = 'Replaced by a later payment.'
      where status = 'superseded';
    alter table checkout_attempts drop constraint checkout_attempts_status_check;
    alter table checkout_attempts add constraint checkout_attempts_status_check
      check (status in ('pending', 'requires_action', 'succeeded', 'declined'));
    `,
  );
}
