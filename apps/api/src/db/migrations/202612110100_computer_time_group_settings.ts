import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Computer time's settings per group (issue 35): a group may keep less than the workspace (only
 * applications, or no sites) and may let its managers see its people's activity, or not, whatever
 * the workspace says. Null is "as the workspace". A person in several groups gets the most private
 * of their groups' choices (computer-time.privacy.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table computer_time_group_settings (
      group_id uuid primary key,
      workspace_id uuid not null,
      keep text check (keep in ('apps', 'titles', 'sites')),
      managers_see_activity boolean,
      updated_at timestamptz not null default now(),
      foreign key (workspace_id, group_id) references groups (workspace_id, id) on delete cascade,
      check (keep is not null or managers_see_activity is not null)
    );
    create index computer_time_group_settings_workspace on computer_time_group_settings (workspace_id);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table computer_time_group_settings;');
}
