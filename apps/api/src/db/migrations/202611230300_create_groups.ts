import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table groups (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      parent_id uuid references groups (id) on delete cascade,
      name text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id)
    );
    create unique index groups_sibling_name_key
      on groups (workspace_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));

    create table group_members (
      workspace_id uuid not null,
      group_id uuid not null,
      user_id uuid not null,
      created_at timestamptz not null default now(),
      primary key (group_id, user_id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id) on delete cascade,
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create index group_members_user_idx on group_members (workspace_id, user_id);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table group_members;
    drop table groups;
  `,
  );
}
