import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Clients, projects, nestable tasks, project/task assignments, tag lists and tags.
 * Every table has `unique (workspace_id, id)` so other features can point at it with a
 * composite foreign key that can never cross workspaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table clients (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      name text not null,
      address text,
      currency text,
      note text,
      archived_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id)
    );
    create unique index clients_name_key on clients (workspace_id, lower(name));

    create table projects (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      client_id uuid,
      owner_user_id uuid,
      name text not null,
      color text not null default '#2f80ed',
      is_public boolean not null default false,
      description text,
      budget_type text check (budget_type in ('hours', 'fee')),
      budget_amount bigint check (budget_amount >= 0),
      budget_resets_monthly boolean not null default false,
      billable_default boolean not null default false,
      keywords_enabled boolean not null default false,
      keywords jsonb not null default '[]',
      archived_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id),
      foreign key (workspace_id, client_id) references clients (workspace_id, id) on delete set null (client_id),
      foreign key (workspace_id, owner_user_id) references memberships (workspace_id, user_id) on delete set null (owner_user_id)
    );
    create unique index projects_sibling_name_key
      on projects (workspace_id, coalesce(client_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
    create index projects_client_idx on projects (workspace_id, client_id);

    create table tasks (
      id uuid primary key,
      workspace_id uuid not null,
      project_id uuid not null,
      parent_task_id uuid,
      name text not null,
      description text,
      budget_type text check (budget_type in ('hours', 'fee')),
      budget_amount bigint check (budget_amount >= 0),
      budget_resets_monthly boolean not null default false,
      billable_default boolean not null default false,
      keywords_enabled boolean not null default false,
      keywords jsonb not null default '[]',
      archived_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id),
      unique (workspace_id, project_id, id),
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete cascade,
      foreign key (workspace_id, project_id, parent_task_id) references tasks (workspace_id, project_id, id)
        on delete cascade on update cascade
    );
    create unique index tasks_sibling_name_key
      on tasks (project_id, coalesce(parent_task_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
    create index tasks_project_idx on tasks (workspace_id, project_id);

    create table project_members (
      id uuid primary key,
      workspace_id uuid not null,
      project_id uuid not null,
      task_id uuid,
      user_id uuid,
      group_id uuid,
      created_at timestamptz not null default now(),
      unique (workspace_id, id),
      check ((user_id is null) <> (group_id is null)),
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete cascade,
      foreign key (workspace_id, project_id, task_id) references tasks (workspace_id, project_id, id)
        on delete cascade on update cascade,
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade,
      foreign key (workspace_id, group_id) references groups (workspace_id, id) on delete cascade
    );
    create unique index project_members_key on project_members (
      project_id,
      coalesce(task_id, '00000000-0000-0000-0000-000000000000'::uuid),
      coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid),
      coalesce(group_id, '00000000-0000-0000-0000-000000000000'::uuid)
    );
    create index project_members_user_idx on project_members (workspace_id, user_id);
    create index project_members_group_idx on project_members (workspace_id, group_id);

    create table tag_lists (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      name text not null,
      archived_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id)
    );
    create unique index tag_lists_name_key on tag_lists (workspace_id, lower(name));

    create table tags (
      id uuid primary key,
      workspace_id uuid not null,
      tag_list_id uuid not null,
      name text not null,
      archived_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id),
      foreign key (workspace_id, tag_list_id) references tag_lists (workspace_id, id) on delete cascade
    );
    create unique index tags_name_key on tags (tag_list_id, lower(name));
    create index tags_workspace_idx on tags (workspace_id);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table tags;
    drop table tag_lists;
    drop table project_members;
    drop table tasks;
    drop table projects;
    drop table clients;
  `,
  );
}
