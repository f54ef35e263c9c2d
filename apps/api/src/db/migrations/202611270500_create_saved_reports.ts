import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Saved reports and their public links (issue 14). A saved report is a report page's slug and its
 * query string under a name, its owner's alone or shared with the workspace; names are unique per
 * owner, whatever their case. A public link keeps only the sha-256 of its secret; revoking keeps
 * the row (the page can say "revoked", the owner sees its history).
 *
 * Later (issue 15, spreadsheet imports of a CSV): a CSV token whose secret must sit in the URL
 * will be a second, separately revocable hash on the link (`csv_secret_hash`), never this one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table saved_reports (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      owner_user_id uuid not null,
      name text not null check (length(name) between 1 and 100),
      kind text not null,
      query text not null,
      visibility text not null check (visibility in ('private', 'workspace')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id),
      foreign key (workspace_id, owner_user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create unique index saved_reports_owner_name on saved_reports (workspace_id, owner_user_id, lower(name));
    create index saved_reports_shared on saved_reports (workspace_id, visibility, name);

    create table report_links (
      id uuid primary key,
      workspace_id uuid not null,
      saved_report_id uuid not null,
      created_by_user_id uuid not null,
      secret_hash text not null,
      include_costs boolean not null default false,
      expires_at timestamptz,
      revoked_at timestamptz,
      last_viewed_at timestamptz,
      created_at timestamptz not null default now(),
      foreign key (workspace_id, saved_report_id) references saved_reports (workspace_id, id) on delete cascade,
      foreign key (workspace_id, created_by_user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create index report_links_report on report_links (workspace_id, saved_report_id, created_at);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists report_links;\ndrop table if exists saved_reports;');
}
