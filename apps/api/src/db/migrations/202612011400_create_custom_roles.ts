import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Custom roles (Pro): a workspace's named permission sets, each built from a built-in base role it
 * falls back to when the plan lacks custom roles. A member may hold one (beside their built-in
 * role, kept as the fallback) and a group may carry one for all its members (a union).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table custom_roles (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      name text not null,
      base_role text not null check (base_role in ('admin', 'manager', 'member', 'guest')),
      permissions jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index custom_roles_name_key on custom_roles (workspace_id, lower(name));
    alter table memberships add column custom_role_id uuid references custom_roles(id) on delete set null;
    alter table groups add column custom_role_id uuid references custom_roles(id) on delete set null;
    create index memberships_custom_role on memberships (custom_role_id) where custom_role_id is not null;
    create index groups_custom_role on groups (custom_role_id) where custom_role_id is not null;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table groups drop column custom_role_id;
    alter table memberships drop column custom_role_id;
    drop table custom_roles;
    `,
  );
}
