import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Each member's notification settings, by kind (approval submitted, rejected, approved; budget
 * alert): whether it shows in the bell and whether it is e-mailed. No row is both on, so members
 * from before, and kinds added later, get everything until they turn something off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table notification_settings (
      workspace_id uuid not null,
      user_id uuid not null,
      kind text not null,
      in_app boolean not null,
      email boolean not null,
      updated_at timestamptz not null default now(),
      primary key (workspace_id, user_id, kind),
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table notification_settings;');
}
