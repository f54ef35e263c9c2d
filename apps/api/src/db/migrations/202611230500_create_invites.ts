import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Invitations to a workspace, member settings (external id) and the team settings of a
 * workspace: its purchased license count and "hide disabled users from lists in reports".
 * A member removed from a workspace keeps a membership row with status 'removed', so the
 * time they tracked stays attributed to them (time entries point at memberships).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table memberships add column external_id text;
    alter table memberships drop constraint memberships_status_check;
    alter table memberships add constraint memberships_status_check
      check (status in ('active', 'disabled', 'removed'));
    create unique index memberships_external_id_key
      on memberships (workspace_id, lower(external_id)) where external_id is not null;

    alter table workspaces add column licenses integer not null default 1 check (licenses between 1 and 999);
    alter table workspaces add column hide_disabled_users boolean not null default false;

    create table invites (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      email text not null,
      role text not null check (role in ('admin', 'manager', 'member', 'guest')),
      group_id uuid,
      token_hash text not null unique,
      invited_by_user_id uuid references users (id) on delete set null,
      accepted_user_id uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      sent_at timestamptz not null default now(),
      send_count integer not null default 1,
      expires_at timestamptz not null,
      accepted_at timestamptz,
      revoked_at timestamptz,
      unique (workspace_id, id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id) on delete set null (group_id)
    );
    create unique index invites_pending_email_key
      on invites (workspace_id, lower(email)) where accepted_at is null and revoked_at is null;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table invites;
    alter table workspaces drop column hide_disabled_users;
    alter table workspaces drop column licenses;
    drop index memberships_external_id_key;
    alter table memberships drop column external_id;
    delete from memberships where status = 'removed';
    alter table memberships drop constraint memberships_status_check;
    alter table memberships add constraint memberships_status_check check (status in ('active', 'disabled'));
  `,
  );
}
