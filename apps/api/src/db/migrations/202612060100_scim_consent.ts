import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Issue 29: SCIM acts on what a workspace owns, and "require SSO" on the workspace that asks it.
 * - `scim_pending_users`: a person SCIM named whose address already has an account. They are
 *   invited (the invite), not made a member; the row is the SCIM resource (its own id) until they
 *   accept, then the same id stands for their membership.
 * - `users.provisioned_by_workspace_id`: the workspace whose SCIM made the account; only there may
 *   SCIM change its e-mail, and only while nobody used it otherwise.
 * - `sessions.via_workspace_id` (and the 2FA challenge's, carried into the session): the workspace
 *   whose identity provider proved the sign-in; a workspace requiring SSO admits only those.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table scim_pending_users (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      invite_id uuid not null references invites(id) on delete cascade,
      email text not null,
      name text not null default '',
      external_id text,
      active boolean not null default true,
      created_at timestamptz not null default now()
    );
    create unique index scim_pending_users_email_key on scim_pending_users (workspace_id, lower(email));
    create index scim_pending_users_invite on scim_pending_users (invite_id);
    alter table users add column provisioned_by_workspace_id uuid references workspaces(id) on delete set null;
    alter table sessions add column via_workspace_id uuid references workspaces(id) on delete set null;
    alter table two_factor_challenges add column via_workspace_id uuid references workspaces(id) on delete cascade;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table two_factor_challenges drop column via_workspace_id;
    alter table sessions drop column via_workspace_id;
    alter table users drop column provisioned_by_workspace_id;
    drop table scim_pending_users;
    `,
  );
}
