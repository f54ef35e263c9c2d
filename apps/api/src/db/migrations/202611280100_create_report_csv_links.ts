import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * CSV links of saved reports (issue 15, Google Sheets' IMPORTDATA). Google fetches the address from
 * its own servers, so the secret must sit in the URL path: it is a token of its own, kept only as
 * its sha-256, separate from the page links' secrets (whose secret stays in a URL fragment). A
 * saved report has at most one working CSV link: a new one revokes the one before. Revoked rows
 * stay for their history, as page links do. The note in 202611270500 foresaw a second hash on a
 * page link; a table of its own lets the CSV link exist, expire and be revoked without one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table report_csv_links (
      id uuid primary key,
      workspace_id uuid not null,
      saved_report_id uuid not null,
      created_by_user_id uuid not null,
      token_hash text not null unique,
      include_costs boolean not null default false,
      expires_at timestamptz,
      revoked_at timestamptz,
      last_fetched_at timestamptz,
      created_at timestamptz not null default now(),
      foreign key (workspace_id, saved_report_id) references saved_reports (workspace_id, id) on delete cascade,
      foreign key (workspace_id, created_by_user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create unique index report_csv_links_one_active on report_csv_links (workspace_id, saved_report_id)
      where revoked_at is null;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists report_csv_links;');
}
