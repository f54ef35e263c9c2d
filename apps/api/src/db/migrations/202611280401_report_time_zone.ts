import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The workspace's report time zone (issue 14): the zone whose local days, weeks and months a
 * report uses unless the viewer asks for another, so the daily report rollups have one fixed
 * zone. Every workspace gets its time settings row here (the defaults, which the API showed
 * without one) with its owner's zone; a new workspace gets it when it is created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table time_settings add column report_time_zone text not null default 'UTC';
    insert into time_settings (workspace_id) select id from workspaces on conflict (workspace_id) do nothing;
    update time_settings s set report_time_zone = u.time_zone
      from memberships m join users u on u.id = m.user_id
      where m.workspace_id = s.workspace_id and m.role = 'owner';
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'alter table time_settings drop column report_time_zone;');
}
