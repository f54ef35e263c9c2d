import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Computer time's daily rollups per site too (issue 35): a browser's time is kept per day,
 * application and site (the pages' host, '' for time without one), so the Activities page sorts
 * it by the categories' site rules. Rollups written before keep their time under ''.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table activity_daily add column site text not null default '';
    alter table activity_daily drop constraint activity_daily_pkey;
    alter table activity_daily add primary key (workspace_id, user_id, day, app, site);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    delete from activity_daily where site <> '';
    alter table activity_daily drop constraint activity_daily_pkey;
    alter table activity_daily drop column site;
    alter table activity_daily add primary key (workspace_id, user_id, day, app);
    `,
  );
}
