import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Approval reminders (issue 17) sent, one row per person and subject (`unsubmitted:<period start>`
 * for a member's ended period, `pending:<approval id>` for an approver), so the hourly job sends
 * each reminder once however often it runs and however many processes run it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table approval_reminders (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      subject text not null,
      sent_at timestamptz not null default now(),
      primary key (workspace_id, user_id, subject)
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists approval_reminders;');
}
