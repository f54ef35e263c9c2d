import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Computer time's categories (issue 35): a workspace's tree of categories, each with its rules
 * (application, title or site patterns, tried in order) and a productivity level. Rules apply when
 * activity is read, so nothing else stores a category. A workspace gets the starter set the first
 * time its categories are read (`categories_seeded_at`), so deleting them all leaves none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table activity_categories (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      parent_id uuid references activity_categories (id) on delete cascade,
      name text not null,
      productivity text check (productivity in ('productive', 'neutral', 'unproductive')),
      rules jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index activity_categories_workspace on activity_categories (workspace_id, created_at, id);
    create unique index activity_categories_name on activity_categories
      (workspace_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
    alter table computer_time_settings add column categories_seeded_at timestamptz;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table computer_time_settings drop column categories_seeded_at;
    drop table activity_categories;
    `,
  );
}
